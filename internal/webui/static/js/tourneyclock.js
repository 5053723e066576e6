// The level clock of a tournament's table: its level and the time to the next,
// asked of the house every five seconds and counted down in between.
import { api, $ } from "./app.js";
import { mmss } from "./tourneys.js";

let started = false;

/** startLevelClock keeps the element #t-level (redrawn at will) showing tournament id's level clock. */
export function startLevelClock(id) {
  if (started) return;
  started = true;
  let t = null, at = 0;
  const tick = () => {
    const n = $("t-level");
    if (!n || !t) return;
    n.textContent = t.state !== "running" ? "" : `Level ${t.level + 1}` + (t.level_left_ms > 0 ? ` · next in ${mmss(t.level_left_ms - (Date.now() - at))}` : "");
  };
  const load = async () => {
    try {
      t = await api("GET", `/api/tournaments/${id}`);
      at = Date.now();
    } catch { /* the next try */ }
    tick();
  };
  load();
  setInterval(tick, 1000);
  setInterval(load, 5000);
}
