package arena

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/felt-poker/felt/internal/bot"
)

// WriteTimings prints decision-time percentiles (bot.Timings.Rows) as a table:
// one line per bot and street, with the budget each decision had (0: none).
func WriteTimings(w io.Writer, rows []bot.TimingRow, budget time.Duration) error {
	b := "no budget"
	if budget > 0 {
		b = "budget " + budget.String()
	}
	fmt.Fprintf(w, "decision times (wall clock, %s):\n", b)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "bot\tstreet\tdecisions\tp50\tp90\tp99\tmax\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t\n", r.Bot, r.Street, r.N, ms(r.P50), ms(r.P90), ms(r.P99), ms(r.Max))
	}
	return tw.Flush()
}

// ms writes d in milliseconds, to a tenth below 10 ms (in microseconds below
// one).
func ms(d time.Duration) string {
	m := float64(d) / float64(time.Millisecond)
	if m < 1 {
		return fmt.Sprintf("%.0f µs", m*1000)
	}
	if m < 10 {
		return fmt.Sprintf("%.1f ms", m)
	}
	return fmt.Sprintf("%.0f ms", m)
}

// TimingJSON is one row of decision times in a command's --json output.
type TimingJSON struct {
	Bot       string  `json:"bot"`
	Street    string  `json:"street"`
	Decisions int     `json:"decisions"`
	P50MS     float64 `json:"p50_ms"`
	P90MS     float64 `json:"p90_ms"`
	P99MS     float64 `json:"p99_ms"`
	MaxMS     float64 `json:"max_ms"`
}

// TimingsJSON returns rows for --json.
func TimingsJSON(rows []bot.TimingRow) []TimingJSON {
	if rows == nil {
		return nil
	}
	out := make([]TimingJSON, len(rows))
	f := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	for i, r := range rows {
		out[i] = TimingJSON{r.Bot, r.Street.String(), r.N, f(r.P50), f(r.P90), f(r.P99), f(r.Max)}
	}
	return out
}
