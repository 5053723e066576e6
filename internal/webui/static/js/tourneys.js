// Tournaments: the list (its page, and the panel in the lobby) with register and
// unregister buttons, each one's state and level clock, and the payout table.
// It asks the house again every two seconds; the clocks count down in between.
import { api, $, el, chips, me, setCredits } from "./app.js";

const KINDS = { sng: "Sit-and-go", mtt: "Scheduled" };

/** mmss formats milliseconds as m:ss. */
export const mmss = (ms) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

/** stateText says where a tournament is: registering, its level and clock, or its end. */
export function stateText(t, since = 0) {
  switch (t.state) {
    case "registering":
      if (t.kind === "mtt" && t.start) return `Registering · starts ${new Date(t.start).toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" })}`;
      return `Registering · starts when ${t.max_entrants} have registered`;
    case "running": {
      const lvl = `Level ${t.level + 1}: ${chips(t.blinds.small_blind)}/${chips(t.blinds.big_blind)}` + (t.blinds.ante ? ` ante ${chips(t.blinds.ante)}` : "");
      const left = t.level_left_ms > 0 ? ` · next level in ${mmss(t.level_left_ms - since)}` : "";
      return `Running · ${chips(t.remaining)} left · ${lvl}${left}`;
    }
    case "finished": return "Finished";
    default: return "Cancelled: buy-ins refunded";
  }
}

/** action calls register, unregister or bots on tournament id and refreshes. */
export async function action(id, what, errNode, refresh) {
  errNode.textContent = "";
  try {
    await api("POST", `/api/tournaments/${id}/${what}`);
    if (what === "register") waiting.add(id);
    const m = await me(true);
    if (m) {
      setCredits(m.credits);
      const c = $("credits"); // the lobby's "Your chips"
      if (c) c.textContent = chips(m.credits);
    }
  } catch (e) {
    errNode.textContent = e.status === 401 ? "Log in or play as a guest to register." : e.message;
  }
  refresh();
}

/** buttons returns the buttons a player has for tournament t. */
export function buttons(t, errNode, refresh) {
  const out = [];
  if (t.your_table) out.push(el("a", { class: "button primary", href: `/table/${encodeURIComponent(t.your_table)}` }, "Go to your table"));
  if (t.state !== "registering") return out;
  if (t.registered) {
    out.push(el("button", { type: "button", onclick: () => action(t.id, "unregister", errNode, refresh) }, "Unregister"));
    if (t.bot_fill && t.entrants < t.max_entrants) out.push(el("button", { type: "button", onclick: () => action(t.id, "bots", errNode, refresh) }, "Fill with bots"));
  } else {
    out.push(el("button", { type: "button", class: "primary", onclick: () => action(t.id, "register", errNode, refresh) }, `Register (${chips(t.buy_in)})`));
  }
  return out;
}

// A player whose tournament starts goes to their table: one seen registered
// while it registered, or who registered here.
export const waiting = new Set();
function follow(list) {
  for (const t of list) {
    if (t.registered && t.state === "registering") waiting.add(t.id);
    if (waiting.has(t.id) && t.your_table) {
      location.href = `/table/${encodeURIComponent(t.your_table)}`;
      return;
    }
  }
}

let list = [], fetched = 0;

function drawPage(body, errNode) {
  body.replaceChildren();
  if (!list.length) body.append(el("tr", {}, el("td", { colspan: 3 }, "No tournament is open.")));
  for (const t of list) {
    body.append(el("tr", { dataset: { id: t.id } },
      el("th", { scope: "row" }, el("a", { href: `/tournaments/${t.id}` }, t.name), el("span", { class: "tag" }, KINDS[t.kind] || t.kind),
        el("div", { class: "note" }, `buy-in ${chips(t.buy_in)} · ${chips(t.stack)} chips`)),
      el("td", {}, `${t.entrants}/${t.max_entrants}`),
      el("td", {}, el("div", { class: "t-state" }, stateText(t, Date.now() - fetched)), el("div", { class: "row" }, buttons(t, errNode, refresh)))));
  }
}

function drawMini(ul, errNode) {
  ul.replaceChildren();
  const shown = list.filter((t) => t.state === "registering" || t.state === "running").slice(0, 6);
  if (!shown.length) ul.append(el("li", {}, "No tournament is open."));
  for (const t of shown) {
    ul.append(el("li", { dataset: { id: t.id } },
      el("div", {}, el("a", { href: `/tournaments/${t.id}` }, t.name), ` · ${chips(t.buy_in)} · ${t.entrants}/${t.max_entrants}`),
      el("div", { class: "t-state note" }, stateText(t, Date.now() - fetched)),
      el("div", { class: "row" }, buttons(t, errNode, refresh))));
  }
}

function draw() {
  const errNode = $("tourneys-error");
  if ($("tourneys-body")) drawPage($("tourneys-body"), errNode);
  if ($("tourneys-mini")) drawMini($("tourneys-mini"), errNode);
}

async function refresh() {
  try {
    const r = await api("GET", "/api/tournaments");
    list = r.tournaments || [];
    fetched = Date.now();
    follow(list);
    draw();
    if ($("payouts-body") && !$("payouts-body").children.length) {
      let from = 2;
      for (const tier of r.payouts || []) {
        $("payouts-body").append(el("tr", {}, el("td", {}, `${from}–${tier.max_field}`),
          el("td", {}, tier.shares.map((s, i) => `${i + 1}: ${(s / 10).toFixed(s % 10 ? 1 : 0)}%`).join(" · "))));
        from = tier.max_field + 1;
      }
    }
  } catch (e) {
    $("tourneys-error").textContent = e.message;
  }
}

// The list runs where the page has one (the tournament's page imports the helpers only).
if ($("tourneys-body") || $("tourneys-mini")) {
  refresh();
  setInterval(refresh, 2000);
  // The clocks tick between two answers.
  setInterval(() => {
    for (const node of document.querySelectorAll("[data-id] .t-state")) {
      const t = list.find((x) => String(x.id) === node.closest("[data-id]").dataset.id);
      if (t) node.textContent = stateText(t, Date.now() - fetched);
    }
  }, 1000);
}
