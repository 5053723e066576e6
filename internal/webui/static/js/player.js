// A player's profile: statistics and recent hands with links to the replays.
import { api, $, el, chips, when, param } from "./app.js";

async function load() {
  const stats = $("stats");
  try {
    const p = await api("GET", `/api/players/${encodeURIComponent(param)}`);
    $("player-name").textContent = p.name;
    $("player-since").textContent = `${p.guest ? "Guest" : "Player"} since ${when(p.since)}`;
    const items = [
      ["Net won", chips(p.net_won)],
      ["Games played", chips(p.games_played)],
      ["Hands played", chips(p.hands_played)],
      ["Hands won", chips(p.hands_won)],
      ["Win rate", `${((p.win_rate || 0) * 100).toFixed(1)}%`],
    ];
    if (p.bb_per_100 !== undefined) items.push(["bb/100", p.bb_per_100.toFixed(1)]);
    for (const k of ["vpip", "pfr"]) if (p[k] !== undefined) items.push([k.toUpperCase(), `${(p[k] * 100).toFixed(1)}%`]);
    try {
      const tr = await api("GET", `/api/players/${encodeURIComponent(param)}/tournaments`);
      items.push(["Tournaments", chips(tr.played)], ["Tournaments won", chips(tr.won)], ["In the money", chips(tr.cashed)],
        ["Tournament net", chips(tr.prizes - tr.buy_ins)]);
    } catch { /* a house without tournaments */ }
    stats.replaceChildren(...items.flatMap(([k, v]) => [el("div", { class: "stat" }, el("dt", {}, k), el("dd", {}, v))]));
  } catch (e) {
    stats.replaceChildren(el("p", { class: "error" }, e.status === 404 ? `No player is called ${param}.` : e.message));
    $("hands-body").replaceChildren();
    return;
  }
  try {
    const r = await api("GET", `/api/players/${encodeURIComponent(param)}/hands?limit=20`);
    const body = $("hands-body");
    body.replaceChildren();
    if (!r.hands?.length) body.append(el("tr", {}, el("td", { colspan: 4 }, "No hands yet.")));
    for (const h of r.hands || []) {
      const net = h.net ?? (h.players || []).find((x) => x.name === param)?.net ?? 0;
      body.append(el("tr", {},
        el("td", {}, el("a", { href: `/hands/${h.id}` }, `#${h.id}`)),
        el("td", {}, h.table || ""),
        el("td", {}, when(h.played_at)),
        el("td", { class: `num ${net < 0 ? "neg" : "pos"}` }, chips(net))));
    }
  } catch (e) {
    $("hands-body").replaceChildren(el("tr", {}, el("td", { colspan: 4 }, e.message)));
  }
}
load();
