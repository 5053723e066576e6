// The table page: draws the TableState the house sends (docs/protocol.md), sends
// the player's actions, and watches the table again after every reconnection, so
// that closing the tab and opening it again brings the seat and cards back.
import { $, el, chips, clock, param, me, Conn, connStatus, setCredits } from "./app.js";
import { card, cardName } from "./cards.js";
import { VARIANTS, stakes } from "./format.js";
import { toCall, canPreAct, stillHolds, resolve } from "./preact.js";
import { ChatView, setupChatForm } from "./chatmute.js";
import { play, soundOn, setSound } from "./sounds.js";
import { startLevelClock } from "./tourneyclock.js";

const tableName = param;
let state = null;
let user = null;
let busy = false; // an action is on its way: ignore clicks until the next state
let clockInfo = null; // {seat, deadline, bankMs, actionMs}

const conn = new Conn();
connStatus(conn, $("conn-status"));

// --- geometry -----------------------------------------------------------------

/** seatPos returns the centre of seat i of n, in percent of the table, with the
 * anchor seat (the player's own) at the bottom. */
function seatPos(i, n, anchor, rx = 44, ry = 40) {
  const a = Math.PI / 2 + ((i - anchor) * 2 * Math.PI) / n;
  return [50 + rx * Math.cos(a), 50 + ry * Math.sin(a)];
}

function nameOf(seat) {
  const s = state?.seats?.[seat];
  return s?.name || `seat ${seat + 1}`;
}

// --- drawing ------------------------------------------------------------------

function draw() {
  if (!state) return;
  const { info, hand, you } = state;
  const n = info.seats;
  const anchor = you ? you.seat : 0;
  // Keep the seats inside the table's box whatever its width: a seat's centre is
  // at least half a seat plate from the edge.
  const felt = $("felt");
  const fw = felt.clientWidth || 800, fh = felt.clientHeight || 480;
  const halfW = fw < 640 ? 50 : 74, halfH = fw < 640 ? 40 : 44;
  const rx = Math.min(44, 50 - ((halfW + 2) / fw) * 100), ry = Math.min(40, 50 - ((halfH + 2) / fh) * 100);
  document.title = `${info.name} · felt`;
  $("table-title").textContent = info.heads_up ? `${info.name}: heads-up against the computer` : info.name;
  $("table-sub").textContent = `${VARIANTS[info.variant] || info.variant} · ${stakes(hand ? { ...info, small_blind: hand.small_blind, big_blind: hand.big_blind, ante: hand.ante } : info)}` +
    (info.level ? ` · level ${info.level + 1}` : "") + ` · ${state.spectators || 0} watching`;
  document.body.dataset.hand = hand ? hand.number : "";
  document.body.dataset.over = hand?.over ? "1" : "";
  document.body.dataset.seated = you ? String(you.seat) : "";

  const shown = new Map((hand?.over && hand.result?.shown || []).map((s) => [s.seat, s]));
  const won = new Map();
  for (const p of (hand?.over && hand.result?.pots) || []) for (const a of p.awards || []) won.set(a.seat, (won.get(a.seat) || 0) + a.amount);

  // Seats.
  const seatsBox = $("seats");
  seatsBox.replaceChildren();
  for (const s of state.seats) {
    const [x, y] = seatPos(s.seat, n, anchor, rx, ry);
    const [bx, by] = seatPos(s.seat, n, anchor, rx * 0.62, ry * 0.55);
    const [dx, dy] = seatPos(s.seat + 0.3, n, anchor, rx * 0.72, ry * 0.68);
    if (s.status === "empty") {
      const canSit = user && !you;
      seatsBox.append(el("div", { class: "seat empty", style: `left:${x}%;top:${y}%`, dataset: { seat: s.seat, status: "empty" } },
        canSit ? el("button", { type: "button", class: "sit-here", onclick: () => sit(s.seat) }, `Sit here`) : el("span", { class: "empty-label" }, "Empty seat")));
      continue;
    }
    const toAct = hand && !hand.over && hand.to_act === s.seat;
    const isWinner = won.has(s.seat);
    const classes = ["seat", `st-${s.status}`];
    if (you && you.seat === s.seat) classes.push("me");
    if (toAct) classes.push("to-act");
    if (s.folded) classes.push("folded");
    if (s.bot) classes.push("bot");
    if (isWinner) classes.push("winner");
    if (s.all_in) classes.push("all-in");
    const tags = [];
    if (hand && hand.small_blind_seat === s.seat && info.variant !== "stud3") tags.push(el("span", { class: "blind sb", title: "Small blind" }, "SB"));
    if (hand && hand.big_blind_seat === s.seat && info.variant !== "stud3") tags.push(el("span", { class: "blind bb", title: "Big blind" }, "BB"));
    if (hand && (hand.events || []).some((e) => e.kind === "straddle" && e.seat === s.seat)) tags.push(el("span", { class: "blind str", title: "Straddle" }, "STR"));
    const status = s.status === "away" ? "disconnected" : s.status === "sitting_out" ? "sitting out" : s.status === "waiting" ? (you?.seat === s.seat && you.wait_big_blind ? "waits for the BB" : "next hand") : s.status === "leaving" ? "leaving" : s.all_in ? "all-in" : s.folded ? "folded" : "";
    const hole = el("div", { class: "hole" });
    if (s.cards?.length && (!s.folded || (you && you.seat === s.seat))) for (const c of s.cards) hole.append(card(c, "sm"));
    const sh = shown.get(s.seat);
    const avatar = el("div", { class: "avatar", "aria-hidden": "true" }, (s.name || "?").slice(0, 1).toUpperCase(),
      toAct ? ring() : null);
    seatsBox.append(el("div", {
      class: classes.join(" "), style: `left:${x}%;top:${y}%`,
      dataset: { seat: s.seat, status: s.status, name: s.name || "" },
      "aria-label": `Seat ${s.seat + 1}: ${s.name}${s.bot ? " (a bot)" : ""}, ${chips(s.stack)} chips${toAct ? ", to act" : ""}${status ? ", " + status : ""}`,
      role: "group",
    },
    hole,
    el("div", { class: "plate" }, avatar,
      el("div", { class: "who" },
        el("span", { class: "name-row" }, el("span", { class: "name" }, s.name), s.bot ? el("span", { class: "bot-tag", title: "a bot" }, "bot") : null),
        el("span", { class: "stack" }, chips(s.stack)),
        status ? el("span", { class: "status" }, status) : null),
      tags.length ? el("div", { class: "tags" }, tags) : null),
    sh ? el("div", { class: "hand-name" }, sh.name) : null,
    isWinner ? el("div", { class: "won" }, `wins ${chips(won.get(s.seat))}`) : null,
    ));
    if (s.bet) seatsBox.append(el("div", { class: "bet", style: `left:${bx}%;top:${by}%`, dataset: { seat: s.seat } }, el("span", { class: "chip", "aria-hidden": "true" }), chips(s.bet)));
    if (s.button) seatsBox.append(el("div", { class: "dealer", style: `left:${dx}%;top:${dy}%`, title: "Dealer button", "aria-label": `Dealer button: ${s.name}` }, "D"));
  }

  // Board, pots.
  const board = $("board");
  board.replaceChildren(...(hand?.board || []).map((c) => card(c, "md")));
  // A board run twice: the second run under the first.
  const second = hand?.second_board;
  board.classList.toggle("twice", !!second);
  if (second) board.append(el("div", { class: "second-board", id: "second-board", "aria-label": "Second run" }, second.map((c) => card(c, "md"))));
  const pots = $("pots");
  pots.replaceChildren();
  if (hand) {
    const inPots = (hand.pots || []).reduce((a, p) => a + p.amount, 0);
    pots.append(el("div", { class: "pot" }, "Pot ", el("b", { id: "pot-total" }, chips(hand.pot))));
    if ((hand.pots || []).length > 1) {
      pots.append(el("div", { class: "side-pots" }, hand.pots.map((p, i) => el("span", { class: "side-pot" }, `${i ? "Side pot " + i : "Main"}: ${chips(p.amount)}`))));
    } else if (inPots && inPots !== hand.pot) {
      pots.append(el("div", { class: "side-pots" }, `in the middle: ${chips(inPots)}`));
    }
  } else {
    pots.append(el("div", { class: "waiting" }, "Waiting for players…"));
  }
  $("hand-no").textContent = hand ? `Hand #${hand.number}${hand.over ? " · over" : ""}` : "";

  // Your cards.
  const mine = you && state.seats[you.seat];
  $("my-cards").replaceChildren(...(mine?.cards || []).map((c) => card(c, "lg")));

  if (noteDone?.()) clearNote();
  drawActions();
  drawSeatControls();
  drawLog();
  drawFair();
  highlightWinners(shown, won);
  startClock();
}

function ring() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 44 44");
  svg.setAttribute("class", "ring");
  const c = document.createElementNS(ns, "circle");
  c.setAttribute("cx", "22"); c.setAttribute("cy", "22"); c.setAttribute("r", "20");
  c.setAttribute("pathLength", "100");
  svg.append(c);
  return svg;
}

// --- the action clock ---------------------------------------------------------

let raf = 0;
let hurried = ""; // the turn whose "time is running out" has sounded
function startClock() {
  const c = state?.hand && !state.hand.over ? state.hand.clock : null;
  clockInfo = c ? { seat: c.seat, deadline: performance.now() + c.remaining_ms, bank: c.bank_ms, action: (state.info.action_seconds || 20) * 1000 } : null;
  cancelAnimationFrame(raf);
  if (clockInfo) raf = requestAnimationFrame(tick);
}

function tick() {
  if (!clockInfo) return;
  const left = Math.max(0, clockInfo.deadline - performance.now());
  const normal = left - clockInfo.bank;
  const circle = document.querySelector(`.seat[data-seat="${clockInfo.seat}"] .ring circle`);
  if (circle) {
    const frac = normal > 0 ? normal / clockInfo.action : clockInfo.bank ? left / clockInfo.bank : 0;
    circle.style.strokeDashoffset = String(100 - Math.max(0, Math.min(1, frac)) * 100);
    circle.parentNode.classList.toggle("bank", normal <= 0);
    circle.parentNode.classList.toggle("hurry", normal > 0 && normal < 5000);
  }
  if (state?.you && clockInfo.seat === state.you.seat && left < 5000 && hurried !== shownTurn) {
    hurried = shownTurn;
    play("hurry");
  }
  const secs = $("clock-secs");
  if (secs) secs.textContent = `${Math.ceil(left / 1000)} s${normal <= 0 ? " (time bank)" : ""}`;
  if (left > 0) raf = requestAnimationFrame(tick);
}

// --- actions --------------------------------------------------------------------

function legal() {
  const h = state?.hand;
  if (!h || h.over || !state.you || h.to_act !== state.you.seat || !h.legal) return null;
  return h.legal;
}

let lastPrompt = "";
// What a player owing the big blind is told (docs/rules.md, "Live tables").
const waitBigBlind = "You are dealt in when the big blind reaches your seat.";
function prompt(text) {
  if (text === lastPrompt) return;
  lastPrompt = text;
  $("prompt").replaceChildren(text ? el("span", {}, text) : "", text && legal() ? el("span", { id: "clock-secs", class: "secs", "aria-hidden": "true" }) : "");
}

function drawActions() {
  const l = legal();
  const box = $("actions");
  box.classList.toggle("active", !!l);
  const btn = (a) => box.querySelector(`[data-act="${a}"]`);
  for (const b of box.querySelectorAll("[data-act]")) { b.hidden = true; b.disabled = busy; }
  $("sizing").hidden = true;
  drawPre();
  if (l && pre) {
    // The choice made in advance, played now as an ordinary action.
    const a = resolve(pre, l);
    pre = null;
    if (a) {
      $("pre-note").textContent = "";
      act(a);
      return;
    }
  }
  if (!l) {
    const h = state?.hand;
    const full = state && !state.seats.some((s) => s.status === "empty");
    if (!state?.you) prompt(!user ? "You are watching. Log in to play." : full ? ((state.waitlist || []).includes(user.name) ? "You are watching, on the waiting list for a seat." : "You are watching. The table is full: join the waiting list for a seat.") : "You are watching. Take an empty seat to play.");
    else if (state.you.sitting_out) prompt("You are sitting out.");
    else if (state.you.wait_big_blind) prompt(waitBigBlind);
    else if (h && !h.over && h.to_act >= 0 && h.to_act !== state.you.seat) prompt(`Waiting for ${nameOf(h.to_act)}…`);
    else if (h?.over) prompt("Hand over. The next one starts in a moment.");
    else prompt("");
    return;
  }
  const can = (a) => l.actions.includes(a);
  if (can("fold")) btn("fold").hidden = false;
  if (can("check")) btn("check").hidden = false;
  if (can("call")) {
    btn("call").hidden = false;
    btn("call").lastChild.textContent = ` Call ${chips(l.call)}`;
  }
  const raiseKind = can("bet") ? "bet" : can("raise") ? "raise" : "";
  if (raiseKind) {
    const b = btn("raise");
    b.hidden = false;
    b.dataset.kind = raiseKind;
    const amt = $("amount");
    const range = $("amount-range");
    const fresh = amt.dataset.turn !== turnKey();
    amt.min = range.min = l.min_to;
    amt.max = range.max = l.max_to;
    range.step = 1;
    if (fresh || !(Number(amt.value) >= l.min_to && Number(amt.value) <= l.max_to)) setAmount(l.min_to);
    amt.dataset.turn = turnKey();
    if (l.max_to > l.min_to) $("sizing").hidden = false;
    updateRaiseLabel();
    // All-in is its own button when it is more than the smallest raise.
    if (l.max_to > l.min_to) btn("allin").hidden = false;
  } else if (can("call") && l.stack <= l.call) {
    btn("call").lastChild.textContent = ` Call all-in ${chips(l.call)}`;
  }
  prompt(can("call") ? `Your turn: ${chips(l.call)} to call.` : "Your turn.");
  showActions();
}

let shownTurn = "";
/** showActions scrolls the action buttons into the window at each turn, if
 * any part of them is outside it (a short window, a phone), and keeps them
 * there while the page above them grows during the turn (controls drawn after
 * a slow reply), until the player scrolls by hand. */
function showActions() {
  if (shownTurn === turnKey()) return;
  shownTurn = turnKey();
  keptTurn = shownTurn;
  play("turn");
  revealActions();
}

let keptTurn = "";
/** revealActions scrolls the action buttons into the window if they are not. */
function revealActions() {
  const box = $("actions").getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) $("actions").scrollIntoView({ block: "end", behavior: "instant" });
}
new ResizeObserver(() => { if (keptTurn && keptTurn === turnKey()) revealActions(); }).observe(document.body);
for (const ev of ["wheel", "touchmove"]) addEventListener(ev, () => { keptTurn = ""; }, { passive: true });

// --- acting in advance (preact.js) ------------------------------------------------

let pre = null; // {kind, call, hand}: the choice made in advance, if any
let preHand; // the hand the note about a cancelled choice is about

/** drawPre shows the choices the player may make in advance, and cancels a
 * choice the hand has overtaken (a new hand, a changed bet). */
function drawPre() {
  const box = $("pre-actions");
  const h = state?.hand, you = state?.you;
  if (h?.number !== preHand) { preHand = h?.number; $("pre-note").textContent = ""; }
  if (pre && (!h || h.over || h.number !== pre.hand || !you)) pre = null;
  const now = you ? toCall(state, you.seat) : 0;
  if (pre && !stillHolds(pre, now)) {
    $("pre-note").textContent = `The bet changed: your advance ${pre.kind === "check" ? "check" : "call"} is cancelled.`;
    pre = null;
  }
  box.hidden = !canPreAct(state);
  for (const b of box.querySelectorAll("[data-pre]")) {
    const k = b.dataset.pre;
    b.hidden = (k === "check" && now > 0) || (k === "call" && now === 0);
    if (k === "call") b.textContent = `Call ${chips(now)}`;
    b.setAttribute("aria-pressed", String(pre?.kind === k));
  }
}

function choosePre(kind) {
  if (!canPreAct(state)) return;
  $("pre-note").textContent = "";
  pre = pre?.kind === kind ? null : { kind, call: toCall(state, state.you.seat), hand: state.hand.number };
  drawPre();
}

const turnKey = () => `${state?.hand?.number}:${state?.hand?.events?.length}`;

function setAmount(v) {
  $("amount").value = v;
  $("amount-range").value = v;
  $("amount-error").textContent = "";
  updateRaiseLabel();
}

function updateRaiseLabel() {
  const b = document.querySelector('[data-act="raise"]');
  const l = legal();
  if (!b || !l) return;
  const v = Number($("amount").value);
  const word = b.dataset.kind === "bet" ? "Bet" : "Raise to";
  b.lastChild.textContent = ` ${word} ${Number.isFinite(v) ? chips(v) : ""}${v === l.max_to ? " (all-in)" : ""}`;
}

function preset(p) {
  const l = legal();
  if (!l || !(l.actions.includes("bet") || l.actions.includes("raise"))) return;
  let to;
  if (p === "all") to = l.max_to;
  else to = Math.round(l.current_bet + Number(p) * (state.hand.pot + l.call));
  setAmount(Math.max(l.min_to, Math.min(l.max_to, to)));
}

/** checkAmount returns an error message for an invalid amount, or "". */
function checkAmount(text, l) {
  const v = Number(text);
  if (text === "" || !Number.isInteger(v)) return `Type a whole number of chips, from ${chips(l.min_to)} to ${chips(l.max_to)}.`;
  if (v < l.min_to) return `${chips(v)} is too small: the least you may ${l.actions.includes("bet") ? "bet" : "raise to"} is ${chips(l.min_to)}.`;
  if (v > l.max_to) return `${chips(v)} is too much: the most you may ${l.actions.includes("bet") ? "bet" : "raise to"} is ${chips(l.max_to)}.`;
  return "";
}

async function act(what) {
  const l = legal();
  if (!l || busy) return;
  let msg = { type: "act", table: tableName, action: what };
  if (what === "allin") {
    if (l.actions.includes("bet") || l.actions.includes("raise")) msg = { ...msg, action: l.actions.includes("bet") ? "bet" : "raise", amount: l.max_to };
    else if (l.actions.includes("call")) msg.action = "call";
    else return;
  } else if (what === "raise") {
    const kind = l.actions.includes("bet") ? "bet" : l.actions.includes("raise") ? "raise" : "";
    if (!kind) return;
    const text = $("amount").value.trim();
    const bad = checkAmount(text, l);
    if (bad) {
      $("amount-error").textContent = bad;
      $("amount").setAttribute("aria-invalid", "true");
      $("amount").focus();
      return;
    }
    msg = { ...msg, action: kind, amount: Number(text) };
  } else if (!l.actions.includes(what)) {
    return;
  }
  $("amount").removeAttribute("aria-invalid");
  $("amount-error").textContent = "";
  busy = true;
  drawActions();
  try {
    await conn.send(msg);
  } catch (e) {
    $("amount-error").textContent = e.message;
    busy = false;
    drawActions();
  }
}

function setupActions() {
  for (const b of document.querySelectorAll("[data-act]")) b.addEventListener("click", () => act(b.dataset.act));
  for (const b of document.querySelectorAll("[data-preset]")) b.addEventListener("click", () => preset(b.dataset.preset));
  for (const b of document.querySelectorAll("[data-pre]")) b.addEventListener("click", () => choosePre(b.dataset.pre));
  $("amount-range").addEventListener("input", () => setAmount(Number($("amount-range").value)));
  $("amount").addEventListener("input", () => {
    const l = legal();
    const v = $("amount").value;
    if (l) $("amount-error").textContent = checkAmount(v.trim(), l);
    if (Number.isFinite(Number(v))) $("amount-range").value = v;
    updateRaiseLabel();
  });
  $("amount").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") { ev.preventDefault(); act("raise"); }
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && t.type !== "range" && t.type !== "checkbox") || t instanceof HTMLSelectElement) return;
    const k = ev.key.toLowerCase();
    const l = legal();
    if (k === "/") { ev.preventDefault(); $("chat-text").focus(); return; }
    if (!l) return;
    const map = { f: "fold", a: "allin", r: "raise", b: "raise" };
    if (k === "c" || k === "k") { ev.preventDefault(); act(l.actions.includes("check") ? "check" : "call"); }
    else if (map[k]) { ev.preventDefault(); act(map[k]); }
    else if (["1", "2", "3", "4"].includes(k)) { ev.preventDefault(); preset(["0.5", "0.75", "1", "all"][Number(k) - 1]); }
    else if (k === "arrowup" || k === "arrowdown") {
      if (t instanceof HTMLInputElement && t.type === "range") return;
      ev.preventDefault();
      const step = state.hand.big_blind || 1;
      const v = Number($("amount").value) + (k === "arrowup" ? step : -step);
      setAmount(Math.max(l.min_to, Math.min(l.max_to, v)));
    }
  });
}

// --- seats: sit, sit out, stand, leave ----------------------------------------------

let noteTimer = 0;
let noteDone = null; // clears the note once it returns true (checked at every state)

/** note tells the player something beside the seat controls. An error stays
 * until the next note; other notes go after a few seconds, or as soon as done()
 * says they no longer hold. */
function note(text, kind = "info", done = null) {
  const box = $("seat-controls");
  let p = $("seat-note");
  if (!p) { p = el("p", { id: "seat-note", role: "status" }); box.after(p); }
  p.className = `note ${kind}`;
  p.textContent = text;
  delete p.dataset.moving;
  clearTimeout(noteTimer);
  noteDone = done;
  if (kind !== "error") noteTimer = setTimeout(clearNote, 8000);
}

function clearNote() {
  clearTimeout(noteTimer);
  noteDone = null;
  $("seat-note")?.remove();
}

/** returnUntil is when state.return (the buy-in of a player back at the
 * table soon after leaving it) no longer holds, by this browser's clock. */
let returnUntil = 0;

/** buyInRange returns the buy-ins the player may sit down with: the table's,
 * or, back within its return window, from the stack they left with
 * (docs/rules.md, "Coming back with the stack you left with"). */
function buyInRange() {
  const r = state.return;
  if (r && Date.now() < returnUntil) return { min: r.min_buy_in, max: r.max_buy_in, back: true };
  return { min: state.info.min_buy_in, max: state.info.max_buy_in, back: false };
}

async function sit(seat) {
  const range = buyInRange();
  const input = $("buy-in");
  const buyIn = Number(input?.value || range.max);
  if (!Number.isInteger(buyIn) || buyIn < range.min || buyIn > range.max) {
    note(range.back
      ? `You left this table lately with ${chips(range.min)} chips: you may sit down here again only with at least as many until ${new Date(returnUntil).toLocaleTimeString()}${range.max > range.min ? ` (at most ${chips(range.max)})` : ""}.`
      : `The buy-in is from ${chips(range.min)} to ${chips(range.max)}.`, "error");
    input?.focus();
    return;
  }
  const msg = { type: "sit", table: tableName, buy_in: buyIn };
  if (tableKey()) msg.key = tableKey();
  if (seat !== undefined) msg.seat = seat;
  try {
    await conn.send(msg);
    // Until the player has cards (or has left the seat).
    note(state?.you?.wait_big_blind ? waitBigBlind : "You are seated: you are dealt in from the next hand.", "info",
      () => !state?.you || (state.hand && !state.hand.over && state.seats[state.you.seat]?.cards?.length > 0));
    me(true).then((m) => m && setCredits(m.credits));
  } catch (e) {
    note(e.message, "error");
  }
}

/** command sends a seat command; then runs once it is done, or once it no
 * longer needs doing (the table has closed, or the player no longer has a
 * seat): codes lists the error codes that count as done. */
async function command(type, then, codes = []) {
  try {
    await conn.send({ type, table: tableName });
    then?.();
  } catch (e) {
    if (codes.includes(e.code)) then?.();
    else note(e.message, "error");
  }
}

const toLobby = () => { location.href = "/lobby"; };

function drawSeatControls() {
  const box = $("seat-controls");
  const { you, info } = state;
  const stack = you ? state.seats[you.seat]?.stack ?? 0 : 0;
  const room = you ? Math.max(0, info.max_buy_in - stack) : 0;
  const range = buyInRange();
  const key = JSON.stringify([!!user, you?.seat, you?.sitting_out, you?.leaving, you?.status, range, room > 0, you?.straddle, you?.run_twice,
    state.waitlist, state.offer?.name, state.seats.filter((s) => s.status === "empty").length]);
  const up = $("top-up-amount");
  if (up) up.max = room;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren();
  if (info.tournament) {
    tournamentControls(box, you);
    return;
  }
  if (!you) {
    drawWaitlist(box);
    const empty = state.seats.filter((s) => s.status === "empty").length;
    const noSeat = empty === 0 || (empty === 1 && state.offer && state.offer.name !== user?.name);
    if (user && !noSeat) {
      const credits = user.credits ?? range.max;
      // Back soon after leaving: the stack left with, at least.
      const value = range.back ? range.min : Math.max(range.min, Math.min(range.max, credits));
      box.append(el("label", { for: "buy-in" }, "Buy-in"),
        el("input", { id: "buy-in", type: "number", min: range.min, max: range.max, value }),
        el("button", { type: "button", class: "primary", id: "sit", onclick: () => sit() }, "Sit down"));
    } else if (!user) {
      box.append(el("a", { class: "button primary", href: `/login?next=${encodeURIComponent(location.pathname)}` }, "Log in to play"));
    }
    box.append(el("a", { class: "button", href: "/lobby" }, "Lobby"));
    if (user && !noSeat && range.back) {
      box.append(el("span", { class: "note", id: "return-note" },
        `You left this table lately with ${chips(range.min)} chips: until ${new Date(returnUntil).toLocaleTimeString()} you sit down here again with at least as many.`));
    }
    return;
  }
  $("waitlist-box")?.remove();
  box.append(
    you.sitting_out
      ? el("button", { type: "button", id: "sit-in", onclick: () => command("sit_in", () => note(state?.you?.wait_big_blind ? waitBigBlind : "You are dealt in from the next hand.")) }, "Sit in")
      : el("button", { type: "button", id: "sit-out", onclick: () => command("sit_out", () => note("You sit out from the next hand.")) }, "Sit out"),
    you.leaving ? el("span", { class: "note" }, "You stand up after this hand.")
      : el("button", { type: "button", id: "stand", onclick: () => command("stand", () => note("You stand up after this hand; your chips go back to your credits.")) }, "Stand up"),
    el("button", { type: "button", id: "leave", class: "danger", onclick: () => command("leave", toLobby, ["table_closed", "not_seated", "not_found"]) }, "Leave table"),
  );
  if (info.straddle) box.append(option("opt-straddle", "straddle", you.straddle, "Straddle"));
  if (info.run_it_twice) box.append(option("opt-run-twice", "run_twice", you.run_twice, "Run it twice"));
  if (room > 0 && !you.leaving) {
    box.append(el("label", { for: "top-up-amount", class: "visually-hidden" }, "Chips to add"),
      el("input", { id: "top-up-amount", type: "number", min: 1, max: room, value: room }),
      el("button", { type: "button", id: "top-up", onclick: topUp }, "Top up"));
  }
}

/** tournamentControls are a tournament table's: its players sit out or in (a
 * seat sitting out is blinded out), nobody buys in, stands up or tops up. */
function tournamentControls(box, you) {
  if (you) {
    box.append(you.sitting_out
      ? el("button", { type: "button", id: "sit-in", onclick: () => command("sit_in", () => note("You are dealt in from the next hand.")) }, "Sit in")
      : el("button", { type: "button", id: "sit-out", onclick: () => command("sit_out", () => note("You sit out: you are dealt in and blinded out until you sit in.")) }, "Sit out"));
  }
  box.append(el("span", { id: "t-level", class: "note", role: "timer" }),
    el("a", { class: "button", href: `/tournaments/${state.info.tournament}` }, "Tournament"),
    el("a", { class: "button", href: "/lobby" }, "Lobby"));
  startLevelClock(state.info.tournament);
}

/** drawWaitlist shows the waiting list of a full table to a player without a
 * seat: the button to join it or leave it, their place, the seat offered. */
function drawWaitlist(box) {
  const list = state.waitlist || [];
  const place = user ? list.indexOf(user.name) + 1 : 0;
  const empty = state.seats.filter((s) => s.status === "empty").length;
  const full = empty === 0 || (empty === 1 && state.offer && state.offer.name !== user?.name);
  $("waitlist-box")?.remove();
  const line = el("p", { id: "waitlist-box", class: "waitlist" });
  if (state.offer && user && state.offer.name === user.name) {
    offerEnds = Date.now() + state.offer.remaining_ms;
    line.append(el("b", {}, `Seat ${state.offer.seat + 1} is yours: sit down within `, el("span", { id: "offer-left" }, `${Math.ceil(state.offer.remaining_ms / 1000)}`), " s."), " ");
  } else if (place) {
    line.append(`You are number ${place} on the waiting list. `);
  } else if (list.length) {
    line.append(`Waiting for a seat: ${list.join(", ")}. `);
  }
  if (user && place) {
    line.append(el("button", { type: "button", id: "unwait", class: "small", onclick: () => command("unwait", () => note("You have left the waiting list.")) }, "Leave the list"));
  } else if (user && full) {
    line.append(el("button", { type: "button", id: "wait", class: "small", onclick: () => join() }, "Join the waiting list"));
  }
  if (line.childNodes.length) box.after(line);
}

// The seconds left to take a seat offered, counted down on the page.
let offerEnds = 0;
setInterval(() => {
  const left = $("offer-left");
  if (left) left.textContent = String(Math.max(0, Math.ceil((offerEnds - Date.now()) / 1000)));
}, 500);

/** join puts the player on the waiting list of the full table. */
async function join() {
  const key = tableKey();
  try {
    await conn.send(key ? { type: "wait", table: tableName, key } : { type: "wait", table: tableName });
    note("You are on the waiting list: a free seat is offered to you in turn.");
  } catch (e) {
    note(e.message, "error");
  }
}

/** option is a checkbox for one of the player's choices at the table (the
 * "options" message): straddle when under the gun, agree to run it twice. */
function option(id, field, on, label) {
  const box = el("input", { id, type: "checkbox", checked: !!on });
  box.addEventListener("change", async () => {
    try {
      await conn.send({ type: "options", table: tableName, [field]: box.checked });
      note(`${label}: ${box.checked ? "on" : "off"} from the next hand.`);
    } catch (e) {
      box.checked = !box.checked;
      note(e.message, "error");
    }
  });
  return el("label", { class: "option", for: id }, box, label);
}

/** topUp adds chips from the credits to the stack, up to the maximum buy-in:
 * at once between hands, at the end of a hand the player is in. */
async function topUp() {
  const input = $("top-up-amount");
  const amount = Number(input.value);
  const info = state.info, you = state.you;
  const room = info.max_buy_in - (state.seats[you.seat]?.stack ?? 0);
  if (!Number.isInteger(amount) || amount < 1 || amount > room) {
    note(`Top up by 1 to ${chips(room)} chips: your stack may hold ${chips(info.max_buy_in)} at most.`, "error");
    input.focus();
    return;
  }
  const inHand = state.hand && !state.hand.over && state.seats[you.seat]?.in_hand;
  try {
    await conn.send({ type: "top_up", table: tableName, amount });
    note(inHand ? `${chips(amount)} chips are added to your stack when this hand ends.` : `${chips(amount)} chips added to your stack.`);
    me(true).then((m) => m && setCredits(m.credits));
  } catch (e) {
    note(e.message, "error");
  }
}

// --- hand log -------------------------------------------------------------------------

let logHand = -1;
let logNext = 0;
let logLive = false;

function cardsText(cs) {
  return el("span", { class: "cards-text" }, (cs || []).map((c) => c === "??"
    ? el("span", { class: "ct back" }, "🂠")
    : el("span", { class: `ct s-${c[1]}`, "aria-label": cardName(c) }, (c[0] === "T" ? "10" : c[0]) + { s: "♠", h: "♥", d: "♦", c: "♣" }[c[1]])));
}

function eventLine(e, h) {
  const who = e.seat !== undefined ? nameOf(e.seat) : "";
  const allIn = e.all_in ? " and is all-in" : "";
  switch (e.kind) {
    case "hand_start": return [`Hand #${h.number} begins; ${nameOf(e.seat)} has the button.`];
    case "ante": return [`${who} antes ${chips(e.amount)}${allIn}.`];
    case "small_blind": return [`${who} posts the small blind ${chips(e.amount)}${allIn}.`];
    case "big_blind": return [`${who} posts the big blind ${chips(e.amount)}${allIn}.`];
    case "straddle": return [`${who} straddles ${chips(e.amount)}.`];
    case "second_run": return ["The board is run a second time."];
    case "hole_cards": return (e.cards || []).some((c) => c !== "??") ? [`Dealt to ${who}: `, cardsText(e.cards)] : null;
    case "up_card": return [`${who} gets `, cardsText(e.cards)];
    case "street": return e.street === "showdown" ? ["Showdown."] : null;
    case "board": {
      const run2 = (h.events || []).find((x) => x.kind === "second_run");
      if (run2 && e.i > run2.i) return ["Second run: ", cardsText(e.cards)];
      const before = (h.events || []).filter((x) => x.kind === "board" && x.i < e.i).reduce((a, x) => a + (x.cards || []).length, 0);
      return [`${{ 0: "Flop", 3: "Turn", 4: "River" }[before] || "Board"}: `, cardsText(e.cards)];
    }
    case "fold": return [`${who} ${e.forced ? "cannot call and " : ""}folds.`];
    case "check": return [`${who} checks.`];
    case "call": return [`${who} calls ${chips(e.amount)}${allIn}.`];
    case "bet": return [`${who} bets ${chips(e.to || e.amount)}${allIn}.`];
    case "raise": return [`${who} raises to ${chips(e.to)}${allIn}.`];
    case "leave": return [`${who} leaves the hand.`];
    case "uncalled": return [`${chips(e.amount)} uncalled returned to ${who}.`];
    case "show": return [`${who} shows `, cardsText(e.cards), e.name ? ` (${e.name}).` : "."];
    case "muck": return [`${who} mucks.`];
    case "award": return [`${who} wins ${chips(e.amount)}${e.pot ? ` from side pot ${e.pot}` : ""}${e.share && e.share !== "whole" ? ` (${e.share.replace("_", " ")})` : ""}.`];
    default: return null;
  }
}

function drawLog() {
  const h = state.hand;
  if (!h) return;
  const log = $("hand-log");
  if (h.number !== logHand) {
    logHand = h.number;
    logNext = 0;
    log.append(el("li", { class: "sep" }, `Hand #${h.number}`));
  }
  let chipsIn = false;
  for (const e of h.events || []) {
    if (e.i < logNext) continue;
    logNext = e.i + 1;
    if (e.kind === "call" || e.kind === "bet" || e.kind === "raise") chipsIn = true;
    const line = eventLine(e, h);
    if (line) log.append(el("li", { class: `ev ev-${e.kind}` }, line));
  }
  if (chipsIn && logLive) play("chips");
  logLive = true; // the first state's events are history: no sound for them
  while (log.children.length > 300) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

function drawFair() {
  const h = state.hand;
  const box = $("fair");
  if (!h) { box.textContent = ""; return; }
  box.replaceChildren(
    el("span", {}, `Hand #${h.number} seed SHA-256: `), el("code", {}, h.seed_sha256 || "—"),
    h.id ? el("span", {}, el("br"), el("a", { href: `/hands/${h.id}` }, "Replay this hand")) : "");
}

// --- showdown: the winning five cards -----------------------------------------------

// highlightWinners marks the cards that make each winner's hand: the house sends
// them with the hand shown (`best`, from felt's own evaluator).
function highlightWinners(shown, won) {
  if (!state.hand?.over) return;
  for (const seat of won.keys()) {
    const set = new Set(shown.get(seat)?.best || []);
    if (!set.size) continue;
    for (const c of document.querySelectorAll(`#board .card, .seat[data-seat="${seat}"] .hole .card`)) {
      if (set.has(c.dataset.card)) c.classList.add("win");
    }
  }
}

// --- chat and notices --------------------------------------------------------------

const chat = new ChatView($("chat-log"), $("chat-muted"), () => user?.name, clock);
const addChat = (m) => chat.add(m);

function setupSound() {
  const b = $("sound");
  const show = () => {
    b.setAttribute("aria-pressed", String(soundOn()));
    b.textContent = soundOn() ? "Sound on" : "Sound off";
  };
  b.addEventListener("click", () => { setSound(!soundOn()); show(); });
  show();
}

conn.on("state", (m) => {
  if (m.state?.table !== tableName) return;
  const waited = !!state?.you?.wait_big_blind;
  state = m.state;
  returnUntil = state.return ? Date.now() + state.return.remaining_ms : 0;
  busy = false;
  draw();
  // Seated again owing the big blind: said whichever came first, the state
  // or the answer to the seat asked for.
  if (!waited && state.you?.wait_big_blind && !state.you.sitting_out) note(waitBigBlind);
});
conn.on("chat", (m) => { if (m.table === tableName) addChat(m); });
conn.on("notice", (m) => {
  if (m.table && m.table !== tableName) return;
  if (m.credits !== undefined) setCredits(m.credits);
  note(m.text || m.code, m.code === "busted" || m.code === "table_closed" || m.code === "sat_out" ? "error" : "info");
  if (m.code === "table_closed") $("seat-controls").replaceChildren(el("a", { class: "button primary", id: "to-lobby", href: "/lobby" }, "Back to the lobby"));
  if (m.code === "table_moved") { // on its new node: the seat and the hand in play are there
    moved = true;
    watchTable();
  }
  if (m.code === "table_back" && rewatchTimer) watchTable(); // its new node has it: now, not at the timer
});
conn.on("tables", (m) => {
  if (moved || !(m.closed || []).includes(tableName)) return; // a table moving leaves its node's listing
  note("This table has closed.", "error");
});
// A locked table's key: the invitation in the link, or the password given
// (kept for this tab, so that a reload or a reconnection comes back in).
const keyStore = `felt.key.${tableName.toLowerCase()}`;
const invite = new URLSearchParams(location.search).get("invite");
if (invite) sessionStorage.setItem(keyStore, invite);
const tableKey = () => sessionStorage.getItem(keyStore) || "";

/** askKey shows the form for a locked table's password. */
function askKey(message) {
  const box = $("seat-controls");
  if ($("key-form")) { // asked already: the password given was wrong
    note(message, "error");
    $("table-password").select();
    return;
  }
  box.dataset.key = "";
  const input = el("input", { id: "table-password", type: "password", autocomplete: "off", "aria-label": "The table's password", placeholder: "Password" });
  const form = el("form", { id: "key-form", class: "key-form" }, input, el("button", { type: "submit", class: "primary" }, "Come in"),
    el("a", { class: "button", href: "/lobby" }, "Lobby"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    sessionStorage.setItem(keyStore, input.value);
    watchTable();
  });
  box.replaceChildren(form);
  note(message, "error");
  input.focus();
}

/** showInvite shows the table's invitation link to pass to friends. */
function showInvite() {
  if (!invite || $("invite-link")) return;
  const link = `${location.origin}/table/${encodeURIComponent(tableName)}?invite=${encodeURIComponent(invite)}`;
  const box = el("p", { class: "invite", id: "invite-box" }, "Invitation link: ",
    el("input", { id: "invite-link", readonly: true, value: link, "aria-label": "Invitation link", onfocus: (ev) => ev.target.select() }));
  $("seat-controls").after(box);
}

// A table that moves to another node of the house (docs/scaling.md) has no
// node for a moment, until one takes it over: its watch is answered
// table_moved and sent again, after a growing delay, or as soon as the house
// says a node has it (notice table_back).
let rewatchTimer = 0;
let rewatchDelay = 500;
// moved: told table_moved once. The node the table left then lists it closed
// for a moment, which no longer means closed (a table closing for good sends
// its watchers table_closed).
let moved = false;

async function watchTable() {
  clearTimeout(rewatchTimer);
  try {
    const key = tableKey();
    await conn.send(key ? { type: "watch", table: tableName, key } : { type: "watch", table: tableName });
    rewatchDelay = 500;
    rewatchTimer = 0;
    if ($("seat-note")?.dataset.moving) clearNote();
    if ($("key-form")) { $("seat-controls").replaceChildren(); clearNote(); }
    showInvite();
  } catch (e) {
    if (e.code === "table_moved" || e.code === "busy") {
      note("The table is moving to another server of the house: coming back in a moment…", "info");
      $("seat-note").dataset.moving = "1";
      rewatchTimer = setTimeout(watchTable, rewatchDelay);
      rewatchDelay = Math.min(rewatchDelay * 2, 8000);
    } else if (e.code === "locked" || e.code === "rate_limited" && $("key-form")) {
      askKey(tableKey() ? e.message : "This table is locked: give its password to come in.");
    } else if (e.code === "unauthorized") {
      note("This table is locked: log in, then give its password or open its link.", "error");
      $("seat-controls").replaceChildren(el("a", { class: "button primary", href: `/login?next=${encodeURIComponent(location.pathname + location.search)}` }, "Log in"));
    } else if (e.code === "not_found" || e.code === "table_closed") {
      note(`The table ${tableName} is not open.`, "error");
      $("seat-controls").replaceChildren(el("a", { class: "button primary", href: "/lobby" }, "Back to the lobby"));
      conn.closed = true;
      conn.ws.close();
    } else {
      note(e.message, "error");
    }
  }
}
conn.onOpen(watchTable);

setupActions();
setupChatForm(conn, { table: tableName });
setupSound();
let resizeTimer = 0;
window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(draw, 100); });
me().then((m) => { user = m; draw(); }).catch(() => {});
