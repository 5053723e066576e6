// Rankings: players by net winnings or by win rate.
import { api, $, el, chips } from "./app.js";

async function load(by) {
  for (const b of document.querySelectorAll("[data-by]")) b.setAttribute("aria-pressed", String(b.dataset.by === by));
  const body = $("rankings-body");
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
