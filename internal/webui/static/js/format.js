// Words and numbers shared by the lobby and the table pages.
import { chips } from "./app.js";

/** VARIANTS names the games by their protocol codes. */
export const VARIANTS = { nlhe: "No-limit Hold'em", plhe: "Pot-limit Hold'em", flhe: "Fixed-limit Hold'em", stud3: "Three card stud" };

/** stakes says a table's stakes: "10/20", "10/20 ante 2", "ante 5". */
export function stakes(t) {
  if (t.variant === "stud3") return `ante ${chips(t.ante)}`;
  return `${chips(t.small_blind)}/${chips(t.big_blind)}` + (t.ante ? ` ante ${chips(t.ante)}` : "");
}
