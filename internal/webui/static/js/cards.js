// Cards drawn in HTML: a large rank and suit in the corner, distinct suit colours
// (classic two colours, or four with the four-colour deck option), a back for a
// card the player may not see ("??").

const SUITS = { s: ["♠", "spades"], h: ["♥", "hearts"], d: ["♦", "diamonds"], c: ["♣", "clubs"] };
const RANKS = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two" };

/** cardName says a card in words: "ace of spades". */
export function cardName(code) {
  if (!code || code === "??") return "hidden card";
  return `${RANKS[code[0]] || code[0]} of ${SUITS[code[1]]?.[1] || code[1]}`;
}

/** card returns the element for one card code such as "As", "Td" or "??". */
export function card(code, size = "") {
  const hidden = !code || code === "??";
  const span = document.createElement("span");
  span.className = `card ${size}`.trim();
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", cardName(code));
  if (hidden) {
    span.classList.add("back");
    return span;
  }
  const rank = code[0] === "T" ? "10" : code[0];
  const [sym] = SUITS[code[1]] || ["?"];
  span.classList.add(`s-${code[1]}`);
  span.dataset.card = code;
  const r = document.createElement("span");
  r.className = "rank";
  r.textContent = rank;
  const s = document.createElement("span");
  s.className = "suit";
  s.textContent = sym;
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.textContent = sym;
  pip.setAttribute("aria-hidden", "true");
  r.setAttribute("aria-hidden", "true");
  s.setAttribute("aria-hidden", "true");
  span.append(r, s, pip);
  return span;
}

/** cardRow returns a span of cards. */
export function cardRow(codes, size = "") {
  const row = document.createElement("span");
  row.className = "cards";
  for (const c of codes || []) row.append(card(c, size));
  return row;
}

/** splitCards reads "AsKd" or "As Kd" into ["As", "Kd"]. */
export function splitCards(text) {
  const out = [];
  const t = (text || "").replace(/[\s,]/g, "");
  for (let i = 0; i + 1 < t.length; i += 2) out.push(t.slice(i, i + 2));
  return out;
}
