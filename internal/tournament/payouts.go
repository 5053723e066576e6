package tournament

// PayoutTier is one row of the published payout table: fields of Entrants up to
// MaxField share the prize pool by Shares, in thousandths, first place first.
type PayoutTier struct {
	MaxField int   `json:"max_field"`
	Shares   []int `json:"shares"` // per mille; they sum to 1000
}

// PayoutTable is the published payout table, by field size (the number of
// players who started). Places not listed win nothing.
var PayoutTable = []PayoutTier{
	{3, []int{1000}},
	{6, []int{650, 350}},
	{9, []int{500, 300, 200}},
	{18, []int{400, 250, 160, 110, 80}},
	{27, []int{350, 220, 140, 100, 80, 60, 50}},
	{45, []int{300, 200, 120, 90, 70, 60, 50, 40, 40, 30}},
	{MaxEntrants, []int{270, 170, 110, 80, 65, 55, 45, 40, 35, 30, 25, 25, 20, 15, 15}},
}

// Shares returns the payout shares (per mille) for a field of entrants.
func Shares(entrants int) []int {
	for _, t := range PayoutTable {
		if entrants <= t.MaxField {
			return t.Shares
		}
	}
	return PayoutTable[len(PayoutTable)-1].Shares
}

// Payouts returns the prize of each paid place, first place first, for a field
// of entrants sharing pool. They sum to pool exactly: the chips that rounding
// down leaves go to first place. A field smaller than the places paid pays as
// many places as it has players (their shares scaled up).
func Payouts(entrants int, pool int64) []int64 {
	shares := Shares(entrants)
	if entrants < len(shares) {
		shares = shares[:max(entrants, 1)]
	}
	total := 0
	for _, s := range shares {
		total += s
	}
	out := make([]int64, len(shares))
	var paid int64
	for i, s := range shares {
		out[i] = pool * int64(s) / int64(total)
		paid += out[i]
	}
	out[0] += pool - paid
	return out
}

// Prize returns what place (1-based) wins out of payouts (0 for an unpaid place).
func Prize(payouts []int64, place int) int64 {
	if place < 1 || place > len(payouts) {
		return 0
	}
	return payouts[place-1]
}

// SplitPrizes returns the prizes of n players tied for places place to
// place+n-1: they share those places' prizes equally, the chips the division
// leaves going one each to the first of them.
func SplitPrizes(payouts []int64, place, n int) []int64 {
	var sum int64
	for p := place; p < place+n; p++ {
		sum += Prize(payouts, p)
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = sum / int64(n)
		if int64(i) < sum%int64(n) {
			out[i]++
		}
	}
	return out
}
