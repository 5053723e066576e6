// Register and log-in forms.
import { api, $, showFieldError, playAsGuest, APIError } from "./app.js";

const next = new URLSearchParams(location.search).get("next");
const go = () => { location.href = next && next.startsWith("/") && !next.startsWith("//") ? next : "/lobby"; };

const reg = $("register-form");
if (reg) {
  reg.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {
      username: $("username").value.trim(),
      password: $("password").value,
      adult: $("adult").checked,
      email: $("email").value.trim(),
      location: $("location").value.trim(),
    };
    let err = null;
    if (!/^[A-Za-z0-9_-]{3,15}$/.test(body.username)) err = { field: "username", message: "3 to 15 letters, digits, _ or -" };
    else if (body.password.length < 8) err = { field: "password", message: "At least 8 characters" };
    else if (!body.adult) err = { field: "adult", message: "You must be 18 or over to play at felt" };
    if (err) return showFieldError(reg, err);
    showFieldError(reg, null);
    try {
      await api("POST", "/api/register", body);
      go();
    } catch (e) {
      showFieldError(reg, e);
    }
  });
}

const login = $("login-form");
if (login) {
  login.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { username: $("username").value.trim(), password: $("password").value };
    if (!body.username) return showFieldError(login, { field: "username", message: "Enter your username" });
    if (!body.password) return showFieldError(login, { field: "password", message: "Enter your password" });
    showFieldError(login, null);
    try {
      await api("POST", "/api/login", body);
      go();
    } catch (e) {
      showFieldError(login, e instanceof APIError && e.status === 401 ? { message: "Wrong username or password" } : e);
    }
  });
  $("guest").addEventListener("click", async () => {
    try {
      await playAsGuest();
      go();
    } catch (e) {
      showFieldError(login, e);
    }
  });
}
