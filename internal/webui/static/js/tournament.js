// A tournament's page: its state and level clock, the players' chips and places,
// its tables, the blind structure and the prizes; register and unregister.
import { api, $, el, chips, param } from "./app.js";
import { stateText, buttons, mmss, waiting } from "./tourneys.js";

let t = null, fetched = 0, wasRegistering = false;

function draw() {
  $("t-name").textContent = t.name;
  const kind = t.kind === "sng" ? `Sit-and-go of ${t.seats}` : `Scheduled, tables of ${t.seats}`;
  $("t-sub").textContent = `${kind} · buy-in ${chips(t.buy_in)} · starting stack ${chips(t.stack)} · levels of ${mmss(t.level_seconds * 1000)}`;
  $("t-actions").replaceChildren(...buttons(t, $("t-error"), load));
  const yours = $("t-yours");
  yours.hidden = !t.your_table;
  if (t.your_table) yours.replaceChildren("You play at ", el("a", { href: `/table/${encodeURIComponent(t.your_table)}` }, t.your_table), ".");
  const states = { registering: "Registering", running: "Running", finished: "Finished", cancelled: "Cancelled" };
  const items = [["State", states[t.state] || t.state], ["Players", `${t.entrants}/${t.max_entrants}`], ["Prize pool", chips(t.pool)]];
  if (t.state === "running") {
    const b = t.blinds;
    items.push(["Left", chips(t.remaining)], [`Level ${t.level + 1}`, `${chips(b.small_blind)}/${chips(b.big_blind)}` + (b.ante ? ` ante ${chips(b.ante)}` : "")],
      ["Next level in", t.level_left_ms > 0 ? mmss(t.level_left_ms - (Date.now() - fetched)) : "last level"]);
  }
  $("t-stats").replaceChildren(...items.map(([k, v]) => el("div", { class: "stat" }, el("dt", {}, k), el("dd", { class: k === "Next level in" ? "t-clock" : "" }, v))));
  $("t-state").textContent = stateText(t, Date.now() - fetched);
  const st = $("t-standings");
  st.replaceChildren();
  if (!t.standings?.length) st.append(el("tr", {}, el("td", { colspan: 5 }, "Nobody has registered yet.")));
  (t.standings || []).forEach((s, i) => st.append(el("tr", {},
    el("td", {}, s.place ? String(s.place) : String(i + 1)),
    el("th", { scope: "row" }, s.bot ? s.name : el("a", { href: `/players/${encodeURIComponent(s.name)}` }, s.name)),
    el("td", { class: "num" }, s.place ? "out" : chips(s.stack)),
    el("td", {}, s.table ? el("a", { href: `/table/${encodeURIComponent(s.table)}` }, s.table) : ""),
    el("td", { class: "num" }, s.prize ? chips(s.prize) : ""))));
  $("t-tables").replaceChildren(...(t.tables || []).map((x) => el("li", {}, el("a", { href: `/table/${encodeURIComponent(x.name)}` }, x.name), ` (${x.players})`)));
  if (!t.tables?.length) $("t-tables").append(el("li", {}, t.state === "registering" ? "Tables open at the start." : "None open."));
  $("t-levels").replaceChildren(...(t.levels || []).map((l, i) => el("tr", { class: t.state === "running" && i === t.level ? "current" : "" },
    el("td", {}, String(i + 1)), el("td", { class: "num" }, `${chips(l.small_blind)}/${chips(l.big_blind)}`), el("td", { class: "num" }, l.ante ? chips(l.ante) : ""))));
  $("t-payouts").replaceChildren(...(t.payouts || []).map((p) => el("li", {}, chips(p))));
}

async function load() {
  try {
    t = await api("GET", `/api/tournaments/${encodeURIComponent(param)}`);
    fetched = Date.now();
    if (t.state === "registering" && t.registered) wasRegistering = true;
    if ((wasRegistering || waiting.has(t.id)) && t.your_table) {
      location.href = `/table/${encodeURIComponent(t.your_table)}`;
      return;
    }
    draw();
  } catch (e) {
    $("t-error").textContent = e.status === 404 ? "There is no such tournament." : e.message;
  }
}

load();
setInterval(load, 2000);
setInterval(() => {
  const c = document.querySelector(".t-clock");
  if (c && t && t.level_left_ms > 0) c.textContent = mmss(t.level_left_ms - (Date.now() - fetched));
  if (t) $("t-state").textContent = stateText(t, Date.now() - fetched);
}, 1000);
