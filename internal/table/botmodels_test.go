package table

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/felt-poker/felt/internal/bot"
)

// memModels is a bot.ModelStore in memory.
type memModels struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *memModels) LoadModel(_ context.Context, b, opponent string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.m[b+"/"+opponent]; ok {
		return m, nil
	}
	return nil, fmt.Errorf("%s/%s: %w", b, opponent, bot.ErrNoModel)
}

func (s *memModels) SaveModel(_ context.Context, b, opponent string, model []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[b+"/"+opponent] = model
	return nil
}

// TestBotModelsByName: a learning bot at a table is told the players' names and
// keeps its model of each, by name, in the table's BotModels.
func TestBotModelsByName(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		models := &memModels{m: map[string][]byte{}}
		cfg := testConfig(b, "bayes", "call")
		cfg.BotModels = models
		tb := mustNew(t, cfg)
		alice, c := Player{1, "alice"}, &client{}
		if _, err := tb.Watch(t.Context(), alice, c); err != nil {
			t.Fatal(err)
		}
		if err := tb.Sit(t.Context(), alice, -1, 1000); err != nil {
			t.Fatal(err)
		}
		play(t, tb, b, rand.New(rand.NewPCG(3, 4)), 5, map[Player]*client{alice: c})
		if err := tb.Close(t.Context(), "test over"); err != nil {
			t.Fatal(err)
		}
		models.mu.Lock()
		defer models.mu.Unlock()
		for _, k := range []string{"bayes/alice", "bayes/bot-call-2"} {
			if len(models.m[k]) == 0 {
				t.Errorf("no model %q; the store holds %d: %v", k, len(models.m), keys(models.m))
			}
		}
		if _, ok := models.m["bayes/"]; ok {
			t.Errorf("a model of an unnamed opponent: %v", keys(models.m))
		}
	})
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
