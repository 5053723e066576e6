package feltclient

import (
	"context"
	"errors"
	"fmt"
)

// Decider is a bot's mind: given the table when it is the bot's turn, what to
// do. It is called on the goroutine of Play, and must answer within the
// table's clock.
type Decider func(s *State) Action

// CheckOrCall checks when it may and calls otherwise: the simplest bot that
// never folds.
func CheckOrCall(s *State) Action {
	if s.Hand.Legal.Can("check") {
		return Action{Kind: "check"}
	}
	return Action{Kind: "call"}
}

// PlayOptions say where and how long Play plays.
type PlayOptions struct {
	Table string
	Seat  int // the seat to take; 0 with AnySeat unset is seat 0
	// AnySeat takes any free seat.
	AnySeat bool
	BuyIn   int64
	// Hands is how many hands to play before leaving (0: until ctx ends).
	Hands int
	// OnState, if set, sees every state of the table (for logging).
	OnState func(*State)
}

// Play sits at the table and plays with decide until it has been dealt
// opts.Hands hands, then leaves the table and returns nil. It returns the
// error that stopped it otherwise. An action the house refuses (the clock ran
// out first, say) is not an error: the house has acted for the bot.
func (c *Client) Play(ctx context.Context, opts PlayOptions, decide Decider) error {
	seat := opts.Seat
	if opts.AnySeat {
		seat = -1
	}
	if err := c.Sit(ctx, opts.Table, seat, opts.BuyIn); err != nil {
		return err
	}
	played := map[int64]bool{} // hands dealt to the bot and over
	acted := ""                // the decision point last answered
	for opts.Hands == 0 || len(played) < opts.Hands {
		m, err := c.Next(ctx)
		if err != nil {
			return err
		}
		if m.Type == "notice" && m.Table == opts.Table && (m.Code == "busted" || m.Code == "table_closed") {
			return fmt.Errorf("feltclient: %s: %s", m.Code, m.Text)
		}
		s := m.State
		if m.Type != "state" || s == nil || s.Table != opts.Table {
			continue
		}
		if opts.OnState != nil {
			opts.OnState(s)
		}
		if s.Hand != nil && s.Hand.Over && dealtIn(s) {
			played[s.Hand.Number] = true
		}
		if !s.MyTurn() {
			continue
		}
		key := fmt.Sprint(s.Hand.Number, "/", len(s.Hand.Events))
		if key == acted {
			continue
		}
		acted = key
		var herr *Error
		if err := c.Act(ctx, opts.Table, decide(s)); err != nil && !errors.As(err, &herr) {
			return err
		}
	}
	return c.Leave(ctx, opts.Table)
}

// dealtIn reports whether the bot holds cards in s's hand.
func dealtIn(s *State) bool {
	me := s.Mine()
	return me != nil && len(me.Cards) > 0
}
