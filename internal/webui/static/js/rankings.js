// Rankings: players by net winnings or by win rate.
import { api, $, el, chips } from "./app.js";

/** tournaments lists the players by their tournament net (prizes less buy-ins). */
async function tournaments(body) {
  $("rk-col4").textContent = "Tournaments";
  $("rk-col5").textContent = "Won · in the money";
  const r = await api("GET", "/api/rankings/tournaments?limit=100");
  body.replaceChildren();
  if (!r.rankings?.length) body.append(el("tr", {}, el("td", { colspan: 5 }, "Nobody has finished a tournament yet.")));
  r.rankings.forEach((p, i) => body.append(el("tr", {},
    el("td", {}, String(i + 1)),
    el("th", { scope: "row" }, el("a", { href: `/players/${encodeURIComponent(p.name)}` }, p.name)),
    el("td", { class: `num ${p.net < 0 ? "neg" : "pos"}` }, chips(p.net)),
    el("td", { class: "num" }, chips(p.played)),
    el("td", { class: "num" }, `${chips(p.won)} · ${chips(p.cashed)}`))));
}

async function load(by) {
  for (const b of document.querySelectorAll("[data-by]")) b.setAttribute("aria-pressed", String(b.dataset.by === by));
  const body = $("rankings-body");
  if (by === "tournaments") {
    try { await tournaments(body); } catch (e) { body.replaceChildren(el("tr", {}, el("td", { colspan: 5 }, e.message))); }
    return;
  }
  $("rk-col4").textContent = "Hands";
  $("rk-col5").textContent = "Win rate";
  try {
    const r = await api("GET", `/api/rankings?by=${by}&limit=100`);
    const rows = r.rankings || r.players || [];
    body.replaceChildren();
    if (!rows.length) body.append(el("tr", {}, el("td", { colspan: 5 }, "Nobody is ranked yet: play some hands.")));
    rows.forEach((p, i) => body.append(el("tr", {},
      el("td", {}, String(p.rank || i + 1)),
      el("th", { scope: "row" }, el("a", { href: `/players/${encodeURIComponent(p.name)}` }, p.name)),
      el("td", { class: `num ${p.net_won < 0 ? "neg" : "pos"}` }, chips(p.net_won)),
      el("td", { class: "num" }, chips(p.hands_played)),
      el("td", { class: "num" }, p.bb_per_100 !== undefined ? `${p.bb_per_100.toFixed(1)} bb/100` : `${((p.win_rate || 0) * 100).toFixed(1)}%`))));
  } catch (e) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: 5 }, e.status === 404 ? "Rankings are not available on this house yet." : e.message)));
  }
}

for (const b of document.querySelectorAll("[data-by]")) b.addEventListener("click", () => load(b.dataset.by));
load("net");
