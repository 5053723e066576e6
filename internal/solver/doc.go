// Package solver solves heads-up no-limit Hold'em subgames that start on the turn or
// the river (the flop is built the same way, only bigger): a pot, an effective stack,
// a board, two weighted ranges and a bet tree.
//
// It runs Discounted CFR (alpha 1.5, beta 0, gamma 2) over vectors of hands: every
// decision node keeps a regret and a strategy sum per hand and action, one traversal
// per player and iteration carries the opponent's reach for all its hands at once.
// Chance nodes enumerate every card exactly, with card removal, and are spread over
// the workers. Showdowns cost O(n) per board: both players' hands are sorted by
// strength once per board, and one pass with running sums per card (the blocker
// correction) gives every hand the opponent reach it beats and loses to.
//
// Payoffs are zero-sum: each player has put half the starting pot in. The
// exploitability is the mean of both players' exact best-response gains against the
// average strategy, in percent of the starting pot, as TexasSolver and PioSOLVER
// report it.
package solver
