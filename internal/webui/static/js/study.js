// The Study page: paste a spot, solve it on the house (POST /api/study, progress from
// GET /api/study), then walk the tree (GET /api/study/node?path=) with a 13x13 grid
// of the player to act's range. Mouse, keyboard (arrows in the grid, digits for the
// actions, Backspace to go back) and touch all work.
import { api, $, el } from "./app.js";

const RANKS = "AKQJT98765432";
const EXAMPLE = `pot = 10
stack = 95
board = "Qs Jh 2h 8d 3c"
oop = "AA,KK,QQ,AK,JTs,T9s,98s,A5s,A4s"
ip = "QQ:0.5,JJ,TT,99,AQs,KQ,QJ,JTs,76s"
rake = 0

[[sizes]]
bet = [33, 100]
raise = [50]
allin = true
`;

let path = [];
let node = null;
let cell = 0; // the grid cell with the keyboard's focus: row * 13 + column
let polling = null;

// colours gives each action a colour: fold blue, check and call green, bets and
// raises red, magenta, orange... from the smallest up.
function colours(actions) {
  const sized = ["#d64541", "#b83fb8", "#e08a1e", "#c9b21a", "#8e5bd6", "#d66b9e", "#a0522d", "#6b8e23"];
  let k = 0;
  return actions.map((a) => (a === "f" ? "#3b7dd8" : a === "x" || a === "c" ? "#2e9e5b" : sized[k++ % sized.length]));
}

// classOf names a hand's class ("AhKh" is AKs) and its grid cell.
function classOf(hand) {
  let [a, b] = [RANKS.indexOf(hand[0]), RANKS.indexOf(hand[2])];
  if (a > b) [a, b] = [b, a];
  if (a === b) return { name: RANKS[a] + RANKS[b], idx: a * 13 + b };
  return hand[1] === hand[3] ? { name: `${RANKS[a]}${RANKS[b]}s`, idx: a * 13 + b } : { name: `${RANKS[a]}${RANKS[b]}o`, idx: b * 13 + a };
}

function cellName(i) {
  const [r, c] = [Math.floor(i / 13), i % 13];
  if (r === c) return RANKS[r] + RANKS[c];
  return r < c ? `${RANKS[r]}${RANKS[c]}s` : `${RANKS[c]}${RANKS[r]}o`;
}

const pct = (x) => `${Math.round(x * 100)}%`;

function status(text) {
  $("study-status").textContent = text;
}

function showStatus(st) {
  const busy = st.state === "solving";
  $("stop").disabled = !busy;
  $("solve").disabled = busy;
  if (st.state === "none") return status("");
  const ex = st.iterations ? `, exploitability ${st.exploitability.toFixed(3)}% of the pot (target ${st.target}%)` : "";
  const why = { target: "reached the target", time: "stopped at the time limit", stopped: "stopped" }[st.stopped] || "";
  status(`${busy ? "Solving" : "Solved"} ${st.spot}: ${st.hands[0]} hands OOP, ${st.hands[1]} IP, ${st.nodes} nodes; ` +
    `${st.iterations} iterations${ex}; ${Math.round(st.seconds)} s of at most ${st.max_seconds}${why ? ` (${why})` : ""}.`);
}

async function poll() {
  clearTimeout(polling);
  try {
    const st = await api("GET", "/api/study");
    showStatus(st);
    if (st.state === "solving") polling = setTimeout(poll, 1000);
    else if (st.state === "done") await go([]);
  } catch (e) {
    status(e.message);
  }
}

async function solve(ev) {
  ev.preventDefault();
  $("study-error").textContent = "";
  try {
    const st = await api("POST", "/api/study", { spot: $("spot").value, format: $("format").value, accuracy: Number($("accuracy").value) || 0 });
    $("browser").hidden = true;
    showStatus(st);
    polling = setTimeout(poll, 500);
  } catch (e) {
    $("study-error").textContent = e.message;
  }
}

async function stop() {
  try {
    showStatus(await api("POST", "/api/study/stop", {}));
    await go([]);
  } catch (e) {
    $("study-error").textContent = e.message;
  }
}

// go shows the node at p.
async function go(p) {
  try {
    node = await api("GET", `/api/study/node?path=${encodeURIComponent(p.join(" "))}`);
    path = p;
    $("browser").hidden = false;
    render();
  } catch (e) {
    $("study-error").textContent = e.message;
  }
}

function render() {
  $("path").replaceChildren(
    el("li", {}, el("button", { type: "button", onclick: () => go([]), "aria-current": path.length === 0 ? "step" : undefined }, "root")),
    ...path.map((step, i) => el("li", {}, el("button", { type: "button", onclick: () => go(path.slice(0, i + 1)), "aria-current": i === path.length - 1 ? "step" : undefined }, step))));
  const where = `${node.street}, board ${node.board || "-"}, pot ${node.pot}`;
  const acts = $("actions");
  $("hands").replaceChildren();
  if (node.kind === "decision") {
    $("node-where").textContent = `${node.player} to act on the ${where}.`;
    const col = colours(node.actions);
    acts.replaceChildren(...node.actions.map((a, i) => el("button", { type: "button", onclick: () => go([...path, a]), "aria-keyshortcuts": i < 9 ? String(i + 1) : undefined },
      el("span", { class: "swatch", style: `background:${col[i]}` }), `${a}${node.all_in[i] ? " (all-in)" : ""} · ${pct(node.totals[i])}`)));
    $("legend").replaceChildren(...node.actions.map((a, i) => el("span", {}, el("span", { class: "swatch", style: `background:${col[i]}` }), `${a} ${pct(node.totals[i])}`)));
  } else if (node.kind === "chance") {
    $("node-where").textContent = `A card comes on the ${where}: pick it.`;
    acts.replaceChildren(...node.deals.map((c) => el("button", { type: "button", onclick: () => go([...path, c]) }, c)));
    $("legend").replaceChildren();
  } else {
    $("node-where").textContent = `The hand ends here (${node.kind}), ${where}.`;
    acts.replaceChildren();
    $("legend").replaceChildren();
  }
  drawGrid();
}

// classes sums the hands at the node by class: reach, and reach per action.
function classes() {
  const out = new Map();
  for (const h of node.hands || []) {
    const { idx } = classOf(h.hand);
    const c = out.get(idx) || { reach: 0, acts: new Array(node.actions.length).fill(0), hands: [] };
    c.reach += h.reach;
    h.strategy.forEach((f, i) => (c.acts[i] += f * h.reach));
    c.hands.push(h);
    out.set(idx, c);
  }
  return out;
}

function drawGrid() {
  const grid = $("grid");
  const cls = node.kind === "decision" ? classes() : new Map();
  const col = node.kind === "decision" ? colours(node.actions) : [];
  const cells = [];
  for (let i = 0; i < 169; i++) {
    const c = cls.get(i);
    const name = cellName(i);
    let label = `${name}: not in the range here`;
    let style;
    if (c && c.reach > 0) {
      let at = 0;
      const stops = c.acts.map((r, k) => {
        const from = at;
        at += (r / c.reach) * 100;
        return `${col[k]} ${from.toFixed(1)}% ${at.toFixed(1)}%`;
      });
      style = `background:linear-gradient(to right, ${stops.join(", ")})`;
      label = `${name}: ${node.actions.map((a, k) => `${a} ${pct(c.acts[k] / c.reach)}`).join(", ")}`;
    }
    cells.push(el("button", { type: "button", role: "gridcell", class: c ? "" : "out", style, "aria-label": label, title: label,
      tabindex: i === cell ? "0" : "-1", "aria-selected": i === cell ? "true" : "false", onclick: () => pick(i), dataset: { i } }, name));
  }
  const rows = [];
  for (let r = 0; r < 13; r++) rows.push(el("div", { role: "row", style: "display:contents" }, cells.slice(r * 13, r * 13 + 13)));
  grid.replaceChildren(...rows);
}

// pick selects a cell and lists its hands.
function pick(i) {
  cell = i;
  drawGrid();
  $("grid").querySelector(`[data-i="${i}"]`)?.focus();
  const c = node.kind === "decision" ? classes().get(i) : null;
  if (!c) {
    $("hands").replaceChildren(el("p", {}, `${cellName(i)}: no hand of this class reaches this node.`));
    return;
  }
  $("hands").replaceChildren(el("table", { class: "list" },
    el("caption", {}, `${cellName(i)}: each hand's play, EV (chips it ends with) and equity against the range here`),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "hand"), el("th", { scope: "col", class: "num" }, "reach"),
      ...node.actions.map((a) => el("th", { scope: "col", class: "num" }, a)), el("th", { scope: "col", class: "num" }, "EV"), el("th", { scope: "col", class: "num" }, "equity"))),
    el("tbody", {}, ...c.hands.map((h) => el("tr", {}, el("td", {}, h.hand), el("td", { class: "num" }, h.reach.toFixed(3)),
      ...h.strategy.map((f) => el("td", { class: "num" }, pct(f))), el("td", { class: "num" }, h.ev.toFixed(2)), el("td", { class: "num" }, h.equity >= 0 ? pct(h.equity) : "-"))))));
}

function onGridKey(ev) {
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -13, ArrowDown: 13, Home: -(cell % 13), End: 12 - (cell % 13) };
  if (ev.key in moves) {
    const next = cell + moves[ev.key];
    if (next >= 0 && next < 169 && (Math.abs(moves[ev.key]) !== 1 || Math.floor(next / 13) === Math.floor(cell / 13))) {
      cell = next;
      drawGrid();
      $("grid").querySelector(`[data-i="${cell}"]`)?.focus();
    }
    ev.preventDefault();
  }
}

function onKey(ev) {
  const t = ev.target;
  if (!node || t.matches("input, textarea, select") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "Backspace" && path.length > 0) {
    ev.preventDefault();
    go(path.slice(0, -1));
  } else if (/^[1-9]$/.test(ev.key) && node.kind === "decision" && node.actions[Number(ev.key) - 1]) {
    go([...path, node.actions[Number(ev.key) - 1]]);
  }
}

$("spot").value = EXAMPLE;
$("study-form").addEventListener("submit", solve);
$("stop").addEventListener("click", stop);
$("grid").addEventListener("keydown", onGridKey);
document.addEventListener("keydown", onKey);
poll();
