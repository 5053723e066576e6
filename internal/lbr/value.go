package lbr

// The values of LBR's actions (Lisý and Bowling 2017, section 3), in chips won
// from now on (what LBR has already put in is spent), under LBR's assumption
// that once the action is answered both players only check and call to the end.
// They are shared by the no-limit player and the Leduc test.

// CallValue is the value of checking (toCall 0) or calling toCall with equity wp
// when pot chips are in the middle (every bet so far counted): wp·pot −
// (1−wp)·toCall.
func CallValue(wp float64, pot, toCall int64) float64 {
	return wp*float64(pot) - (1-wp)*float64(toCall)
}

// BetValue is the value of putting in added chips (a bet or raise; the call it
// contains counted) when the bot folds with probability fp and otherwise calls,
// adding answer chips, after which LBR has equity wp against the hands that call:
// fp·pot + (1−fp)·(wp·(pot+added+answer) − added). With nothing to call and the
// bot matching the bet (answer = added = bet) it is the paper's
// fp·pot + (1−fp)·(wp·(pot+bet) − (1−wp)·bet).
func BetValue(fp, wp float64, pot, added, answer int64) float64 {
	called := wp*float64(pot+added+answer) - float64(added)
	return fp*float64(pot) + (1-fp)*called
}
