package engine

import (
	"errors"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

// propertyHands is how many random hands the property test plays; set
// FELT_ENGINE_HANDS to play more (or fewer).
func propertyHands(t *testing.T) int {
	n := 100_000
	if testing.Short() {
		n = 10_000
	}
	if s := os.Getenv("FELT_ENGINE_HANDS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("FELT_ENGINE_HANDS=%q: %v", s, err)
		}
		n = v
	}
	return n
}

// randomConfig draws a configuration of any variant, structure and table size.
func randomConfig(r *rand.Rand) Config {
	n := 2 + r.IntN(MaxSeats-1)
	cfg := Config{Stacks: make([]int64, n)}
	if r.IntN(4) == 0 {
		cfg.Variant = StudThree
	}
	scale := []int64{5, 30, 300, 5000}[r.IntN(4)]
	for i := range cfg.Stacks {
		if r.IntN(8) > 0 {
			cfg.Stacks[i] = 1 + r.Int64N(scale)
		}
	}
	a := r.IntN(n)
	b := (a + 1 + r.IntN(n-1)) % n
	cfg.Stacks[a] = 3 + r.Int64N(scale) // enough for any ante drawn below
	cfg.Stacks[b] = 3 + r.Int64N(scale)
	cfg.Seed = cards.SeedFromUint64(r.Uint64())
	if cfg.Variant == StudThree {
		if r.IntN(2) == 0 {
			cfg.Ante = 1 + r.Int64N(3)
		}
		if r.IntN(2) == 0 {
			cfg.StudMaxRaise = 1 + r.Int64N(12)
		}
		cfg.Button = r.IntN(n)
		return cfg
	}
	cfg.Structure = Structure(r.IntN(3))
	cfg.BigBlind = 1 + r.Int64N(10)
	cfg.SmallBlind = r.Int64N(cfg.BigBlind + 1)
	if r.IntN(4) == 0 {
		cfg.Ante = 1 + r.Int64N(3)
	}
	if cfg.Structure == FixedLimit {
		cfg.RaiseCap = []int{0, NoRaiseCap, 1, 2, 3, 5}[r.IntN(6)]
		if r.IntN(2) == 0 {
			cfg.SmallBet = 1 + r.Int64N(10)
		}
	}
	if cfg.Structure != FixedLimit && r.IntN(4) == 0 {
		cfg.Straddlers = SeatSet(r.IntN(1 << n))
	}
	if r.IntN(4) == 0 {
		cfg.RunTwice = SeatSet(r.IntN(1 << n))
	}
	for {
		cfg.Button = r.IntN(n)
		if cfg.Stacks[cfg.Button] > 0 {
			break
		}
	}
	return cfg
}

// junkAction is an action chosen with no regard for what is legal.
func junkAction(r *rand.Rand, h *Hand) Action {
	a := Action{Seat: r.IntN(h.s.n+2) - 1, Kind: ActionKind(r.IntN(int(numActionKinds) + 2))}
	l := h.Legal()
	switch r.IntN(3) {
	case 0:
		a.Amount = r.Int64N(600) - 50
	case 1:
		a.Amount = l.MinTo - 1 + r.Int64N(3)
	case 2:
		a.Amount = l.MaxTo - 1 + r.Int64N(3)
	}
	if r.IntN(3) == 0 {
		a.Seat = h.toAct
	}
	return a
}

// applyChecked applies a and, when it is rejected, checks that nothing changed and
// that the error wraps one of the sentinels.
func applyChecked(t testing.TB, h *Hand, a Action) error {
	before := h.Clone()
	err := h.Apply(a)
	if err != nil {
		if !sameHand(before, h) {
			t.Fatalf("rejected %v (%v) changed the hand", a, err)
		}
		ok := false
		for _, s := range []error{ErrHandOver, ErrNotYourTurn, ErrIllegalAction, ErrBadAmount, ErrBadSeat} {
			ok = ok || errors.Is(err, s)
		}
		if !ok {
			t.Fatalf("error %v wraps no sentinel", err)
		}
	}
	return err
}

// checkInvariants checks chip conservation and that no card was dealt twice.
func checkInvariants(t testing.TB, h *Hand) {
	var start, now int64
	for i := 0; i < h.s.n; i++ {
		s := &h.seats[i]
		start += s.start
		now += s.stack
		if !h.over {
			now += s.total
		}
		if s.stack < 0 || s.total < 0 || s.bet < 0 {
			t.Fatalf("seat %d: negative chips %+v", i, *s)
		}
	}
	if start != now {
		t.Fatalf("chips not conserved: %d at start, %d now", start, now)
	}
	checkRaiseAnswerable(t, h)
	var seen cards.Set
	add := func(c cards.Card) {
		if !c.Valid() || seen.Has(c) {
			t.Fatalf("card %v dealt twice or invalid", c)
		}
		seen = seen.Add(c)
	}
	dealt := 0
	for _, e := range h.events {
		switch e.Kind {
		case EvHoleCards, EvUpCard, EvBurn, EvBoard:
			for k := 0; k < int(e.NCards); k++ {
				add(e.Cards[k])
				dealt++
			}
		}
	}
	if dealt != h.next {
		t.Fatalf("events show %d cards dealt, the deck %d", dealt, h.next)
	}
	if h.over {
		var sum int64
		for i := 0; i < h.s.n; i++ {
			sum += h.Net(i)
		}
		if sum != 0 {
			t.Fatalf("nets sum to %d", sum)
		}
	}
}

// checkRaiseAnswerable checks that a Hold'em bet or raise is offered only when some
// other seat still holding cards could put in more than the bet to match.
func checkRaiseAnswerable(t testing.TB, h *Hand) {
	l := h.Legal()
	if h.s.variant == StudThree || !l.Kinds.Has(Bet) && !l.Kinds.Has(Raise) {
		return
	}
	for j := 0; j < h.s.n; j++ {
		s := &h.seats[j]
		if j != l.Seat && s.status == statusLive && s.bet+s.stack > l.CurrentBet {
			return
		}
	}
	t.Fatalf("seat %d may %s though nobody could answer it (legal %+v)", l.Seat, l.Kinds, l)
}

// reusedView is the View every checkViews call fills with ViewInto, across viewers
// and hands, so that anything ViewInto failed to overwrite would be caught.
var reusedView View

// checkViews checks that no view holds a card its viewer may not see, that each
// seat does see its own cards, and that ViewInto into a View reused across viewers
// and hands gives exactly what View gives.
func checkViews(t testing.TB, h *Hand) {
	for viewer := -1; viewer < h.s.n; viewer++ {
		v := h.View(viewer)
		h.ViewInto(viewer, &reusedView)
		if !reflect.DeepEqual(normalView(reusedView), normalView(v)) {
			t.Fatalf("viewer %d: ViewInto gives %+v, View %+v", viewer, reusedView, v)
		}
		var allowed cards.Set
		for _, c := range append(append([]cards.Card(nil), h.Board()...), h.SecondBoard()...) {
			allowed = allowed.Add(c)
		}
		for i := 0; i < h.s.n; i++ {
			s := &h.seats[i]
			for r := 0; r < int(s.ncards); r++ {
				if i == viewer || s.shown || (h.s.variant == StudThree && r > 0) {
					allowed = allowed.Add(s.cards[r])
				}
			}
		}
		check := func(where string, c cards.Card) {
			if c != cards.NoCard && !allowed.Has(c) {
				t.Fatalf("viewer %d sees %v in %s", viewer, c, where)
			}
		}
		for _, c := range v.Board {
			check("board", c)
		}
		for i, sv := range v.Seats {
			for _, c := range sv.Cards {
				check("seat "+strconv.Itoa(i), c)
			}
			if i == viewer {
				for r := 0; r < int(h.seats[i].ncards); r++ {
					if sv.Cards[r] != h.seats[i].cards[r] {
						t.Fatalf("seat %d does not see its own card %d", i, r)
					}
				}
			}
		}
		for _, e := range v.Events {
			for _, c := range e.Cards {
				check("event "+e.String(), c)
			}
		}
		if v.Legal.Seat != NoSeat && v.Legal.Seat != viewer {
			t.Fatalf("viewer %d got the legal actions of seat %d", viewer, v.Legal.Seat)
		}
	}
}

// normalView returns v with its empty slices nil, since a reused View keeps empty
// slices where a new one has nil.
func normalView(v View) View {
	if len(v.Board) == 0 {
		v.Board = nil
	}
	if len(v.Seats) == 0 {
		v.Seats = nil
	}
	if len(v.Pots) == 0 {
		v.Pots = nil
	}
	if len(v.Events) == 0 {
		v.Events = nil
	}
	return v
}

func TestPropertiesRandomHands(t *testing.T) {
	n := propertyHands(t)
	r := rand.New(rand.NewPCG(1, uint64(n)))
	h := &Hand{}
	for k := 0; k < n; k++ {
		cfg := randomConfig(r)
		if err := h.Reset(cfg); err != nil {
			t.Fatalf("hand %d: %v (config %+v)", k, err, cfg)
		}
		deep := k%20 == 0
		steps := 0
		for !h.Over() {
			steps++
			if steps > 2000 {
				t.Fatalf("hand %d does not end (config %+v)", k, cfg)
			}
			if h.ToAct() == NoSeat {
				t.Fatalf("hand %d: nobody to act but not over", k)
			}
			switch x := r.IntN(100); {
			case x < 8 && deep:
				_ = applyChecked(t, h, junkAction(r, h))
			case x < 10:
				_ = applyChecked(t, h, Action{Seat: r.IntN(h.s.n), Kind: Leave})
			case x < 55:
				if err := h.Apply(AnyRandomAction(r, h.Legal())); err != nil {
					t.Fatalf("hand %d: legal action rejected: %v", k, err)
				}
			default:
				if err := h.Apply(RandomAction(r, h.Legal())); err != nil {
					t.Fatalf("hand %d: legal action rejected: %v", k, err)
				}
			}
			checkInvariants(t, h)
			if deep && r.IntN(4) == 0 {
				checkViews(t, h)
			}
		}
		checkInvariants(t, h)
		if l := h.Legal(); l.Seat != NoSeat || l.Kinds != 0 {
			t.Fatalf("hand over but legal %+v", l)
		}
		if deep {
			checkViews(t, h)
			_ = applyChecked(t, h, RandomAction(r, h.Legal()))
			g, err := Replay(cfg, h.Actions())
			if err != nil {
				t.Fatalf("hand %d: replay: %v", k, err)
			}
			if !reflect.DeepEqual(g.events, h.events) || !g.Over() {
				t.Fatalf("hand %d: replay differs", k)
			}
		}
	}
}

// TestSimulateRandomConservesChips runs the exported simulator across table sizes.
func TestSimulateRandom(t *testing.T) {
	for n := 2; n <= MaxSeats; n++ {
		cfg := Config{Stacks: make([]int64, n), SmallBlind: 1, BigBlind: 2}
		for i := range cfg.Stacks {
			cfg.Stacks[i] = 100
		}
		acts, err := SimulateRandom(cfg, 2000, uint64(n))
		if err != nil || acts < 2000 {
			t.Fatalf("%d seats: %d actions, %v", n, acts, err)
		}
	}
}

func TestPlayOutDoesNotAllocate(t *testing.T) {
	cfg := sixMaxNL()
	h, _ := New(cfg)
	r := rand.New(rand.NewPCG(3, 4))
	i := uint64(0)
	allocs := testing.AllocsPerRun(2000, func() {
		i++
		cfg.Seed = cards.SeedFromUint64(i)
		cfg.Button = int(i % 6)
		_ = h.Reset(cfg)
		_ = PlayOut(h, r)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per hand, want 0", allocs)
	}
}

func FuzzApply(f *testing.F) {
	f.Add([]byte{0, 0, 6, 1, 100, 100, 100, 100, 100, 100, 3, 2, 1, 4, 1, 200})
	f.Add([]byte{1, 0, 3, 0, 20, 2, 30, 9, 1, 3, 5, 2, 4, 1})
	f.Add([]byte{0, 2, 2, 0, 50, 50, 7, 0, 4, 10, 1, 4, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		n := 2 + int(data[2])%(MaxSeats-1)
		if len(data) < 5+n {
			return
		}
		cfg := Config{Variant: Variant(data[0] % 2), Structure: Structure(data[1] % 3), Stacks: make([]int64, n),
			Button: int(data[3]) % n, SmallBlind: 1, BigBlind: 2, Seed: cards.SeedFromUint64(uint64(data[4]))}
		for i := range cfg.Stacks {
			cfg.Stacks[i] = int64(data[5+i])
		}
		h, err := New(cfg)
		if err != nil {
			return
		}
		data = data[5+n:]
		for len(data) >= 3 {
			l := h.Legal()
			a := Action{Seat: int(data[0])%(n+2) - 1, Kind: ActionKind(data[1] % 8)}
			if data[2] < 128 && l.MaxTo >= l.MinTo && (a.Kind == Bet || a.Kind == Raise) {
				a.Amount = l.MinTo + int64(data[2])%(l.MaxTo-l.MinTo+1)
			} else if data[2] >= 128 {
				a.Amount = int64(data[2]) - 160
			}
			_ = applyChecked(t, h, a)
			checkInvariants(t, h)
			data = data[3:]
		}
		r := rand.New(rand.NewPCG(1, 2))
		for steps := 0; !h.Over(); steps++ {
			if steps > 1000 {
				t.Fatal("hand does not end")
			}
			if err := h.Apply(RandomAction(r, h.Legal())); err != nil {
				t.Fatal(err)
			}
		}
		checkInvariants(t, h)
		checkViews(t, h)
	})
}

// TestViewIntoAllocatesNothing: once its slices have grown, a reused View is
// filled without allocating.
func TestViewIntoAllocatesNothing(t *testing.T) {
	h, err := New(sixMaxNL())
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 3 && !h.Over(); k++ {
		if err := h.Apply(AnyRandomAction(r, h.Legal())); err != nil {
			t.Fatal(err)
		}
	}
	var v View
	h.ViewInto(h.ToAct(), &v)
	if n := testing.AllocsPerRun(100, func() { h.ViewInto(h.ToAct(), &v) }); n != 0 {
		t.Errorf("ViewInto allocates %v times a call", n)
	}
}
