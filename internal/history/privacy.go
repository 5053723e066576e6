package history

import "github.com/felt-poker/felt/internal/engine"

// SeenBy returns the finished hand as the player in seat viewer (a table seat
// counted from 0, as in engine.Config.Stacks) may see it; any other viewer (-1, or
// a seat not dealt in) sees it as a spectator. This is what a poker room shows
// after a hand: the board, every action, the cards shown at showdown, and the
// viewer's own hole cards. Every other hole card (folded, mucked, won without a
// showdown) is written "??", and the _seed and _burns, which would replay the
// whole deck, are left out; _hand_key and _seed_sha256 stay, so that the full
// record, once published, can be checked against them (docs/protocol.md, "Hand
// privacy and provable fairness"). The cards hidden are the ones the engine hides
// from that seat (engine.Hand.EventsFor). The hand must replay (Replay).
func (p *PHH) SeenBy(viewer int) (*PHH, error) {
	cfg, h, err := p.Replay()
	if err != nil {
		return nil, err
	}
	player := make([]int, len(cfg.Stacks)) // seat -> 0-based player, -1 if not dealt in
	for i := range player {
		player[i] = -1
	}
	for k, s := range order(h, cfg.Button) {
		player[s] = k
	}
	if viewer < 0 || viewer >= len(player) || player[viewer] < 0 {
		viewer = engine.Spectator
	}
	out := *p
	winnings := make([]int64, len(p.StartingStacks))
	var burns string
	out.Actions = actionLines(h.EventsFor(viewer, 0), player, &winnings, &burns)
	out.Seed, out.Burns = "", ""
	return &out, nil
}
