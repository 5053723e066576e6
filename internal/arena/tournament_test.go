package arena

import (
	"bytes"
	"context"
	"encoding/csv"
	"slices"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/engine"
)

// TestTournament: a freezeout conserves chips (PlayTournament checks every hand),
// ends with one player holding everything or at the hand limit, ranks every player
// once, and is the same for the same seed; a ring game resets the stacks.
func TestTournament(t *testing.T) {
	g, _ := ParseGame("limit")
	bots := []string{"call", "raise", "chart:samples=40", "bayes", "call"}
	var hands int
	tc := TournamentConfig{Bots: bots, Game: g, Hands: 3000, Stack: 20, Level: 30, Seed: 4,
		Hand: func(cfg engine.Config, h *engine.Hand, players []string) error { hands++; return nil }}
	a, err := PlayTournament(context.Background(), tc)
	if err != nil {
		t.Fatal(err)
	}
	if hands != a.Hands || len(a.Stacks) != a.Hands+1 || a.Hands == 3000 {
		t.Errorf("%d hands, %d rows, %d hands seen", a.Hands, len(a.Stacks), hands)
	}
	last := a.Stacks[len(a.Stacks)-1]
	if alive(last) != 1 || slices.Max(last) != 5*20*100 {
		t.Errorf("final stacks %v", last)
	}
	if want := []string{"call", "raise", "chart:samples=40", "bayes", "call#2"}; !slices.Equal(a.Players, want) {
		t.Errorf("players %v", a.Players)
	}
	sorted := slices.Sorted(slices.Values(a.Finish))
	if !slices.Equal(sorted, slices.Sorted(slices.Values(a.Players))) {
		t.Errorf("finish %v", a.Finish)
	}
	if i := slices.Index(a.Players, a.Finish[0]); last[i] == 0 {
		t.Errorf("winner %s has no chips", a.Finish[0])
	}
	tc.Hand = nil
	b, _ := PlayTournament(context.Background(), tc)
	if !slices.Equal(a.Finish, b.Finish) || a.Hands != b.Hands {
		t.Errorf("same seed, different tournaments: %v, %v", a.Finish, b.Finish)
	}

	tc.Ring, tc.Hands = true, 200
	r, err := PlayTournament(context.Background(), tc)
	if err != nil {
		t.Fatal(err)
	}
	if r.Hands != 200 || r.Dealt[0] != 200 {
		t.Errorf("ring: %d hands, dealt %v", r.Hands, r.Dealt)
	}
	var sum float64
	for _, s := range r.Rates {
		sum += s.BBPer100
	}
	if sum > 1e-6 || sum < -1e-6 {
		t.Errorf("ring: rates sum to %v", sum)
	}

	var buf bytes.Buffer
	if err := WriteStacksCSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 202 || len(rows[0]) != 6 || rows[1][1] != "2000" {
		t.Errorf("stacks CSV: %d rows, %v", len(rows), err)
	}
	buf.Reset()
	if err := WriteResultsCSV(&buf, r); err != nil || strings.Count(buf.String(), "\n") != 6 {
		t.Errorf("results CSV: %q, %v", buf.String(), err)
	}
	buf.Reset()
	if err := WriteXLSX(&buf, r); err != nil || !bytes.HasPrefix(buf.Bytes(), []byte("PK")) {
		t.Errorf("XLSX: %d bytes, %v", buf.Len(), err)
	}
	if _, err := PlayTournament(context.Background(), TournamentConfig{Bots: []string{"call"}, Game: g, Hands: 5}); err == nil {
		t.Error("one bot: no error")
	}
}
