package distrib

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/bot"
)

// A worker trusts no item: a hostile coordinator naming a learner whose state
// is a file (adaptive:state=FILE) is refused before a deal is played, and the
// file is never written on the worker's disk.
func TestWorkerRefusesLearnerFromItem(t *testing.T) {
	target := filepath.Join(t.TempDir(), "planted.json")
	specs := []struct {
		m *matchSpec
		l *lbrSpec
	}{
		{m: &matchSpec{A: "adaptive:state=" + target, B: "call", Game: "nl", Hands: 4, Seed: 1}},
		{l: &lbrSpec{Bot: "adaptive:state=" + target, Hands: 2, Seed: 1, Sizes: []float64{1}, Samples: 10, Runouts: 1}},
	}
	for _, s := range specs {
		var d dealer
		var err error
		if s.m != nil {
			d, err = newMatchDealer(s.m, bot.New)
		} else {
			d, err = newLBRDealer(s.l, bot.New)
		}
		if err == nil {
			var r result
			for k := range d.deals() {
				if err := d.play(context.Background(), k, &r); err != nil {
					break
				}
			}
			t.Errorf("a worker accepted a learner from an item (%+v %+v)", s.m, s.l)
		}
		if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("a hostile item wrote %s: %v", target, err)
		}
	}
}

// A hostile worker sending a new refusal reason in every message cannot grow
// the coordinator's memory: refusals are remembered up to maxRefusals.
func TestRefusalsAreBounded(t *testing.T) {
	j := &job{deals: 8, chunk: 4, add: func(int, *result) error { return nil }}
	g := gathering{job: j, run: "r", done: make([]*counted, 2), left: 2, workers: map[string]bool{}, refusals: map[string]bool{}}
	log := slog.New(newLogSink())
	for i := range 3 * maxRefusals {
		data, _ := json.Marshal(result{Protocol: Protocol, Run: "r", Lo: 0, Hi: 4, Worker: fmt.Sprint("w", i), Refused: fmt.Sprint("reason ", i)})
		if err := g.take(log, data); err != nil {
			t.Fatal(err)
		}
	}
	if len(g.refusals) > maxRefusals {
		t.Errorf("%d refusals remembered, at most %d wanted", len(g.refusals), maxRefusals)
	}
}

// FuzzResult feeds the coordinator anything a hostile worker may publish: it
// never panics, counts an item at most once and only with as many outcomes as
// its deals, and fails the run only on a result's error or a disagreement.
func FuzzResult(f *testing.F) {
	for _, r := range []result{
		{Protocol: Protocol, Run: "r", Lo: 0, Hi: 4, Worker: "a", Match: make([]arena.Outcome, 4)},
		{Protocol: Protocol, Run: "r", Lo: 4, Hi: 8, Worker: "a", Match: make([]arena.Outcome, 3)},
		{Protocol: Protocol, Run: "r", Lo: 4, Hi: 8, Worker: "b", Refused: "another build"},
		{Protocol: Protocol, Run: "r", Lo: 0, Hi: 4, Worker: "b", Error: "a bot panicked"},
		{Protocol: Protocol, Run: "r", Lo: -4, Hi: 0, Worker: "c", Match: make([]arena.Outcome, 4)},
	} {
		data, _ := json.Marshal(r)
		f.Add(data)
	}
	f.Add([]byte(`{"protocol":1,"run":"r","lo":9223372036854775804,"hi":-9223372036854775808}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var added int
		j := &job{deals: 8, chunk: 4, add: func(lo int, r *result) error {
			if len(r.Match) != r.Hi-r.Lo || r.LBR != nil {
				return errors.New("wrong count")
			}
			added += len(r.Match)
			return nil
		}}
		g := gathering{job: j, run: "r", done: make([]*counted, 2), left: 2, workers: map[string]bool{}, refusals: map[string]bool{}}
		log := slog.New(slog.DiscardHandler)
		for range 2 { // the same message twice: a duplicate changes nothing
			err := g.take(log, data)
			var r result
			if err != nil && (json.Unmarshal(data, &r) != nil || r.Error == "") {
				t.Fatalf("take(%q) = %v without an error in the result", data, err)
			}
		}
		if added > 8 || g.left < 0 || added != 4*(2-g.left) {
			t.Fatalf("take(%q): %d outcomes added, %d items left", data, added, g.left)
		}
	})
}
