// The hand-history viewer: reads a stored hand's PHH text (docs/phh.md) and
// replays it step by step: cards dealt, each action, the stacks, bets and pot.
import { api, $, el, chips, when, param } from "./app.js";
import { card, splitCards } from "./cards.js";

/** parsePHH reads the TOML of one PHH hand into an object (the subset PHH uses:
 * strings, numbers, booleans and arrays of them, one key per statement). */
export function parsePHH(text) {
  const out = {};
  let i = 0;
  const ws = () => {
    for (;;) {
      while (i < text.length && /\s/.test(text[i])) i++;
      if (text[i] === "#") { while (i < text.length && text[i] !== "\n") i++; continue; }
      return;
    }
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === "[") {
      i++;
      const arr = [];
      for (;;) {
        ws();
        if (text[i] === "]") { i++; return arr; }
        arr.push(value());
        ws();
        if (text[i] === ",") i++;
      }
    }
    if (c === "'" || c === '"') {
      i++;
      let s = "";
      while (i < text.length && text[i] !== c) {
        if (c === '"' && text[i] === "\\") { i++; s += { n: "\n", t: "\t" }[text[i]] ?? text[i]; } else s += text[i];
        i++;
      }
      i++;
      return s;
    }
    let tok = "";
    while (i < text.length && !/[\s,\]#]/.test(text[i])) tok += text[i++];
    if (tok === "true") return true;
    if (tok === "false") return false;
    return Number(tok.replace(/_/g, ""));
  };
  for (;;) {
    ws();
    if (i >= text.length) break;
    if (text[i] === "[") { while (i < text.length && text[i] !== "\n") i++; continue; } // a table header
    let key = "";
    while (i < text.length && text[i] !== "=" && text[i] !== "\n") key += text[i++];
    if (text[i] !== "=") continue;
    i++;
    out[key.trim()] = value();
  }
  return out;
}

/** replaySteps turns a PHH hand into snapshots, one per action. */
export function replaySteps(h) {
  const n = (h.starting_stacks || []).length;
  const names = (h.players || []).slice();
  for (let k = 0; k < n; k++) if (!names[k]) names[k] = `p${k + 1}`;
  const p = Array.from({ length: n }, (_, k) => ({ name: names[k], stack: h.starting_stacks[k], bet: 0, cards: [], folded: false, shown: null }));
  let board = [];
  let pot = 0;
  const antes = h.antes || [];
  let blinds = (h.blinds_or_straddles || []).slice();
  if (n === 2 && blinds.length === 2) blinds = [blinds[1], blinds[0]]; // heads-up: p1 is the big blind
  for (let k = 0; k < n; k++) {
    const a = Math.min(antes[k] || 0, p[k].stack);
    p[k].stack -= a; pot += a;
    const b = Math.min(blinds[k] || 0, p[k].stack);
    p[k].stack -= b; p[k].bet = b;
  }
  const snap = (text) => ({ text, board: board.slice(), pot: pot + p.reduce((s, x) => s + x.bet, 0), players: p.map((x) => ({ ...x, cards: x.cards.slice() })) });
  const steps = [snap("Antes and blinds are posted.")];
  const collect = () => { for (const x of p) { pot += x.bet; x.bet = 0; } };
  for (const raw of h.actions || []) {
    const [act, comment] = raw.split("#").map((s) => s.trim());
    const f = act.split(/\s+/);
    if (f[0] === "d" && f[1] === "dh") {
      const k = Number(f[2].slice(1)) - 1;
      p[k].cards.push(...splitCards(f[3]));
      steps.push(snap(`${p[k].name} is dealt ${f[3].includes("?") ? "cards" : f[3]}.`));
    } else if (f[0] === "d" && f[1] === "db") {
      collect();
      const cs = splitCards(f[2]);
      const label = board.length === 0 ? "Flop" : board.length === 3 ? "Turn" : "River";
      board = board.concat(cs);
      steps.push(snap(`${label}: ${f[2]}.`));
    } else if (/^p\d+$/.test(f[0])) {
      const k = Number(f[0].slice(1)) - 1;
      const x = p[k];
      const top = Math.max(...p.map((y) => y.bet));
      let text = "";
      if (f[1] === "f") { x.folded = true; text = `${x.name} ${comment === "leave" ? "leaves" : "folds"}.`; }
      else if (f[1] === "cc") {
        const add = Math.min(top - x.bet, x.stack);
        x.stack -= add; x.bet += add;
        text = add ? `${x.name} calls ${chips(add)}.` : `${x.name} checks.`;
      } else if (f[1] === "cbr") {
        const to = Number(f[2]);
        const add = Math.min(to - x.bet, x.stack);
        x.stack -= add; x.bet += add;
        text = `${x.name} ${top ? "raises to" : "bets"} ${chips(to)}${x.stack === 0 ? " and is all-in" : ""}.`;
      } else if (f[1] === "sm") {
        if (f[2]) { x.cards = splitCards(f[2]); x.shown = true; text = `${x.name} shows ${f[2]}.`; }
        else text = `${x.name} mucks.`;
      } else text = raw;
      steps.push(snap(text));
    }
  }
  collect();
  if (h._second_board) { // a board run twice (felt's extension): the second run
    board = splitCards(h._second_board);
    steps.push(snap(`The board is run a second time: ${h._second_board}. Each pot is split between the two runs.`));
  }
  if (h.finishing_stacks) {
    const last = snap("");
    const wins = (h.winnings || []).map((w, k) => (w ? `${names[k]} wins ${chips(w)}` : "")).filter(Boolean);
    last.text = wins.length ? `${wins.join(", ")}.` : "The hand is over.";
    last.pot = 0;
    last.players.forEach((x, k) => { x.stack = h.finishing_stacks[k]; x.bet = 0; x.won = (h.winnings || [])[k] || 0; });
    steps.push(last);
  }
  return steps;
}

let steps = [];
let at = 0;
let timer = 0;

function show(k) {
  at = Math.max(0, Math.min(steps.length - 1, k));
  const s = steps[at];
  const n = s.players.length;
  const seats = $("seats");
  seats.replaceChildren();
  s.players.forEach((x, i) => {
    // The button (the last player) sits at the bottom.
    const a = Math.PI / 2 + ((i - (n - 1)) * 2 * Math.PI) / n;
    const pos = (rx, ry) => [50 + rx * Math.cos(a), 50 + ry * Math.sin(a)];
    const [sx, sy] = pos(44, 40);
    const [bx, by] = pos(27, 22);
    seats.append(el("div", { class: `seat${x.folded ? " folded" : ""}${x.won ? " winner" : ""}`, style: `left:${sx}%;top:${sy}%`, dataset: { seat: i } },
      el("div", { class: "hole" }, x.cards.map((c) => card(c, "sm"))),
      el("div", { class: "plate" }, el("div", { class: "avatar", "aria-hidden": "true" }, x.name.slice(0, 1).toUpperCase()),
        el("div", { class: "who" }, el("span", { class: "name" }, x.name), el("span", { class: "stack" }, chips(x.stack)))),
      x.won ? el("div", { class: "won" }, `wins ${chips(x.won)}`) : null));
    if (x.bet) seats.append(el("div", { class: "bet", style: `left:${bx}%;top:${by}%` }, el("span", { class: "chip", "aria-hidden": "true" }), chips(x.bet)));
    if (i === n - 1) { const [dx, dy] = pos(31, 27); seats.append(el("div", { class: "dealer", style: `left:${dx + 4}%;top:${dy}%`, title: "Dealer button" }, "D")); }
  });
  $("board").replaceChildren(...s.board.map((c) => card(c, "md")));
  $("pots").replaceChildren(el("div", { class: "pot" }, "Pot ", el("b", {}, chips(s.pot))));
  $("step").textContent = `Step ${at + 1} of ${steps.length}: ${s.text}`;
  for (const [i, li] of [...$("steps").children].entries()) {
    li.classList.toggle("current", i === at);
    if (i === at) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
  }
  $("prev").disabled = $("first").disabled = at === 0;
  $("next").disabled = $("last").disabled = at === steps.length - 1;
}

function play() {
  if (timer) { clearInterval(timer); timer = 0; $("play").textContent = "▶ Play"; return; }
  if (at === steps.length - 1) show(0);
  $("play").textContent = "⏸ Pause";
  timer = setInterval(() => { if (at >= steps.length - 1) play(); else show(at + 1); }, 900);
}

async function load() {
  try {
    const r = await api("GET", `/api/hands/${encodeURIComponent(param)}`);
    $("hand-sub").textContent = `${r.table || ""} · ${when(r.played_at)}`;
    $("phh").textContent = r.phh || "";
    const h = parsePHH(r.phh || "");
    if (!h.players?.length && r.players?.length) h.players = r.players.map((x) => x.name);
    steps = replaySteps(h);
  } catch (e) {
    $("step").textContent = e.status === 404 ? `No hand ${param} is stored.` : e.message;
    return;
  }
  $("steps").replaceChildren(...steps.map((s, i) => el("li", {}, el("button", { type: "button", class: "link", onclick: () => show(i) }, s.text))));
  show(0);
}

$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(at - 1));
$("next").addEventListener("click", () => show(at + 1));
$("last").addEventListener("click", () => show(steps.length - 1));
$("play").addEventListener("click", play);
document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLTextAreaElement) return;
  if (ev.key === "ArrowRight") show(at + 1);
  else if (ev.key === "ArrowLeft") show(at - 1);
});
load();
