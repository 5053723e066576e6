// Sounds at the table, made in the browser with WebAudio (short tones: no file
// is fetched): your turn, time running out, chips going in. A toggle mutes them;
// the choice is kept in localStorage ("felt.sound": "off" or "on"). Each sound
// played is counted on <body data-sounds>, and the last one named in
// data-last-sound, so that a test can see that it played.

const KEY = "felt.sound";
let ctx = null;

/** soundOn says whether sounds play (on unless the player muted them). */
export function soundOn() {
  try { return localStorage.getItem(KEY) !== "off"; } catch { return true; }
}

/** setSound turns sounds on or off. */
export function setSound(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* storage disabled */ }
}

// The tones of each sound: [frequency Hz, start s, length s].
const TONES = {
  turn: [[660, 0, 0.12], [880, 0.14, 0.16]],
  hurry: [[990, 0, 0.08], [990, 0.16, 0.08], [990, 0.32, 0.08]],
  chips: [[2200, 0, 0.03], [1800, 0.04, 0.03]],
};

/** play plays the sound called name, unless sounds are off. */
export function play(name) {
  if (!soundOn() || !TONES[name]) return;
  const b = document.body.dataset;
  b.sounds = String(Number(b.sounds || 0) + 1);
  b.lastSound = name;
  try {
    ctx = ctx || new AudioContext();
    if (ctx.state === "suspended") ctx.resume();
    const t0 = ctx.currentTime;
    for (const [f, at, len] of TONES[name]) {
      const o = ctx.createOscillator(), g = ctx.createGain();
      o.frequency.value = f;
      o.type = name === "chips" ? "triangle" : "sine";
      g.gain.setValueAtTime(0.0001, t0 + at);
      g.gain.exponentialRampToValueAtTime(0.15, t0 + at + 0.01);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
      o.connect(g).connect(ctx.destination);
      o.start(t0 + at);
      o.stop(t0 + at + len + 0.02);
    }
  } catch { /* no audio here */ }
}
