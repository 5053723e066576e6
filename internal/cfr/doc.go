// Package cfr solves two-player poker games by counterfactual regret minimisation:
// vanilla CFR, CFR+, Discounted CFR and external-sampling Monte Carlo CFR, with exact
// best responses and exploitability for games small enough to walk whole (Kuhn poker
// and Leduc Hold'em), checkpoints, and strategy files that bots load.
package cfr
