// The player's own profile: details, password, their bots and their tokens,
// deleting the account (POST /api/me/details, /api/me/password, /api/me/bots,
// /api/me/delete).
import { api, $, el, chips, me, showFieldError } from "./app.js";

/** fail shows err beside its field, or in the form's own error line. */
function fail(form, err, line) {
  showFieldError(form, err);
  if (!err.field || !$(`${err.field}-error`)) $(line).textContent = err.message;
}

async function setup() {
  let user = null;
  try { user = await me(); } catch { /* the house is down */ }
  if (!user) { location.href = "/login?next=/profile"; return; }
  $("profile-who").textContent = `${user.name}: your email and location are never shown to other players.`;
  $("profile-stats").href = `/players/${encodeURIComponent(user.name)}`;
  if (user.guest) { $("profile-guest").hidden = false; return; }
  $("profile").hidden = false;
  $("email").value = user.email || "";
  $("location").value = user.location || "";

  const details = $("details-form");
  details.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showFieldError(details, null);
    $("details-ok").textContent = "";
    try {
      const m = await api("POST", "/api/me/details", { email: $("email").value, location: $("location").value });
      $("email").value = m.email || "";
      $("location").value = m.location || "";
      $("details-ok").textContent = "Saved.";
    } catch (e) { fail(details, e, "form-error"); }
  });

  const pw = $("password-form");
  pw.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showFieldError(pw, null);
    $("password-ok").textContent = "";
    const body = { current_password: $("current_password").value, new_password: $("new_password").value };
    if (!body.current_password) return showFieldError(pw, { field: "current_password", message: "Enter your current password" });
    if (body.new_password.length < 8) return showFieldError(pw, { field: "new_password", message: "At least 8 characters" });
    try {
      await api("POST", "/api/me/password", body);
      pw.reset();
      $("password-ok").textContent = "Password changed. Your other devices are logged out.";
    } catch (e) { fail(pw, e, "form-error-pw"); }
  });

  setupBots();

  const del = $("delete-form");
  del.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showFieldError(del, null);
    const password = $("delete_password").value;
    if (!password) return showFieldError(del, { field: "delete_password", message: "Enter your password" });
    if (!$("delete_confirm").checked) return showFieldError(del, { field: "confirm", message: "Tick the box to confirm" });
    try {
      await api("POST", "/api/me/delete", { password });
      location.href = "/?deleted=1";
    } catch (e) { fail(del, e, "form-error-del"); }
  });
}

/** showToken shows a bot's new token, this once. */
function showToken(bot) {
  $("bot-token-name").textContent = bot.name;
  $("bot-token-value").textContent = bot.token;
  $("bot-token").hidden = false;
}

/** listBots draws the player's bots with their buttons. */
async function listBots() {
  const { bots } = await api("GET", "/api/me/bots");
  const rows = bots.map((b) => el("li", { dataset: { bot: b.name } },
    el("b", { text: b.name }), " ", el("span", { class: "muted", text: `${chips(b.credits)} credits` }), " ",
    el("span", { class: b.token_since ? "ok" : "muted", text: b.token_since ? "token active" : "no token" }),
    el("span", { class: "bot-actions" },
      el("button", { type: "button", "data-act": "token", onclick: () => botAction(b.name, "token") }, b.token_since ? "New token" : "Make a token"),
      b.token_since ? el("button", { type: "button", class: "danger", "data-act": "revoke", onclick: () => botAction(b.name, "revoke") }, "Revoke") : null)));
  $("bots-list").replaceChildren(...rows);
}

/** botAction makes a new token for a bot, or revokes its token. */
async function botAction(name, what) {
  $("bot-token").hidden = true;
  try {
    const r = await api("POST", `/api/me/bots/${encodeURIComponent(name)}/${what}`, {});
    if (r && r.token) showToken(r);
    await listBots();
  } catch (e) { $("bot_form-error").textContent = e.message; }
}

function setupBots() {
  const form = $("bot-form");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showFieldError(form, null, "bot_");
    $("bot-token").hidden = true;
    try {
      showToken(await api("POST", "/api/me/bots", { name: $("bot_name").value }));
      form.reset();
      await listBots();
    } catch (e) { showFieldError(form, e, "bot_"); }
  });
  listBots().catch((e) => { $("bot_form-error").textContent = e.message; });
}

setup();
