package history

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// configs are the games the round-trip tests play.
var configs = map[string]engine.Config{
	"nl":   {Structure: engine.NoLimit, SmallBlind: 5, BigBlind: 10},
	"pl":   {Structure: engine.PotLimit, SmallBlind: 5, BigBlind: 10, Ante: 1},
	"fl":   {Structure: engine.FixedLimit, SmallBet: 10},
	"stud": {Variant: engine.StudThree},
}

// randomHand plays one hand of base with n seats, random stacks (some empty) and
// random legal actions.
func randomHand(t testing.TB, base engine.Config, n int, r *rand.Rand) (engine.Config, *engine.Hand) {
	t.Helper()
	for {
		cfg := base
		cfg.Stacks = make([]int64, n)
		for i := range cfg.Stacks {
			if r.IntN(5) > 0 {
				cfg.Stacks[i] = 1 + r.Int64N(400)
			}
		}
		cfg.Button = r.IntN(n)
		cfg.Seed = cards.SeedFromUint64(r.Uint64())
		h, err := engine.New(cfg)
		if err != nil {
			continue // too few players, or an empty button seat
		}
		for !h.Over() {
			a := engine.AnyRandomAction(r, h.Legal())
			if r.IntN(40) == 0 { // now and then someone leaves
				a = engine.Action{Seat: r.IntN(n), Kind: engine.Leave}
				if h.Apply(a) == nil {
					continue
				}
				a = engine.AnyRandomAction(r, h.Legal())
			}
			if err := h.Apply(a); err != nil {
				t.Fatalf("engine rejected its own legal action %v: %v", a, err)
			}
		}
		return cfg, h
	}
}

// TestRoundTrip writes random engine hands as PHH, reads them back and replays
// them: the replay must be the same hand, event for event, with and without the seed.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for name, base := range configs {
		t.Run(name, func(t *testing.T) {
			for i := 0; i < 300; i++ {
				n := 2 + r.IntN(engine.MaxSeats-1)
				cfg, h := randomHand(t, base, n, r)
				p, err := FromHand(cfg, h, Info{Hand: int64(i + 1), Table: "t"})
				if err != nil {
					t.Fatal(err)
				}
				text, err := p.Marshal()
				if err != nil {
					t.Fatal(err)
				}
				q, err := Parse(text)
				if err != nil {
					t.Fatalf("%v\n%s", err, text)
				}
				if !reflect.DeepEqual(p, q) {
					t.Fatalf("parse(marshal(p)) != p:\n%+v\n%+v", p, q)
				}
				checkReplay(t, q, h, text)
				q.Seed = "" // now the deck comes from the cards written and _burns
				checkReplay(t, q, h, text)
			}
		})
	}
}

func checkReplay(t *testing.T, p *PHH, want *engine.Hand, text []byte) {
	t.Helper()
	_, got, err := p.Replay()
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, text)
	}
	if !reflect.DeepEqual(got.Events(), want.Events()) {
		t.Fatalf("replayed events differ\n%s", text)
	}
	if !reflect.DeepEqual(got.Actions(), want.Actions()) {
		t.Fatalf("replayed actions differ: %v, want %v", got.Actions(), want.Actions())
	}
}

func TestSettleMatchesEngine(t *testing.T) {
	for name, base := range configs {
		if base.Variant != engine.Holdem {
			continue
		}
		cfg := base
		cfg.Stacks = []int64{1000, 1000, 1000}
		h, err := engine.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		lim := settle(&cfg)
		for _, e := range h.Events() {
			if (e.Kind == engine.EvSmallBlind && e.Amount != lim.sb) || (e.Kind == engine.EvBigBlind && e.Amount != lim.bb) {
				t.Errorf("%s: engine posts %v; settle says blinds %d/%d", name, e, lim.sb, lim.bb)
			}
		}
		if l := h.Legal(); base.Structure == engine.FixedLimit && l.MinTo != lim.bb+lim.smallBet {
			t.Errorf("%s: engine's first raise is to %d; settle says %d+%d", name, l.MinTo, lim.bb, lim.smallBet)
		}
	}
}

func TestTestdata(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.phh*")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		hands, err := ParseAll(data)
		wantErr := strings.Contains(f, "bad")
		if err == nil {
			for i, p := range hands {
				if _, h, rerr := p.Replay(); rerr != nil {
					err = rerr
					break
				} else if !wantErr && !h.Over() {
					t.Errorf("%s hand %d: not over", f, i+1)
				}
			}
		}
		if wantErr != (err != nil) {
			t.Errorf("%s: error %v", f, err)
		}
	}
}

func TestReplayErrors(t *testing.T) {
	base := `variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
`
	for _, c := range []struct {
		extra   string
		actions string
		want    error
	}{
		{"", `"d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 QcQd", "p3 f", "p1 cc", "p2 cc", "d db 2c3c4c"`, nil},
		{"", `"p2 f"`, ErrMismatch},                       // p3 is to act
		{"", `"p3 cbr 3"`, ErrMismatch},                   // below the minimum raise
		{"", `"d dh p1 AcAd", "d dh p2 AcKd"`, ErrFormat}, // Ac twice
		{"", `"p3 sd"`, ErrUnsupported},                   // no draws
		{"", `"p4 f"`, ErrFormat},                         // no such player
		{"", `"p3 cbr 2.5"`, ErrFormat},                   // whole chips
		{"finishing_stacks = [99, 101, 100]\n", `"p3 f", "p1 f"`, nil},
		{"finishing_stacks = [99, 100, 100]\n", `"p3 f", "p1 f"`, ErrMismatch},
		{`_seed = "1"` + "\n", `"d dh p1 AcAd"`, ErrMismatch}, // not the seed's cards
		{`variant = "PO"` + "\n", `"p3 f"`, ErrFormat},        // variant twice: bad TOML
		{`seats = [3, 1, 2]` + "\n", `"p3 f"`, nil},           // clockwise from the button in seat 2
		{`seats = [2, 1, 3]` + "\n", `"p3 f"`, ErrFormat},     // not clockwise
		{`seats = [1, 2, 3]` + "\n" + `_betting = "x"` + "\n", "", ErrUnsupported},
	} {
		text := base + c.extra + "actions = [" + c.actions + "]\n"
		p, err := Parse([]byte(text))
		if err == nil {
			_, _, err = p.Replay()
		}
		if (c.want == nil) != (err == nil) || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("%s\ngot error %v, want %v", text, err, c.want)
		}
	}
}

func TestParseAllOrder(t *testing.T) {
	one := func(stack int) string {
		return `variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [` + strings.Repeat("9", stack) + `, 50]
actions = []
`
	}
	text := "[10]\n" + one(3) + "\n[2]\n" + one(2) + "\n[1]\n" + one(1)
	hands, err := ParseAll([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, p := range hands {
		got = append(got, p.StartingStacks[0])
	}
	if !reflect.DeepEqual(got, []int64{9, 99, 999}) {
		t.Errorf("hands read in order %v; want [1] [2] [10]", got)
	}
	if _, err := ParseAll([]byte("[x]\n" + one(1))); !errors.Is(err, ErrFormat) {
		t.Errorf("table [x]: %v", err)
	}
	out, err := MarshalAll(hands)
	if err != nil {
		t.Fatal(err)
	}
	again, err := ParseAll(out)
	if err != nil || !reflect.DeepEqual(again, hands) {
		t.Errorf("MarshalAll does not read back: %v\n%s", err, out)
	}
}

// TestWriteMatchesHandWritten replays the hand-written Dwan-Ivey-style file and
// writes it again: the actions come out as written (comments aside), the hands shown
// before the river that ran out after the all-in.
func TestWriteMatchesHandWritten(t *testing.T) {
	data, err := os.ReadFile("testdata/dwan-ivey-style.phh")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	cfg, h, err := p.Replay()
	if err != nil {
		t.Fatal(err)
	}
	q, err := FromHand(cfg, h, Info{Players: p.Players})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, a := range p.Actions {
		want = append(want, strings.TrimSpace(strings.SplitN(a, "#", 2)[0]))
	}
	if !reflect.DeepEqual(q.Actions, want) {
		t.Errorf("actions\n%q\nwant\n%q", q.Actions, want)
	}
	if !reflect.DeepEqual(q.FinishingStacks, p.FinishingStacks) || !reflect.DeepEqual(q.Winnings, p.Winnings) ||
		!reflect.DeepEqual(q.Players, p.Players) || !reflect.DeepEqual(q.BlindsOrStraddles, p.BlindsOrStraddles) {
		t.Errorf("wrote %+v", q)
	}
}
