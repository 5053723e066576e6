// Package solver solves heads-up no-limit Hold'em subgames that start on the flop, the
// turn or the river: a pot, an effective stack, a board, two weighted ranges and a bet
// tree. Cards at chance nodes that are isomorphic under a renaming of the suits share
// one subtree.
//
// It runs Discounted CFR (alpha 1.5, beta 0, gamma 2) over vectors of hands: every
// decision node keeps a regret and a strategy sum per hand and action, one traversal
// per player and iteration carries the opponent's reach for all its hands at once.
// Chance nodes enumerate every card exactly, with card removal, and are spread over
// the workers. Showdowns cost O(n) per board: both players' hands are sorted by
// strength once per board, and one pass with running sums per card (the blocker
// correction) gives every hand the opponent reach it beats and loses to.
//
// Payoffs count half the starting pot as each player's; without rake they are
// zero-sum, with rake (a share of the called pot, capped) the winner gets the pot less
// the rake. The exploitability is the mean of both players' exact best-response gains
// against the average strategy, in percent of the starting pot, as TexasSolver and
// PioSOLVER report it.
//
// IterateContext stops inside an iteration once its context is done or its deadline
// has passed (the traversals poll Done at every node, the deadline on the clock every
// 16 nodes),
// keeping the updates of the decisions it finished: every average strategy stays a
// strategy (docs/solver.md, "Stopping inside an iteration"). NewContext's build and
// HandValuesContext stop alike.
//
// A spot with a Bound is a safe re-solve: the bounded player may take, with each
// hand, its value from an earlier solve instead of entering the subgame (the
// re-solving gadget of Burch, Johanson and Bowling), and Values gives the values
// at any node that bound the next re-solve from there.
//
// A spot with LeafRunouts is depth-limited (leaf.go): only its first street is
// played, and where the hand would go on to the next card it ends at a leaf worth
// each hand's equity against the other's reach there over a fixed sample of runouts.
package solver
