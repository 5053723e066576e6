// The lobby: live table list, create-table form, lobby chat, players online,
// credits and refill, and the heads-up game against the computer.
import { api, $, el, chips, clock, me, Conn, connStatus, showFieldError, playAsGuest, setCredits } from "./app.js";
import { VARIANTS, stakes } from "./format.js";
import { ChatView, setupChatForm } from "./chatmute.js";


const tables = new Map();
let user = null;

/** SHORT names the games where the list of tables has no room for the Game
 * column (a phone). */
const SHORT = { nlhe: "NL", plhe: "PL", flhe: "FL", stud3: "Stud" };

function drawTables() {
  const body = $("tables-body");
  body.replaceChildren();
  const list = [...tables.values()].filter((t) => !t.heads_up).sort((a, b) => a.name.localeCompare(b.name));
  if (!list.length) {
    body.append(el("tr", {}, el("td", { colspan: 6 }, "No table is open. Create one below.")));
    return;
  }
  for (const t of list) {
    const seated = user && (t.players || []).includes(user.name);
    const full = t.taken >= t.seats;
    body.append(el("tr", { dataset: { table: t.name } },
      el("th", { scope: "row" }, el("a", { href: `/table/${encodeURIComponent(t.name)}` }, t.name), t.showcase ? el("span", { class: "tag" }, "showcase") : null,
        t.locked ? el("span", { class: "tag locked", title: "Locked: its password is needed" }, "🔒 password") : null,
        t.straddle ? el("span", { class: "tag" }, "straddle") : null, t.run_it_twice ? el("span", { class: "tag" }, "run it twice") : null),
      el("td", { class: "game-col" }, VARIANTS[t.variant] || t.variant),
      el("td", { title: VARIANTS[t.variant] || t.variant }, el("span", { class: "game-short" }, `${SHORT[t.variant] || t.variant} `), stakes(t)),
      el("td", { class: full ? "full" : "" }, `${t.taken}/${t.seats}`, t.waiting ? el("span", { class: "waiting-count", title: "Players on the waiting list" }, ` +${t.waiting} waiting`) : null),
      el("td", { class: "players-col" }, (t.players || []).join(", ")),
      el("td", {}, el("a", { class: "button small", href: `/table/${encodeURIComponent(t.name)}` }, seated ? "Back to seat" : !user ? "Watch" : full ? "Watch or wait" : "Join")),
    ));
  }
}

function drawOnline(players) {
  const ul = $("online");
  ul.replaceChildren(...players.map((p) => el("li", {}, p.startsWith("guest") ? p : el("a", { href: `/players/${encodeURIComponent(p)}` }, p))));
  $("online-count").textContent = `(${players.length})`;
}

const chat = new ChatView($("chat-log"), $("chat-muted"), () => user?.name, clock);
const addChat = (m) => chat.add(m);

async function drawMe(refresh) {
  const box = $("me-body");
  try { user = await me(refresh); } catch { user = null; }
  box.replaceChildren();
  if (!user) {
    box.append(
      el("p", {}, "Log in to sit, chat and create tables. Anyone may watch."),
      el("p", { class: "row" },
        el("a", { class: "button primary", href: "/login?next=/lobby" }, "Log in"),
        el("a", { class: "button", href: "/register" }, "Register"),
        el("button", { type: "button", id: "guest", onclick: async () => {
          try { await playAsGuest(); location.reload(); } catch (e) { box.append(el("p", { class: "error", role: "alert" }, e.message)); }
        } }, "Play as a guest")));
    return;
  }
  const refillMsg = el("p", { class: "error", id: "refill-msg", role: "status" });
  box.append(
    el("p", { class: "big-credits" }, el("span", { id: "credits" }, chips(user.credits)), " credits"),
    el("p", { class: "sub" }, user.guest ? "Playing as a guest" : el("a", { href: `/players/${encodeURIComponent(user.name)}` }, "Your statistics")),
    el("button", { type: "button", id: "refill", onclick: async () => {
      refillMsg.textContent = "";
      try {
        const r = await api("POST", "/api/refill", {});
        $("credits").textContent = chips(r.credits);
        setCredits(r.credits);
        refillMsg.className = "ok";
        refillMsg.textContent = `${chips(r.granted)} credits added.`;
      } catch (e) {
        refillMsg.className = "error";
        refillMsg.textContent = e.message;
      }
    } }, "Refill"),
    refillMsg,
  );
  seatedAt = new Set(user.tables || []);
  seatsChanged([...tables.values()], []);
  drawTables();
}

// seatedAt is the tables where the player has a seat: from GET /api/me, then
// kept up to date by the live listings of the public tables.
let seatedAt = new Set();

// bannerDrawn is the list of tables the banner shows, so that it is drawn again
// only when that changes: a lobby push redrawing it would replace the link
// under a player's pointer (and a click begun on it would be lost).
let bannerDrawn = null;

/** drawBanner says where the player has a seat, or hides itself. */
function drawBanner() {
  const banner = $("seated-banner");
  const list = [...seatedAt].sort();
  const key = JSON.stringify(list);
  if (key === bannerDrawn) return;
  bannerDrawn = key;
  banner.hidden = !list.length;
  banner.replaceChildren(...(list.length ? ["You have a seat at ", ...list.flatMap((t, i) => [i ? ", " : "", el("a", { href: `/table/${encodeURIComponent(t)}` }, t)]), ". Go back to play your hand."] : []));
}

/** seatsChanged follows the player's seats in listings that changed or closed. */
function seatsChanged(listings, closed) {
  if (!user) return;
  for (const t of listings) {
    if ((t.players || []).includes(user.name)) seatedAt.add(t.name);
    else seatedAt.delete(t.name);
  }
  for (const name of closed) seatedAt.delete(name);
  drawBanner();
}

// --- create a table -------------------------------------------------------------

const num = (id) => Number($(id).value);

/** createChecks validates a create-table request as the house will; null if it is fine. */
function createChecks(r) {
  const stud = r.variant === "stud3";
  if (!r.name) return { field: "name", message: "name: give the table a name" };
  if (r.name.length > 15) return { field: "name", message: "name: at most 15 characters" };
  if (!/^[A-Za-z0-9_-]+$/.test(r.name)) return { field: "name", message: "name: letters, digits, _ or - only (no spaces)" };
  if (r.name.toLowerCase() === "lobby") return { field: "name", message: "name: Lobby is taken by the lobby" };
  if (tables.has(r.name)) return { field: "name", message: "name: a table of that name is open" };
  if (!Number.isInteger(r.seats) || r.seats < 2 || r.seats > 10) return { field: "seats", message: "seats: 2 to 10" };
  if (stud) {
    if (r.small_blind || r.big_blind) return { field: "small_blind", message: "small_blind: stud has no blinds (0)" };
    if (r.ante < 0) return { field: "ante", message: "ante: 0 or more" };
  } else {
    if (!(r.small_blind > 0)) return { field: "small_blind", message: "small_blind: more than 0" };
    if (r.big_blind < r.small_blind) return { field: "big_blind", message: "big_blind: at least the small blind" };
    if (r.ante < 0 || r.ante >= r.big_blind) return { field: "ante", message: "ante: 0 or more, less than the big blind" };
  }
  const least = stud ? 10 * Math.max(r.ante, 1) : r.big_blind;
  if (!(r.min_buy_in >= least)) return { field: "min_buy_in", message: `min_buy_in: at least ${chips(least)}` };
  if (!(r.max_buy_in > r.min_buy_in)) return { field: "max_buy_in", message: "max_buy_in: more than the minimum buy-in" };
  if (r.max_buy_in > 1000000) return { field: "max_buy_in", message: "max_buy_in: at most 1,000,000" };
  if (!(r.schedule.every_hands >= 0)) return { field: "schedule", message: "schedule: 0 or more hands" };
  if (r.access === "password" && !(r.password.length >= 4 && r.password.length <= 64)) return { field: "password", message: "password: 4 to 64 characters" };
  if (!(r.action_seconds >= 5 && r.action_seconds <= 120)) return { field: "action_seconds", message: "action_seconds: 5 to 120" };
  if (r.bots.length > (r.showcase ? r.seats : r.seats - 1)) return { field: "bots", message: `bots: at most ${r.showcase ? r.seats : r.seats - 1} with ${r.seats} seats` };
  return null;
}

function createRequest() {
  const bots = [];
  for (const input of document.querySelectorAll("#ct-bots input")) {
    for (let i = 0; i < Number(input.value || 0); i++) bots.push(input.dataset.bot);
  }
  return {
    name: $("ct-name").value.trim(),
    variant: $("ct-variant").value,
    seats: num("ct-seats"),
    small_blind: num("ct-small_blind"),
    big_blind: num("ct-big_blind"),
    ante: num("ct-ante"),
    min_buy_in: num("ct-min_buy_in"),
    max_buy_in: num("ct-max_buy_in"),
    schedule: { every_hands: num("ct-every_hands"), every_minutes: 0 },
    action_seconds: num("ct-action_seconds"),
    bots,
    showcase: $("ct-showcase").checked,
    access: $("ct-access").value,
    password: $("ct-access").value === "password" ? $("ct-password").value : "",
    straddle: $("ct-straddle").checked,
    run_it_twice: $("ct-run_it_twice").checked,
  };
}

function setupCreate() {
  const form = $("create-form");
  const check = () => {
    const err = createChecks(createRequest());
    showFieldError(form, null, "ct-");
    if (err) {
      const p = $(`ct-${err.field}-error`);
      if (p) p.textContent = err.message;
    }
    return err;
  };
  // Inline checks as the player types (errors shown, focus left where it is).
  form.addEventListener("input", check);
  $("ct-access").addEventListener("change", () => { $("ct-password-field").hidden = $("ct-access").value !== "password"; });
  $("ct-variant").addEventListener("change", () => {
    const stud = $("ct-variant").value === "stud3";
    $("ct-small_blind").value = stud ? 0 : 10;
    $("ct-big_blind").value = stud ? 0 : 20;
    $("ct-ante").value = stud ? 5 : 0;
    $("ct-min_buy_in").value = stud ? 50 : 400;
    $("ct-max_buy_in").value = stud ? 500 : 2000;
    check();
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const r = createRequest();
    const err = createChecks(r);
    if (err) return showFieldError(form, err, "ct-");
    showFieldError(form, null, "ct-");
    if (!user) return showFieldError(form, { message: "Log in (or play as a guest) to create a table." }, "ct-");
    try {
      const t = await api("POST", "/api/tables", r);
      if (r.access === "password") sessionStorage.setItem(`felt.key.${t.name.toLowerCase()}`, r.password);
      location.href = `/table/${encodeURIComponent(t.name)}` + (t.invite ? `?invite=${encodeURIComponent(t.invite)}` : "");
    } catch (e) {
      showFieldError(form, e.field === "every_hands" || e.field === "every_minutes" ? { ...e, message: e.message, field: "schedule" } : e, "ct-");
    }
  });
}

/** BOT_LABELS are short words for the bots in the strength list; the house's
 * full description goes below the list (and in the option's tooltip). */
const BOT_LABELS = {
  fold: "folds (easiest)", call: "calls everything", raise: "raises everything", random: "random",
  chart: "standard", montecarlo: "simulates equity", hsppot: "hand strength", adaptive: "learns",
  bayes: "Bayesian", neural: "neural net", stud: "stud odds", cfr: "limit CFR", resolve: "re-solves in real time",
};

/** botLabel is a bot's short label: a known one, or its description up to the
 * first comma, colon or bracket, cut to 24 characters. */
function botLabel(b) {
  if (BOT_LABELS[b.name]) return BOT_LABELS[b.name];
  const d = (b.description || "").split(/[,:;(]/)[0].trim();
  return d.length > 24 ? d.slice(0, 23).trimEnd() + "…" : d;
}

async function setupBots() {
  let bots = [];
  try { bots = (await api("GET", "/api/bots")).bots || []; } catch { /* keep the form usable */ }
  const sel = $("hu-bot");
  const hu = bots.filter((b) => b.heads_up !== false); // cfr plays fixed-limit only
  sel.replaceChildren(...hu.map((b, i) => el("option", {
    value: b.name, title: b.description, dataset: { description: b.description || "" },
    selected: b.name === "chart" || (i === hu.length - 1 && !hu.some((x) => x.name === "chart")),
  }, botLabel(b) ? `${b.name} · ${botLabel(b)}` : b.name)));
  const describe = () => {
    const o = sel.selectedOptions[0];
    $("hu-desc").textContent = o ? o.dataset.description : "";
    sel.title = o ? o.dataset.description : "";
  };
  sel.addEventListener("change", describe);
  describe();
  $("ct-bots").replaceChildren(...bots.map((b) => el("label", { class: "bot-count", title: b.description },
    el("input", { type: "number", min: 0, max: 10, value: 0, dataset: { bot: b.name }, "aria-label": `Number of ${b.name} bots` }), " ", b.name)));
}

/** budgetText says how long a level's bot may think per decision. */
function budgetText(ms) {
  return ms > 0 ? `thinks up to ${ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`} a move` : "answers at once";
}

/** drawLevels lists the heads-up game's named levels (GET /api/headsup/levels),
 * each with its measured strength and its bot's time per move, the house's
 * default chosen; choosing a bot in the list below chooses "Another bot". */
async function drawLevels() {
  let levels = [], def = "";
  try { ({ levels, default: def } = await api("GET", "/api/headsup/levels")); } catch { /* the bot list still works */ }
  $("hu-level-list").replaceChildren(...levels.map((l) => el("label", { class: "level", for: `hu-level-${l.level}` },
    el("input", { type: "radio", name: "hu-level", value: l.level, id: `hu-level-${l.level}`, checked: l.level === def }),
    el("span", { class: "level-text" },
      el("span", { class: "level-name" }, l.name, el("span", { class: "level-bot" }, ` · ${l.bot}, ${budgetText(l.budget_ms)}`)),
      el("small", { class: "level-strength" }, l.strength)))));
  if (!levels.length) $("hu-other").checked = true;
}

function setupHeadsUp() {
  const form = $("headsup-form");
  $("hu-bot").addEventListener("change", () => { $("hu-other").checked = true; });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("hu-error").textContent = "";
    const level = form.querySelector('input[name="hu-level"]:checked')?.value || "";
    const choice = level ? { level } : { bot: $("hu-bot").value };
    try {
      if (!user) { await playAsGuest(); user = await me(true); }
      const t = await api("POST", "/api/headsup", { ...choice, watchers: $("hu-watchers").checked ? "anyone" : "none" });
      location.href = `/table/${encodeURIComponent(t.name)}`;
    } catch (e) {
      $("hu-error").textContent = e.message;
    }
  });
}

const conn = new Conn();
connStatus(conn, $("conn-status"));
// The players online, kept as a set: the snapshot gives the whole list, then
// "online" pushes only who came and who left.
const online = new Set();
conn.on("lobby", (m) => {
  tables.clear();
  for (const t of m.tables || []) tables.set(t.name, t);
  seatsChanged(m.tables || [], []);
  drawTables();
  online.clear();
  for (const p of m.players || []) online.add(p);
  drawOnline([...online].sort());
  chat.clear();
  for (const c of m.chat || []) addChat(c);
});
// Listings that changed and tables closed, gathered by the house over a short interval.
conn.on("tables", (m) => {
  for (const t of m.tables || []) tables.set(t.name, t);
  for (const name of m.closed || []) tables.delete(name);
  seatsChanged(m.tables || [], m.closed || []);
  drawTables();
});
conn.on("online", (m) => {
  for (const p of m.joined || []) online.add(p);
  for (const p of m.left || []) online.delete(p);
  drawOnline([...online].sort());
});
conn.on("chat", (m) => { if (!m.table) addChat(m); });
conn.on("notice", (m) => { if (m.credits !== undefined) { setCredits(m.credits); const c = $("credits"); if (c) c.textContent = chips(m.credits); } });

/** drawHouses lists the other felt houses heard on the local network
 * (GET /api/houses), again every 10 s; the panel shows only when there are some. */
async function drawHouses() {
  try {
    const { houses } = await api("GET", "/api/houses");
    $("houses").replaceChildren(...houses.map((h) => el("li", { dataset: { url: h.url } },
      el("a", { href: h.url, rel: "noopener" }, h.name), " ",
      el("span", { class: "muted" }, `${h.url.replace(/^https?:\/\//, "")} · ${h.tables} table${h.tables === 1 ? "" : "s"} · ${h.players} online`))));
    $("houses-panel").hidden = houses.length === 0;
  } catch { /* the house is away: keep the list */ }
}

setupCreate();
drawHouses();
setInterval(drawHouses, 10_000);
setupBots();
drawLevels();
setupHeadsUp();
setupChatForm(conn);
drawMe(false);
