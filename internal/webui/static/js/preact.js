// Acting in advance: while others act, the player may choose what to do at
// their turn (check/fold, check, call this amount, call any). The choice is
// played at the turn as an ordinary action, and a check or a call of an amount
// cancels itself if the bet changes before then. Nothing is sent early: the
// house sees only the normal action, at the player's turn.

/** toCall is what seat would have to put in to call now (0: it may check). */
export function toCall(state, seat) {
  const seats = state?.seats || [];
  const top = Math.max(0, ...seats.map((s) => s.bet || 0));
  const me = seats[seat];
  return me ? Math.max(0, Math.min(top - (me.bet || 0), me.stack)) : 0;
}

/** canPreAct says whether the player may choose in advance: seated, in a hand
 * in play, still able to act, and not to act now. */
export function canPreAct(state) {
  const h = state?.hand, you = state?.you;
  if (!h || h.over || !you) return false;
  const me = state.seats[you.seat];
  return !!me && me.in_hand && !me.folded && !me.all_in && h.to_act !== you.seat;
}

/** stillHolds says whether a choice made when call was to call still holds
 * with now to call: a check or a call of an amount does not survive a change. */
export function stillHolds(choice, now) {
  if (choice.kind === "check" || choice.kind === "call") return now === choice.call;
  return true;
}

/** resolve is the action a choice plays given the legal actions l, or "" for
 * none (the choice no longer fits). */
export function resolve(choice, l) {
  const can = (a) => l.actions.includes(a);
  switch (choice.kind) {
    case "checkfold": return can("check") ? "check" : can("fold") ? "fold" : "";
    case "check": return can("check") ? "check" : "";
    case "call": return can("call") && l.call === choice.call ? "call" : "";
    case "callany": return can("call") ? "call" : can("check") ? "check" : "";
  }
  return "";
}
