// Muting players in the chat: the browser keeps the list (localStorage
// "felt.muted"), so it holds on every page and every table of this browser, and
// the house is not involved. A muted player's lines are not shown; a line under
// the chat lists who is muted, each with a button to hear them again. The chat
// form of the lobby and of a table is set up here too.
import { el, $ } from "./app.js";

/** setupChatForm sends what is typed in #chat-form as a chat message over conn,
 * with fields added (a table's name: { table }), and shows a refusal in
 * #chat-error. */
export function setupChatForm(conn, fields = {}) {
  $("chat-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const input = $("chat-text");
    const text = input.value.trim();
    if (!text) return;
    $("chat-error").textContent = "";
    try {
      await conn.send({ type: "chat", ...fields, text });
      input.value = "";
    } catch (e) {
      $("chat-error").textContent = e.code === "unauthorized" ? "Log in to chat." : e.message;
    }
  });
}

const KEY = "felt.muted";

/** muted returns the set of muted names (lower case). */
export function muted() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "[]");
    return new Set(Array.isArray(v) ? v.filter((x) => typeof x === "string") : []);
  } catch { return new Set(); }
}

function save(set) {
  try { localStorage.setItem(KEY, JSON.stringify([...set].sort())); } catch { /* storage disabled */ }
}

/** setMuted mutes or unmutes name. */
export function setMuted(name, on) {
  const set = muted();
  if (on) set.add(name.toLowerCase()); else set.delete(name.toLowerCase());
  save(set);
}

/** isMuted says whether name's lines are hidden. */
export const isMuted = (name) => muted().has(String(name).toLowerCase());

/**
 * ChatView draws a chat log with muting: add(m) shows a message unless its
 * author is muted; each line has a mute button for players other than me().
 */
export class ChatView {
  constructor(log, bar, me, clock) {
    this.log = log;
    this.bar = bar;
    this.me = me;
    this.clock = clock;
    this.lines = []; // every message received, muted or not, to redraw on a change
    this.drawBar();
  }

  add(m) {
    this.lines.push(m);
    if (this.lines.length > 200) this.lines.shift();
    if (!isMuted(m.from)) this.append(m);
    while (this.log.children.length > 200) this.log.firstChild.remove();
    this.log.scrollTop = this.log.scrollHeight;
  }

  clear() { this.lines = []; this.log.replaceChildren(); }

  append(m) {
    const mine = this.me() && this.me().toLowerCase() === String(m.from).toLowerCase();
    this.log.append(el("li", { dataset: { from: m.from } }, el("time", {}, this.clock(m.at)), " ", el("b", {}, m.from), ": ", m.text,
      mine ? null : el("button", { type: "button", class: "mute", title: `Mute ${m.from}`, "aria-label": `Mute ${m.from}`, onclick: () => this.mute(m.from, true) }, "mute")));
  }

  mute(name, on) {
    setMuted(name, on);
    this.log.replaceChildren();
    for (const m of this.lines) if (!isMuted(m.from)) this.append(m);
    this.log.scrollTop = this.log.scrollHeight;
    this.drawBar();
  }

  drawBar() {
    if (!this.bar) return;
    const names = [...muted()];
    this.bar.hidden = !names.length;
    this.bar.replaceChildren(...(names.length ? ["Muted: ", ...names.flatMap((n, i) => [i ? ", " : "", n, " ",
      el("button", { type: "button", class: "link unmute", dataset: { name: n }, onclick: () => this.mute(n, false) }, "unmute")])] : []));
  }
}
