package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/cfr/curve"
	"github.com/felt-poker/felt/internal/solver"
)

// solveCurveLabel is the exploitability axis of a solve's chart.
const solveCurveLabel = "exploitability (% of the pot)"

// curveRecorder collects a solve's exploitability checks against process CPU time
// (wall time where the CPU time is not known) for --curve.
type curveRecorder struct {
	game, algo string
	cpu0       time.Duration
	points     []curve.Point
}

func newCurveRecorder(sp solver.Spot, compress bool) *curveRecorder {
	algo := "felt"
	if compress {
		algo = "felt (16-bit store)"
	}
	return &curveRecorder{game: fmt.Sprintf("%s pot %g stack %g", cards.Format(sp.Board), sp.Pot, sp.Stack), algo: algo, cpu0: processCPU()}
}

// add records one exploitability check.
func (r *curveRecorder) add(p solver.Progress) {
	sec := (processCPU() - r.cpu0).Seconds()
	if sec <= 0 {
		sec = p.Elapsed.Seconds()
	}
	r.points = append(r.points, curve.Point{Game: r.game, Algo: r.algo, Iterations: p.Iterations, Seconds: sec, MChips: p.Exploitability})
}

// write draws the curve to path (.svg or .png), or appends it to path (.csv) and then
// draws the file's runs of the same spot to chart if set.
func (r *curveRecorder) write(path, chart string) error {
	if len(r.points) == 0 {
		return nil
	}
	title := "felt solve " + r.game
	if strings.EqualFold(filepath.Ext(path), ".csv") {
		return appendCurve(path, chart, r.points, title, solveCurveLabel)
	}
	return writeFileAtomic(path, func(w io.Writer) error {
		return curve.ChartAs(w, path, title, solveCurveLabel, r.points)
	})
}
