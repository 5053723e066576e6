package engine

import (
	"errors"
	"slices"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
)

func TestBlindsAndFirstToAct(t *testing.T) {
	for _, tc := range []struct {
		name             string
		stacks           []int64
		button           int
		sb, bb, first    int
		postflopFirst    int
		preflopToFinish  string
		wantBlindsPosted []string
	}{
		{"heads-up: button posts the small blind and acts first", []int64{100, 100}, 0, 0, 1, 0, 1, "0:c 1:k", []string{"small blind 0 1", "big blind 1 2"}},
		{"heads-up, button 1", []int64{100, 100}, 1, 1, 0, 1, 0, "1:c 0:k", []string{"small blind 1 1", "big blind 0 2"}},
		{"three-handed: button acts first pre-flop", []int64{100, 100, 100}, 0, 1, 2, 0, 1, "0:c 1:c 2:k", []string{"small blind 1 1", "big blind 2 2"}},
		{"six-handed, button 4", []int64{100, 100, 100, 100, 100, 100}, 4, 5, 0, 1, 5, "1:c 2:c 3:c 4:c 5:c 0:k", []string{"small blind 5 1", "big blind 0 2"}},
		{"empty seats are skipped", []int64{100, 0, 100, 0, 100}, 0, 2, 4, 0, 2, "0:c 2:c 4:k", []string{"small blind 2 1", "big blind 4 2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := nl(tc.stacks...)
			cfg.Button = tc.button
			h := mustNew(t, cfg)
			if got := eventsOf(h, EvSmallBlind, EvBigBlind); !slices.Equal(got, tc.wantBlindsPosted) {
				t.Fatalf("blinds %v, want %v", got, tc.wantBlindsPosted)
			}
			if h.sbSeat != tc.sb || h.bbSeat != tc.bb || h.ToAct() != tc.first {
				t.Fatalf("sb %d bb %d first %d; want %d %d %d", h.sbSeat, h.bbSeat, h.ToAct(), tc.sb, tc.bb, tc.first)
			}
			play(t, h, tc.preflopToFinish)
			if h.Street() != Flop || h.ToAct() != tc.postflopFirst {
				t.Fatalf("after pre-flop: street %v, to act %d; want flop, %d", h.Street(), h.ToAct(), tc.postflopFirst)
			}
		})
	}
}

func TestBigBlindOption(t *testing.T) {
	h := mustNew(t, nl(100, 100, 100, 100))
	play(t, h, "3:c 0:c 1:c")
	legalIs(t, h, 2, "fold,check,raise", 4, 100)
	play(t, h, "2:k")
	if h.Street() != Flop || h.ToAct() != 1 {
		t.Fatalf("big blind's check should end pre-flop; street %v to act %d", h.Street(), h.ToAct())
	}
	// The big blind may raise instead, and the limpers then act again.
	h = mustNew(t, nl(100, 100, 100, 100))
	play(t, h, "3:c 0:c 1:c 2:r8")
	legalIs(t, h, 3, "fold,call,raise", 14, 100)
}

func TestShortBlindsAndAntesPostAllIn(t *testing.T) {
	cfg := nl(100, 100, 1)
	h := mustNew(t, cfg)
	if got := eventsOf(h, EvBigBlind); !slices.Equal(got, []string{"big blind 2 1"}) || !h.seats[2].allIn {
		t.Fatalf("short big blind: %v all-in %v", got, h.seats[2].allIn)
	}
	// Others still call the full big blind.
	legalIs(t, h, 0, "fold,call,raise", 4, 100)
	if l := h.Legal(); l.CallAmount != 2 {
		t.Fatalf("call %d, want the full big blind 2", l.CallAmount)
	}
	play(t, h, "0:c 1:c")
	if got := eventsOf(h, EvPot); !slices.Equal(got, []string{"pot -1 3", "pot -1 2"}) {
		t.Fatalf("pots %v, want main 3 and side 2", got)
	}
	if h.pots[0].eligible != 0b111 || h.pots[1].eligible != 0b011 {
		t.Fatalf("eligible %b %b", h.pots[0].eligible, h.pots[1].eligible)
	}

	cfg = nl(100, 100, 4)
	cfg.Ante = 5
	h = mustNew(t, cfg)
	if got := eventsOf(h, EvAnte, EvBigBlind); !slices.Equal(got, []string{"ante 1 5", "ante 2 4", "ante 0 5", "big blind 2 0"}) {
		t.Fatalf("antes %v", got)
	}
	if !h.seats[2].allIn {
		t.Fatal("seat 2 should be all-in on the ante")
	}
}

func TestNoLimitMinimumRaise(t *testing.T) {
	h := mustNew(t, nl(200, 200, 200, 200, 200, 200))
	legalIs(t, h, 3, "fold,call,raise", 4, 200)
	play(t, h, "3:r6") // a raise of 4
	legalIs(t, h, 4, "fold,call,raise", 10, 200)
	reject(t, h, "4:r9", ErrBadAmount)
	play(t, h, "4:r10")
	legalIs(t, h, 5, "fold,call,raise", 14, 200)
	play(t, h, "5:r30") // a raise of 20
	legalIs(t, h, 0, "fold,call,raise", 50, 200)
	play(t, h, "0:f 1:f 2:f 3:c 4:c")
	// Post-flop the minimum bet is the big blind.
	legalIs(t, h, 3, "fold,check,bet", 2, 170)
	play(t, h, "3:b2")
	legalIs(t, h, 4, "fold,call,raise", 4, 170)
}

func TestShortAllInDoesNotReopen(t *testing.T) {
	h := mustNew(t, nl(200, 200, 200, 30))
	play(t, h, "3:c 0:c 1:c 2:k")
	play(t, h, "1:b20 2:c 3:r28") // 28 is all-in, a raise of 8 < 20
	// Seat 0 has not acted: it may raise, by a full raise over the all-in.
	legalIs(t, h, 0, "fold,call,raise", 48, 198)
	play(t, h, "0:c")
	// Seats 1 and 2 face only the short all-in: call or fold.
	legalIs(t, h, 1, "fold,call", 0, 0)
	reject(t, h, "1:r60", ErrIllegalAction)
	play(t, h, "1:c")
	legalIs(t, h, 2, "fold,call", 0, 0)
}

func TestShortAllInsThatAddUpToAFullRaiseReopen(t *testing.T) {
	h := mustNew(t, nl(200, 200, 200, 30, 45))
	play(t, h, "3:c 4:c 0:c 1:c 2:k")
	play(t, h, "1:b20 2:c 3:r28 4:r43") // two short all-ins: 43-20 = 23 >= 20
	play(t, h, "0:c")
	legalIs(t, h, 1, "fold,call,raise", 63, 198)
	h = mustNew(t, nl(200, 200, 200, 30, 40))
	play(t, h, "3:c 4:c 0:c 1:c 2:k")
	play(t, h, "1:b20 2:c 3:r28 4:r38 0:c") // 38-20 = 18 < 20
	legalIs(t, h, 1, "fold,call", 0, 0)
}

func TestPotLimitMaximum(t *testing.T) {
	cfg := nl(1000, 1000, 1000, 1000)
	cfg.Structure = PotLimit
	h := mustNew(t, cfg)
	legalIs(t, h, 3, "fold,call,raise", 4, 7) // pot 3 + call 2 = 5, raise to 2+5
	reject(t, h, "3:r8", ErrBadAmount)
	play(t, h, "3:r7")
	legalIs(t, h, 0, "fold,call,raise", 12, 24) // pot 10 + call 7 = 17, to 7+17
	play(t, h, "0:c 1:c 2:c")
	legalIs(t, h, 1, "fold,check,bet", 2, 28) // a pot-sized bet
	play(t, h, "1:b10")
	legalIs(t, h, 2, "fold,call,raise", 20, 58) // pot 38 + call 10 = 48, to 10+48
}

func limitCfg(stacks ...int64) Config {
	return Config{Variant: Holdem, Structure: FixedLimit, Stacks: stacks, SmallBlind: 1, BigBlind: 2}
}

func TestFixedLimitCap(t *testing.T) {
	h := mustNew(t, limitCfg(1000, 1000, 1000, 1000))
	legalIs(t, h, 3, "fold,call,raise", 4, 4)
	play(t, h, "3:r4 0:r6 1:r8") // the big blind and three raises
	legalIs(t, h, 2, "fold,call", 0, 0)
	reject(t, h, "2:r10", ErrIllegalAction)
	play(t, h, "2:c 3:c 0:c")
	if h.Street() != Flop {
		t.Fatalf("street %v, want flop", h.Street())
	}
	// The count starts again each round: one bet and three raises.
	legalIs(t, h, 1, "fold,check,bet", 2, 2)
	play(t, h, "1:b2 2:r4 3:r6 0:r8")
	legalIs(t, h, 1, "fold,call", 0, 0)
	play(t, h, "1:c 2:c 3:c")
	// The turn uses the big bet.
	legalIs(t, h, 1, "fold,check,bet", 4, 4)
}

func TestFixedLimitCapHeadsUpAndUncapped(t *testing.T) {
	h := mustNew(t, limitCfg(1000, 1000))
	play(t, h, "0:r4 1:r6 0:r8")
	legalIs(t, h, 1, "fold,call", 0, 0)

	cfg := limitCfg(1000, 1000)
	cfg.RaiseCap = NoRaiseCap
	h = mustNew(t, cfg)
	play(t, h, "0:r4 1:r6 0:r8 1:r10 0:r12")
	legalIs(t, h, 1, "fold,call,raise", 14, 14)
}

func TestCheckThenBetIsABet(t *testing.T) {
	h := mustNew(t, limitCfg(1000, 1000, 1000))
	play(t, h, "0:c 1:c 2:k 1:k")
	legalIs(t, h, 2, "fold,check,bet", 2, 2)
	reject(t, h, "2:r2", ErrIllegalAction)
	play(t, h, "2:b2")
	if e := h.events[len(h.events)-1]; e.Kind != EvBet || e.Amount != 2 {
		t.Fatalf("last event %v, want a bet of 2", e)
	}
	// After the bet, three raises are allowed.
	play(t, h, "0:r4 1:r6 2:r8")
	legalIs(t, h, 0, "fold,call", 0, 0)
}

func TestFixedLimitShortAllIn(t *testing.T) {
	cfg := Config{Variant: Holdem, Structure: FixedLimit, Stacks: []int64{1000, 1000, 24, 1000}, SmallBlind: 5, BigBlind: 10}
	h := mustNew(t, cfg)
	play(t, h, "3:c 0:c 1:c 2:k")
	play(t, h, "1:b10")
	legalIs(t, h, 2, "fold,call,raise", 14, 14) // all-in for 14, less than half a bet over 10
	play(t, h, "2:r14")
	legalIs(t, h, 3, "fold,call,raise", 20, 20) // completes to a full bet
	play(t, h, "3:c 0:c")
	// The bettor's bet was called; the short all-in reopens nothing.
	legalIs(t, h, 1, "fold,call", 0, 0)

	cfg.Stacks[2] = 26 // all-in for 16: at least half a bet, so it counts as a raise
	h = mustNew(t, cfg)
	play(t, h, "3:c 0:c 1:c 2:k 1:b10 2:r16")
	legalIs(t, h, 3, "fold,call,raise", 26, 26)
	play(t, h, "3:c 0:c")
	legalIs(t, h, 1, "fold,call,raise", 26, 26)
}

func TestCalledBetEndsTheRound(t *testing.T) {
	h := mustNew(t, limitCfg(1000, 1000, 1000))
	play(t, h, "0:c 1:c 2:k 1:b2 2:c 0:c")
	if h.Street() != Turn || h.ToAct() != 1 {
		t.Fatalf("street %v to act %d; the called bettor must not act again", h.Street(), h.ToAct())
	}
}

func TestLeave(t *testing.T) {
	h := mustNew(t, nl(100, 100, 100, 100))
	if err := h.Leave(3); err != nil { // seat 3 is to act
		t.Fatal(err)
	}
	if h.ToAct() != 0 || h.seats[3].status != statusFolded {
		t.Fatalf("after the player to act left: to act %d, status %v", h.ToAct(), h.seats[3].status)
	}
	if err := h.Leave(1); err != nil { // not to act
		t.Fatal(err)
	}
	if h.ToAct() != 0 {
		t.Fatalf("to act %d, want 0", h.ToAct())
	}
	reject(t, h, "1:L", ErrBadSeat)
	reject(t, h, "9:L", ErrBadSeat)
	play(t, h, "0:f")
	if !h.Over() || h.Net(2) != 1 || h.Net(1) != -1 {
		t.Fatalf("over %v, nets %d %d", h.Over(), h.Net(2), h.Net(1))
	}
	if want := []Action{{Seat: 3, Kind: Leave}, {Seat: 1, Kind: Leave}, {Seat: 0, Kind: Fold}}; !slices.Equal(h.Actions(), want) {
		t.Fatalf("actions %v", h.Actions())
	}

	// A big blind whose only opponent leaves needs no option.
	h = mustNew(t, nl(100, 100, 100))
	play(t, h, "0:f 1:c")
	legalIs(t, h, 2, "fold,check,raise", 4, 100)
	if err := h.Leave(1); err != nil {
		t.Fatal(err)
	}
	if !h.Over() || h.Net(2) != 2 {
		t.Fatalf("over %v net %d", h.Over(), h.Net(2))
	}

	// A seat that leaves while all-in keeps its hand.
	h = mustNew(t, nl(100, 100, 100))
	play(t, h, "0:r100")
	if err := h.Leave(0); err != nil {
		t.Fatal(err)
	}
	if h.seats[0].status != statusLive || h.ToAct() != 1 {
		t.Fatalf("all-in leaver: status %v to act %d", h.seats[0].status, h.ToAct())
	}
}

func TestSidePotsThreeAllIns(t *testing.T) {
	stacks := []int64{50, 100, 200, 400}
	cfg := nl(stacks...)
	cfg.Button = 3
	cfg.Deck = holdemDeck(t, stacks, 3, []string{"AhAd", "KhKd", "QhQd", "JhJd"}, "2c7d9h3sTc")
	h := mustNew(t, cfg)
	play(t, h, "2:r200 3:c 0:c 1:c")
	if !h.Over() || h.nBoard != 5 {
		t.Fatalf("over %v board %d: the board must be run out", h.Over(), h.nBoard)
	}
	r := h.Result()
	want := []PotResult{
		{Amount: 200, Eligible: 0b1111, Awards: []Award{{Seat: 0, Amount: 200}}},
		{Amount: 150, Eligible: 0b1110, Awards: []Award{{Seat: 1, Amount: 150}}},
		{Amount: 200, Eligible: 0b1100, Awards: []Award{{Seat: 2, Amount: 200}}},
	}
	for k := range want {
		if r.Pots[k].Amount != want[k].Amount || r.Pots[k].Eligible != want[k].Eligible || !slices.Equal(r.Pots[k].Awards, want[k].Awards) {
			t.Fatalf("pot %d = %+v, want %+v", k, r.Pots[k], want[k])
		}
	}
	if got := eventsOf(h, EvAward); !slices.Equal(got, []string{"award 2 200", "award 1 150", "award 0 200"}) {
		t.Fatalf("awards %v: want the last-created pot first", got)
	}
	if !slices.Equal(r.Net, []int64{150, 50, 0, -200}) {
		t.Fatalf("net %v", r.Net)
	}
	if len(r.Shown) != 4 {
		t.Fatalf("all-in hands must all be shown, got %d", len(r.Shown))
	}
	if got := eventsOf(h, EvUncalled); len(got) != 0 {
		t.Fatalf("unexpected uncalled bet %v", got)
	}
}

func TestSidePotsWithUncalledRemainder(t *testing.T) {
	stacks := []int64{30, 60, 90, 500}
	cfg := nl(stacks...)
	cfg.Button = 3
	cfg.Deck = holdemDeck(t, stacks, 3, []string{"2h3d", "AhAd", "KhKd", "QhQd"}, "2c7d9h3sTc")
	h := mustNew(t, cfg)
	// Seat 3 raises while seat 2 still has chips behind; nobody could answer it after
	// seat 2's all-in (TestNoRaiseWhenNobodyCanRespond).
	play(t, h, "2:c 3:r500 0:c 1:c 2:c")
	if got := eventsOf(h, EvUncalled); !slices.Equal(got, []string{"uncalled bet returned 3 410"}) {
		t.Fatalf("uncalled %v", got)
	}
	r := h.Result()
	// Seat 0 (two pair 2s and 3s) wins the main pot 120; AA wins side 90; KK side 60.
	if !slices.Equal(r.Net, []int64{90, 30, -30, -90}) {
		t.Fatalf("net %v", r.Net)
	}
}

func TestOddChips(t *testing.T) {
	// Pot of 5 split by seats 2 and 0: the odd chip goes to seat 2, first left of the button.
	stacks := []int64{100, 100, 100}
	cfg := nl(stacks...)
	cfg.Deck = holdemDeck(t, stacks, 0, []string{"2h3h", "4d5d", "2d3c"}, "AsKsQsJsTs")
	h := mustNew(t, cfg)
	play(t, h, "0:c 1:f 2:k 2:k 0:k 2:k 0:k 2:k 0:k")
	if got := eventsOf(h, EvAward); !slices.Equal(got, []string{"award 2 3", "award 0 2"}) {
		t.Fatalf("awards %v", got)
	}
	// Three-way split of 8 (4 + 2 + 2... here 3 limpers and a folded small blind).
	stacks = []int64{100, 100, 100, 100}
	cfg = nl(stacks...)
	cfg.Button = 1
	cfg.Deck = holdemDeck(t, stacks, 1, []string{"2h3h", "4d5d", "2d3c", "2c3d"}, "AsKsQsJsTs")
	h = mustNew(t, cfg)
	// button 1: SB 2, BB 3, first 0. Seats 0, 1, 3 put in 2, seat 2 folds its 1: pot 7.
	play(t, h, "0:c 1:c 2:f 3:k 3:k 0:k 1:k 3:k 0:k 1:k 3:k 0:k 1:k")
	if got := eventsOf(h, EvAward); !slices.Equal(got, []string{"award 3 3", "award 0 2", "award 1 2"}) {
		t.Fatalf("awards %v: odd chip to seat 3, first winner left of the button", got)
	}
}

func TestUncalledBetReturned(t *testing.T) {
	h := mustNew(t, nl(100, 100, 100))
	play(t, h, "0:r10 1:f 2:f")
	if got := eventsOf(h, EvUncalled); !slices.Equal(got, []string{"uncalled bet returned 0 8"}) {
		t.Fatalf("uncalled %v", got)
	}
	if !h.Over() || h.Net(0) != 3 || h.Net(1) != -1 || h.Net(2) != -2 {
		t.Fatalf("nets %d %d %d", h.Net(0), h.Net(1), h.Net(2))
	}
	if len(h.Result().Shown) != 0 {
		t.Fatal("an uncontested winner shows nothing")
	}
}

func TestShowdownOrderAndMuck(t *testing.T) {
	stacks := []int64{100, 100, 100}
	cfg := nl(stacks...)
	// Seat 2 (the river bettor) has a pair of kings, seat 0 a pair of queens (mucks),
	// seat 1 a pair of aces (shows).
	cfg.Deck = holdemDeck(t, stacks, 0, []string{"Qh4c", "Ah5c", "Kh6c"}, "AsKsQd8d2c")
	h := mustNew(t, cfg)
	play(t, h, "0:c 1:c 2:k 1:k 2:k 0:k 1:k 2:k 0:k 1:k 2:b10 0:c 1:c")
	var order []string
	for _, e := range h.events {
		if e.Kind == EvShow || e.Kind == EvMuck {
			order = append(order, e.Kind.String()+" "+string(rune('0'+e.Seat)))
		}
	}
	if !slices.Equal(order, []string{"show 2", "muck 0", "show 1"}) {
		t.Fatalf("showdown %v", order)
	}
	if h.Net(1) != 24 {
		t.Fatalf("seat 1 net %d", h.Net(1))
	}
	// Without a river bet, the first seat left of the button shows first.
	h = mustNew(t, cfg)
	play(t, h, "0:c 1:c 2:k 1:k 2:k 0:k 1:k 2:k 0:k 1:k 2:k 0:k")
	order = order[:0]
	for _, e := range h.events {
		if e.Kind == EvShow || e.Kind == EvMuck {
			order = append(order, e.Kind.String()+" "+string(rune('0'+e.Seat)))
		}
	}
	if !slices.Equal(order, []string{"show 1", "muck 2", "muck 0"}) {
		t.Fatalf("showdown %v", order)
	}
}

func TestRunOutAndBurns(t *testing.T) {
	h := mustNew(t, nl(100, 100))
	play(t, h, "0:r100 1:c")
	if !h.Over() || h.nBoard != 5 {
		t.Fatal("board not run out")
	}
	var burns, seen cards.Set
	nb := 0
	for _, e := range h.events {
		if e.Kind == EvBurn {
			burns = burns.Add(e.Cards[0])
			nb++
		}
	}
	for _, c := range h.Board() {
		seen = seen.Add(c)
	}
	for i := 0; i < 2; i++ {
		for _, c := range h.Cards(i) {
			seen = seen.Add(c)
		}
	}
	if nb != 3 || burns.Len() != 3 || burns&seen != 0 || seen.Len() != 9 {
		t.Fatalf("burns %v (%d), dealt %v", burns, nb, seen)
	}
	if len(h.Result().Shown) != 2 {
		t.Fatal("all-in hands must be shown")
	}
}

func TestRejectedActionsChangeNothing(t *testing.T) {
	h := mustNew(t, nl(100, 100, 100))
	reject(t, h, "1:c", ErrNotYourTurn)
	reject(t, h, "0:k", ErrIllegalAction)
	reject(t, h, "0:b4", ErrIllegalAction)
	reject(t, h, "0:r3", ErrBadAmount)
	reject(t, h, "0:r101", ErrBadAmount)
	reject(t, h, "0:c5", ErrBadAmount)
	reject(t, h, "0:f1", ErrBadAmount)
	reject(t, h, "7:c", ErrBadSeat)
	if err := h.Apply(Action{Seat: 0, Kind: ActionKind(42)}); !errors.Is(err, ErrIllegalAction) {
		t.Fatalf("unknown kind: %v", err)
	}
	play(t, h, "0:c2 1:f 2:k")
	play(t, h, "2:b10 0:f")
	reject(t, h, "2:k", ErrHandOver)
}

func TestConfigValidation(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"one seat", nl(100)},
		{"eleven seats", nl(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)},
		{"negative stack", nl(100, -1)},
		{"one player with chips", nl(100, 0, 0)},
		{"button off the table", Config{Stacks: []int64{10, 10}, BigBlind: 2, Button: 2}},
		{"button on an empty seat", Config{Stacks: []int64{10, 10, 0}, BigBlind: 2, Button: 2}},
		{"no big blind", Config{Stacks: []int64{10, 10}}},
		{"small blind above big blind", Config{Stacks: []int64{10, 10}, SmallBlind: 3, BigBlind: 2}},
		{"negative ante", Config{Stacks: []int64{10, 10}, BigBlind: 2, Ante: -1}},
		{"bad raise cap", Config{Structure: FixedLimit, Stacks: []int64{10, 10}, BigBlind: 2, RaiseCap: -5}},
		{"unknown structure", Config{Structure: 9, Stacks: []int64{10, 10}, BigBlind: 2}},
		{"unknown variant", Config{Variant: 9, Stacks: []int64{10, 10}, BigBlind: 2}},
		{"stud: one can ante", Config{Variant: StudThree, Stacks: []int64{10, 0}}},
		{"deck with a duplicate", Config{Stacks: []int64{10, 10}, BigBlind: 2, Deck: []cards.Card{cards.MustParse("As"), cards.MustParse("As")}}},
		{"deck too short", Config{Stacks: []int64{10, 10}, BigBlind: 2, Deck: cards.MustParseList("AsKs")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.cfg)
			if !errors.Is(err, ErrBadConfig) {
				t.Fatalf("error %v, want ErrBadConfig", err)
			}
			t.Log(err)
		})
	}
	// Limit defaults: blinds from the small bet.
	h := mustNew(t, Config{Structure: FixedLimit, Stacks: []int64{100, 100}, SmallBet: 4})
	if h.s.sb != 2 || h.s.bb != 4 || h.s.bigBet != 8 || h.s.raiseCap != DefaultRaiseCap {
		t.Fatalf("limit defaults %+v", h.s)
	}
}

func TestNoRaiseWhenNobodyCanRespond(t *testing.T) {
	h := mustNew(t, nl(100, 200))
	play(t, h, "0:r100") // the button goes all-in
	legalIs(t, h, 1, "fold,call", 0, 0)
	// Three-handed with two all-in from the blinds, the button may only call or fold.
	h = mustNew(t, nl(100, 1, 2))
	legalIs(t, h, 0, "fold,call", 0, 0)

	// The only other seat with chips cannot put in more than the bet to match (PokerKit
	// rejects a raise there): stacks 100, 100, 4, 4, the button folds to a raise all-in
	// to 4, and the big blind has 2 behind its blind of 2.
	for _, st := range []Structure{NoLimit, PotLimit, FixedLimit} {
		t.Run(st.String(), func(t *testing.T) {
			cfg := nl(100, 100, 4, 4)
			cfg.Structure = st
			h := mustNew(t, cfg)
			play(t, h, "3:r4 0:f")
			legalIs(t, h, 1, "fold,call", 0, 0)
			reject(t, h, "1:r6", ErrIllegalAction)
			play(t, h, "1:c")
			legalIs(t, h, 2, "fold,call", 0, 0)
			// One chip more behind the big blind and it could answer: the raise is back.
			cfg.Stacks = []int64{100, 100, 5, 4}
			h = mustNew(t, cfg)
			play(t, h, "3:r4 0:f")
			if !h.Legal().Kinds.Has(Raise) {
				t.Errorf("legal %s; the big blind has 3 behind a bet of 4 to match", h.Legal().Kinds)
			}
		})
	}

	// issue 18: after shoves and all-in calls the small blind may not "raise to 1120":
	// the big blind, the only other seat with chips, has 46 behind its 10.
	t.Run("issue18", func(t *testing.T) {
		cfg := nl(1120, 56, 593, 313, 732, 47)
		cfg.SmallBlind, cfg.BigBlind, cfg.Button = 5, 10, 5
		h := mustNew(t, cfg)
		play(t, h, "2:r593 3:c 4:f 5:c")
		legalIs(t, h, 0, "fold,call", 0, 0)
		reject(t, h, "0:r1120", ErrIllegalAction)
		play(t, h, "0:c")
		legalIs(t, h, 1, "fold,call", 0, 0)
		play(t, h, "1:c")
		if !h.Over() {
			t.Fatalf("everyone is all-in: the hand should run out; to act %d", h.ToAct())
		}
	})
}

func TestShortAllInOpeningBet(t *testing.T) {
	cfg := nl(500, 500, 500, 30)
	cfg.SmallBlind, cfg.BigBlind = 10, 20
	h := mustNew(t, cfg)
	play(t, h, "3:c 0:c 1:c 2:k 1:k 2:k")
	legalIs(t, h, 3, "fold,check,bet", 10, 10) // all-in for less than the big blind
	play(t, h, "3:b10")
	legalIs(t, h, 0, "fold,call,raise", 30, 480) // the bet plus the big blind
	play(t, h, "0:c")
	legalIs(t, h, 1, "fold,call", 0, 0) // it checked: the short bet does not reopen
}
