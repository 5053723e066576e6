// Rankings: players by net winnings or by win rate.
import { api, $, el, chips } from "./app.js";

/** tournaments lists the players by their tournament net (prizes less buy-ins), unless another load began meanwhile. */
async function tournaments(body, current) {
  $("rk-col4").textContent = "Tournaments";
  $("rk-col5").textContent = "Won · in the money";
  const r = await api("GET", "/api/rankings/tournaments?limit=100");
  if (!current()) return;
  body.replaceChildren();
  if (!r.rankings?.length) body.append(el("tr", {}, el("td", { colspan: 5 }, "Nobody has finished a tournament yet.")));
  r.rankings.forEach((p, i) => body.append(el("tr", {},
    el("td", {}, String(i + 1)),
    el("th", { scope: "row" }, el("a", { href: `/players/${encodeURIComponent(p.name)}` }, p.name)),
    el("td", { class: `num ${p.net < 0 ? "neg" : "pos"}` }, chips(p.net)),
    el("td", { class: "num" }, chips(p.played)),
    el("td", { class: "num" }, `${chips(p.won)} · ${chips(p.cashed)}`))));
}

// loads counts the loads begun: only the latest may fill the table, so that a
// slow answer to an earlier choice never replaces the one chosen last.
let loads = 0;

/** load fills the table ranked by `by`; the table is aria-busy until it is filled. */
async function load(by) {
  const mine = ++loads;
  const current = () => mine === loads;
  for (const b of document.querySelectorAll("[data-by]")) b.setAttribute("aria-pressed", String(b.dataset.by === by));
  const body = $("rankings-body");
  body.setAttribute("aria-busy", "true");
  try {
    await fill(by, body, current);
  } finally {
    if (current()) body.removeAttribute("aria-busy");
  }
}

async function fill(by, body, current) {
  if (by === "tournaments") {
    try { await tournaments(body, current); } catch (e) { if (current()) body.replaceChildren(el("tr", {}, el("td", { colspan: 5 }, e.message))); }
    return;
  }
  $("rk-col4").textContent = "Hands";
  $("rk-col5").textContent = "Win rate";
  try {
    const r = await api("GET", `/api/rankings?by=${by}&limit=100`);
    if (!current()) return;
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
    if (current()) body.replaceChildren(el("tr", {}, el("td", { colspan: 5 }, e.status === 404 ? "Rankings are not available on this house yet." : e.message)));
  }
}

for (const b of document.querySelectorAll("[data-by]")) b.addEventListener("click", () => load(b.dataset.by));
load("net");
