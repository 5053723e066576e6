package tournament

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestPayoutTableSharesSumToAThousand(t *testing.T) {
	prev := 1
	for _, tier := range PayoutTable {
		sum := 0
		for i, s := range tier.Shares {
			sum += s
			if i > 0 && s > tier.Shares[i-1] {
				t.Errorf("field %d: place %d pays more than place %d", tier.MaxField, i+1, i)
			}
		}
		if sum != 1000 {
			t.Errorf("field up to %d: shares sum to %d", tier.MaxField, sum)
		}
		if len(tier.Shares) > prev+1 && len(tier.Shares) >= tier.MaxField {
			t.Errorf("field up to %d pays %d places", tier.MaxField, len(tier.Shares))
		}
		prev = tier.MaxField
	}
}

func TestPayoutsSumToThePool(t *testing.T) {
	for entrants := 2; entrants <= MaxEntrants; entrants++ {
		for _, buyIn := range []int64{0, 1, 7, 100, 333, 1_000_000} {
			pool := buyIn * int64(entrants)
			p := Payouts(entrants, pool)
			var sum int64
			for i, v := range p {
				sum += v
				if v < 0 || (i > 0 && v > p[i-1]) {
					t.Fatalf("entrants %d pool %d: payouts %v", entrants, pool, p)
				}
			}
			if sum != pool {
				t.Fatalf("entrants %d pool %d: payouts %v sum to %d", entrants, pool, p, sum)
			}
			if len(p) >= entrants && entrants > 1 {
				t.Fatalf("entrants %d: %d places paid", entrants, len(p))
			}
		}
	}
}

func TestPublishedSitAndGoPayouts(t *testing.T) {
	for _, tc := range []struct {
		entrants int
		pool     int64
		want     []int64
	}{
		{2, 200, []int64{200}},
		{3, 300, []int64{300}},
		{6, 600, []int64{390, 210}},
		{9, 900, []int64{450, 270, 180}},
		{7, 100, []int64{50, 30, 20}},
		{9, 10, []int64{5, 3, 2}},
		{9, 11, []int64{6, 3, 2}}, // the odd chip goes to first place
	} {
		if got := Payouts(tc.entrants, tc.pool); !slices.Equal(got, tc.want) {
			t.Errorf("Payouts(%d, %d) = %v, want %v", tc.entrants, tc.pool, got, tc.want)
		}
	}
}

func TestSplitPrizes(t *testing.T) {
	payouts := []int64{500, 300, 201}
	for _, tc := range []struct {
		place, n int
		want     []int64
	}{
		{1, 1, []int64{500}},
		{2, 2, []int64{251, 250}},
		{3, 2, []int64{101, 100}}, // third's prize and fourth's nothing
		{4, 3, []int64{0, 0, 0}},
		{1, 3, []int64{334, 334, 333}},
	} {
		got := SplitPrizes(payouts, tc.place, tc.n)
		if !slices.Equal(got, tc.want) {
			t.Errorf("SplitPrizes(place %d, %d) = %v, want %v", tc.place, tc.n, got, tc.want)
		}
	}
}

func TestFinishesSimultaneousBusts(t *testing.T) {
	for _, tc := range []struct {
		name      string
		remaining int
		busts     []Bust
		want      []Finish
	}{
		{"one bust", 6, []Bust{{1, 300}}, []Finish{{1, 6, 1}}},
		{"bigger stack finishes higher", 6, []Bust{{1, 300}, {2, 800}, {3, 100}},
			[]Finish{{2, 4, 1}, {1, 5, 1}, {3, 6, 1}}},
		{"equal stacks tie", 5, []Bust{{1, 300}, {2, 300}}, []Finish{{1, 4, 2}, {2, 4, 2}}},
		{"tie below a bigger stack", 5, []Bust{{1, 300}, {2, 900}, {3, 300}},
			[]Finish{{2, 3, 1}, {1, 4, 2}, {3, 4, 2}}},
		{"heads-up to a winner", 3, []Bust{{7, 50}, {8, 60}}, []Finish{{8, 2, 1}, {7, 3, 1}}},
		{"none", 4, nil, []Finish{}},
	} {
		if got := Finishes(tc.remaining, tc.busts); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Finishes = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// apply plays plan on counts and checks that every move is possible.
func apply(t *testing.T, counts map[int]int, plan Plan, seats int) {
	t.Helper()
	for _, m := range plan.Moves {
		if m.N <= 0 || counts[m.From] < m.N || m.From == m.To {
			t.Fatalf("move %+v impossible with %v", m, counts)
		}
		counts[m.From] -= m.N
		counts[m.To] += m.N
	}
	for _, id := range plan.Break {
		if counts[id] != 0 {
			t.Fatalf("table %d broken with %d players left", id, counts[id])
		}
		delete(counts, id)
	}
	for id, n := range counts {
		if n > seats {
			t.Fatalf("table %d has %d players at %d seats", id, n, seats)
		}
	}
}

func balanced(counts map[int]int) bool {
	lo, hi := 1<<30, 0
	for _, n := range counts {
		lo, hi = min(lo, n), max(hi, n)
	}
	return len(counts) == 0 || hi-lo <= 1
}

func TestBalanceTables(t *testing.T) {
	for _, tc := range []struct {
		name      string
		seats     int
		tables    []TableCount
		breaks    []int
		moves     int
		wantTabls int
	}{
		{"balanced already", 9, []TableCount{{1, 9}, {2, 8}, {3, 9}}, nil, 0, 3},
		{"one short table", 9, []TableCount{{1, 9}, {2, 6}, {3, 9}}, nil, 2, 3},
		{"one player short", 9, []TableCount{{1, 9}, {2, 7}, {3, 9}}, nil, 1, 3},
		{"break the smallest", 9, []TableCount{{1, 7}, {2, 6}, {3, 5}}, []int{3}, 2, 2},
		{"final table", 9, []TableCount{{1, 5}, {2, 4}}, []int{2}, 1, 1},
		{"final table of six-max", 6, []TableCount{{1, 3}, {2, 3}}, []int{2}, 1, 1},
		{"empty table breaks", 6, []TableCount{{1, 6}, {2, 0}}, []int{2}, 0, 1},
		{"highest id breaks among equals", 6, []TableCount{{1, 4}, {2, 4}, {3, 4}}, []int{3}, 2, 2},
	} {
		plan := Balance(tc.tables, tc.seats)
		if !slices.Equal(plan.Break, tc.breaks) {
			t.Errorf("%s: break %v, want %v", tc.name, plan.Break, tc.breaks)
		}
		if len(plan.Moves) != tc.moves {
			t.Errorf("%s: moves %v, want %d", tc.name, plan.Moves, tc.moves)
		}
		counts := map[int]int{}
		for _, tb := range tc.tables {
			counts[tb.ID] = tb.Players
		}
		apply(t, counts, plan, tc.seats)
		if !balanced(counts) || len(counts) != tc.wantTabls {
			t.Errorf("%s: after the plan %v", tc.name, counts)
		}
	}
}

// TestBalanceAlwaysWithinOne busts players at random from a random field until
// one is left, planning after each bust: the tables never differ by more than
// one player, never hold more than their seats, and are never more than needed.
func TestBalanceAlwaysWithinOne(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 300; round++ {
		seats := 2 + r.IntN(8)
		players := 2 + r.IntN(MaxEntrants-1)
		counts := map[int]int{}
		for i := 0; i < players; i++ {
			counts[i%TablesFor(players, seats)] += 1
		}
		for players > 1 {
			// Bust one to three players at one table.
			var ids []int
			for id, n := range counts {
				if n > 0 {
					ids = append(ids, id)
				}
			}
			slices.Sort(ids)
			id := ids[r.IntN(len(ids))]
			k := min(1+r.IntN(3), counts[id], players-1)
			counts[id] -= k
			players -= k
			var tables []TableCount
			for id, n := range counts {
				tables = append(tables, TableCount{id, n})
			}
			apply(t, counts, Balance(tables, seats), seats)
			if !balanced(counts) {
				t.Fatalf("seats %d: unbalanced %v", seats, counts)
			}
			if len(counts) != TablesFor(players, seats) {
				t.Fatalf("seats %d, %d players: %d tables", seats, players, len(counts))
			}
		}
	}
}

func TestSpecValidate(t *testing.T) {
	good := func() Spec {
		s := Spec{Name: "Turbo", Kind: SitAndGo, Seats: 6, BuyIn: 100, Stack: 1500}
		s.Defaults()
		return s
	}
	s := good()
	if err := s.Validate(); err != nil {
		t.Fatalf("good spec: %v", err)
	}
	if s.MinEntrants != 6 || s.MaxEntrants != 6 {
		t.Errorf("sit-and-go entrants %d..%d", s.MinEntrants, s.MaxEntrants)
	}
	for name, f := range map[string]func(*Spec){
		"no name":         func(s *Spec) { s.Name = "" },
		"kind":            func(s *Spec) { s.Kind = "cash" },
		"one seat":        func(s *Spec) { s.Seats = 1 },
		"ten seats":       func(s *Spec) { s.Seats = 10 },
		"negative buy-in": func(s *Spec) { s.BuyIn = -1 },
		"no stack":        func(s *Spec) { s.Stack = 0 },
		"short levels":    func(s *Spec) { s.LevelTime = time.Millisecond },
		"falling blinds":  func(s *Spec) { s.Levels = []Level{{20, 40, 0}, {10, 20, 0}} },
		"ante too big":    func(s *Spec) { s.Levels = []Level{{10, 20, 20}} },
		"mtt no start":    func(s *Spec) { s.Kind = Scheduled },
		"too many":        func(s *Spec) { s.MaxEntrants = MaxEntrants + 1 },
	} {
		s := good()
		f(&s)
		if err := s.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Validate = %v", name, err)
		}
	}
}

func TestLevelAt(t *testing.T) {
	s := Spec{Levels: DefaultLevels[:3], LevelTime: time.Minute}
	for _, tc := range []struct {
		elapsed time.Duration
		level   int
		left    time.Duration
	}{
		{-time.Second, 0, time.Minute},
		{0, 0, time.Minute},
		{59 * time.Second, 0, time.Second},
		{time.Minute, 1, time.Minute},
		{150 * time.Second, 2, 0}, // the last level lasts
		{time.Hour, 2, 0},
	} {
		l, left := s.LevelAt(tc.elapsed)
		if l != tc.level || left != tc.left {
			t.Errorf("LevelAt(%v) = %d, %v; want %d, %v", tc.elapsed, l, left, tc.level, tc.left)
		}
	}
}
