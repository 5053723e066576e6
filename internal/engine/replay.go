package engine

import "fmt"

// Replay deals cfg (whose Seed fixes the cards) and applies actions in order. The
// hand it returns is identical, event for event, to the one the actions were recorded
// from. On a rejected action it returns the hand as it stood before that action and
// an error naming the action's position.
func Replay(cfg Config, actions []Action) (*Hand, error) {
	h, err := New(cfg)
	if err != nil {
		return nil, err
	}
	for k, a := range actions {
		if err := h.Apply(a); err != nil {
			return h, fmt.Errorf("replay action %d (%v): %w", k, a, err)
		}
	}
	return h, nil
}
