// The rules page: draws the example hands written in data-cards attributes.
import { cardRow, splitCards } from "./cards.js";

for (const p of document.querySelectorAll("[data-cards]")) {
  p.append(cardRow(splitCards(p.dataset.cards), "md"));
}
