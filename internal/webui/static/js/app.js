// Shared by every page: the HTTP helper, the WebSocket connection with automatic
// reconnection, the account box in the header and small DOM helpers.

/** el builds an element: el("p", {class: "x", text: "hi"}, child, ...). */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") e.textContent = v;
    else if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(e.dataset, v);
    // Through the CSSOM, which the Content-Security-Policy allows; a style
    // attribute would be refused.
    else if (k === "style") e.style.cssText = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/** $ finds one element by id. */
export const $ = (id) => document.getElementById(id);

/** chips formats an amount of chips: 12,500. */
export const chips = (n) => (n ?? 0).toLocaleString("en-US");

/** when formats Unix milliseconds as a short local date and time. */
export function when(ms) {
  if (!ms) return "";
  const d = new Date(ms);
  return d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** clock formats Unix milliseconds as hours and minutes. */
export const clock = (ms) => new Date(ms || Date.now()).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });

/** The parameter of the page's path (a table or player name, a hand id). */
export const param = document.body.dataset.param || "";

/** APIError is a failed API call: status, code, field and message from the server. */
export class APIError extends Error {
  constructor(status, e) {
    super(e?.message || `request failed (${status})`);
    this.status = status;
    this.code = e?.code || "internal";
    this.field = e?.field || "";
  }
}

/** api calls the house's HTTP API with a JSON body and returns the decoded reply. */
export async function api(method, path, body) {
  const opts = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new APIError(0, { code: "network", message: "The house cannot be reached. Check your connection." });
  }
  if (res.status === 204) return null;
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) throw new APIError(res.status, data?.error);
  return data;
}

let mePromise = null;

/** me returns the logged-in player (GET /api/me), or null. */
export function me(refresh = false) {
  if (!mePromise || refresh) {
    mePromise = api("GET", "/api/me").catch((e) => {
      if (e.status === 401) return null;
      throw e;
    });
  }
  return mePromise;
}

/** showFieldErrors clears a form's errors and shows err beside its field. */
export function showFieldError(form, err, prefix = "") {
  for (const p of form.querySelectorAll(".error")) p.textContent = "";
  for (const i of form.querySelectorAll("[aria-invalid]")) i.removeAttribute("aria-invalid");
  if (!err) return;
  const field = err.field ? $(prefix + err.field + "-error") : null;
  const target = field || form.querySelector(`#${prefix}form-error`) || form.querySelector(".error");
  if (target) target.textContent = err.message;
  const input = err.field && $(prefix + err.field);
  if (input) {
    input.setAttribute("aria-invalid", "true");
    input.focus();
  }
}

/**
 * Conn is the page's WebSocket to the house. It reconnects by itself with a
 * growing delay, and calls onOpen after each (re)connection so that the page can
 * watch its tables again; the server then sends their whole state back.
 */
export class Conn {
  constructor() {
    this.handlers = new Map();
    this.pending = new Map();
    this.nextID = 1;
    this.delay = 500;
    this.openHooks = [];
    this.statusHooks = [];
    this.closed = false;
    this.connect();
  }

  /** on registers a handler for a server message type ("*" for every one). */
  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, []);
    this.handlers.get(type).push(fn);
    return this;
  }

  /** onOpen registers a function called after every (re)connection. */
  onOpen(fn) {
    this.openHooks.push(fn);
    if (this.ws?.readyState === WebSocket.OPEN) fn();
  }

  /** onStatus registers a function told "connecting", "open" or "closed". */
  onStatus(fn) { this.statusHooks.push(fn); }

  status(s) { for (const f of this.statusHooks) f(s); }

  connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    this.status("connecting");
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.status("open");
      for (const f of this.openHooks) f();
    };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if ((m.type === "ok" || m.type === "error" || m.type === "pong") && m.id && this.pending.has(m.id)) {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (m.type === "error") p.reject(new APIError(0, m.error));
        else p.resolve(m);
        return;
      }
      for (const t of [m.type, "*"]) for (const f of this.handlers.get(t) || []) f(m);
    };
    ws.onclose = () => {
      for (const p of this.pending.values()) p.reject(new APIError(0, { code: "closed", message: "Connection lost; reconnecting." }));
      this.pending.clear();
      if (this.closed) return;
      this.status("closed");
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }

  /** send sends a message and resolves with the server's ok (rejects with its error). */
  send(msg) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new APIError(0, { code: "closed", message: "Not connected yet; try again in a moment." }));
        return;
      }
      const id = this.nextID++;
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }
}

/** connStatus shows a Conn's state in an element. */
export function connStatus(conn, node) {
  if (!node) return;
  conn.onStatus((s) => {
    node.dataset.state = s;
    node.textContent = s === "open" ? "" : s === "connecting" ? "Connecting…" : "Connection lost, reconnecting…";
  });
}

/** playAsGuest opens a guest session. */
export const playAsGuest = () => api("POST", "/api/guest", {});

async function drawAccount() {
  const box = $("account");
  if (!box) return;
  let m = null;
  try { m = await me(); } catch { /* the house is down: show the log-in links */ }
  box.replaceChildren();
  if (!m) {
    box.append(el("a", { href: "/login" }, "Log in"), " ", el("a", { href: "/register", class: "button small" }, "Register"));
    return;
  }
  box.append(
    el("a", { href: m.guest ? `/players/${encodeURIComponent(m.name)}` : "/profile", class: "who", title: m.guest ? "" : "Your profile" }, m.name),
    " ",
    el("span", { class: "credits", id: "header-credits", title: "Your credits" }, chips(m.credits)),
    " ",
    el("button", { type: "button", class: "link", onclick: async () => {
      try { await api("POST", "/api/logout"); } catch { /* already out */ }
      location.href = "/";
    } }, "Log out"),
  );
}

/** setCredits updates the credits shown in the header. */
export function setCredits(n) {
  const c = $("header-credits");
  if (c) c.textContent = chips(n);
}

function fourColourToggle() {
  const box = $("four-colour");
  if (!box) return;
  box.checked = document.documentElement.classList.contains("four-colour");
  box.addEventListener("change", () => {
    document.documentElement.classList.toggle("four-colour", box.checked);
    try { localStorage.setItem("felt.fourColour", box.checked ? "1" : "0"); } catch { /* private mode */ }
  });
}

drawAccount();
fourColourToggle();

// The UI is an installable app (manifest.webmanifest): its service worker keeps
// the shell for opening without a network; play stays online.
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}
