package arena

import (
	"fmt"
	"image/color"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The charts are drawn chartWidth by chartHeight; Save writes the format the file
// name's extension says (svg, png, pdf, ...).
const (
	chartWidth  = 16 * vg.Centimeter
	chartHeight = 10 * vg.Centimeter
)

// Chart is a drawing ready to be saved.
type Chart struct{ p *plot.Plot }

// Save writes the chart to path in the format its extension names (.svg or .png).
func (c Chart) Save(path string) error {
	if err := c.p.Save(chartWidth, chartHeight, path); err != nil {
		return fmt.Errorf("chart %s: %w", path, err)
	}
	return nil
}

// pointsWithErrors are points with symmetric Y errors, for plotter.NewYErrorBars.
type pointsWithErrors struct {
	plotter.XYs
	plotter.YErrors
}

// withErrors builds pointsWithErrors from values and 95% half-widths at x = 0, 1, ...
// (or xs when given).
func withErrors(xs, ys, ci []float64) pointsWithErrors {
	p := pointsWithErrors{make(plotter.XYs, len(ys)), make(plotter.YErrors, len(ys))}
	for i := range ys {
		p.XYs[i].X = float64(i)
		if xs != nil {
			p.XYs[i].X = xs[i]
		}
		p.XYs[i].Y = ys[i]
		p.YErrors[i].Low, p.YErrors[i].High = ci[i], ci[i]
	}
	return p
}

// zeroLine draws y = 0 across [x0, x1] in grey.
func zeroLine(p *plot.Plot, x0, x1 float64) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x0}, {X: x1}})
	if err != nil {
		return err
	}
	l.Color = color.NRGBA{128, 128, 128, 160}
	l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(l)
	return nil
}

// EvolutionChart draws, for each benchmark bot, the bb/100 of every generation's best
// network against it with its 95% interval.
func EvolutionChart(gens []Generation) (Chart, error) {
	p := plot.New()
	p.Title.Text = "felt evolve: each generation's best against the benchmarks"
	p.X.Label.Text = "generation"
	p.Y.Label.Text = "bb/100 (duplicate, ± 95%)"
	p.Legend.Top = true
	if len(gens) == 0 || len(gens[0].Bench) == 0 {
		return Chart{p}, nil
	}
	if err := zeroLine(p, 0, float64(len(gens)-1)); err != nil {
		return Chart{}, err
	}
	for k, first := range gens[0].Bench {
		ys, ci := make([]float64, len(gens)), make([]float64, len(gens))
		for i, g := range gens {
			ys[i], ci[i] = g.Bench[k].BBPer100, g.Bench[k].CI95
		}
		pts := withErrors(nil, ys, ci)
		line, marks, err := plotter.NewLinePoints(pts.XYs)
		if err != nil {
			return Chart{}, err
		}
		bars, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return Chart{}, err
		}
		c := plotutil.Color(k)
		line.Color, marks.Color, bars.Color = c, c, translucent(c)
		marks.Shape = draw.CircleGlyph{}
		p.Add(bars, line, marks)
		p.Legend.Add("against "+first.B, line, marks)
	}
	return Chart{p}, nil
}

// RateChart draws each row's bb/100 as a bar with its 95% interval.
func RateChart(title string, rows []Standing) (Chart, error) {
	names := make([]string, len(rows))
	ys, ci := make([]float64, len(rows)), make([]float64, len(rows))
	for i, r := range rows {
		names[i], ys[i], ci[i] = r.Bot, r.BBPer100, r.CI95
	}
	return BarChart(title, "bb/100 (± 95%)", names, ys, ci)
}

// BarChart draws ys[i] as a bar named names[i], with a whisker of ± ci[i] (a 95%
// half-width), the y axis labelled ylabel.
func BarChart(title, ylabel string, names []string, ys, ci []float64) (Chart, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	if len(ys) == 0 {
		return Chart{p}, nil
	}
	if len(names) != len(ys) || len(ci) != len(ys) {
		return Chart{}, fmt.Errorf("bar chart: %d names, %d values and %d intervals", len(names), len(ys), len(ci))
	}
	bars, err := plotter.NewBarChart(plotter.Values(ys), vg.Points(22))
	if err != nil {
		return Chart{}, err
	}
	bars.Color = plotutil.Color(0)
	bars.LineStyle.Width = 0
	errs, err := plotter.NewYErrorBars(withErrors(nil, ys, ci))
	if err != nil {
		return Chart{}, err
	}
	p.Add(bars, errs)
	p.NominalX(names...)
	p.Y.Tick.Marker = plainTicks{}
	return Chart{p}, nil
}

// plainTicks are gonum's default ticks labelled with no more digits than their
// values have ("2500", not "2500.00").
type plainTicks struct{}

// Ticks returns plot.DefaultTicks' ticks between lo and hi, relabelled.
func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'f', -1, 64)
		}
	}
	return ts
}

// StackChart draws each player's stack after every hand; stacks[h][i] is player i's
// stack after hand h (row 0: the start).
func StackChart(title string, players []string, stacks [][]int64) (Chart, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "hand"
	p.Y.Label.Text = "chips"
	p.Legend.Top = true
	p.Legend.Left = true
	for i, name := range players {
		xys := make(plotter.XYs, len(stacks))
		for h, row := range stacks {
			xys[h] = plotter.XY{X: float64(h), Y: float64(row[i])}
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return Chart{}, err
		}
		l.Color = plotutil.Color(i)
		l.Width = vg.Points(1.2)
		p.Add(l)
		p.Legend.Add(name, l)
	}
	return Chart{p}, nil
}

// translucent returns c at 40% opacity, for interval bars.
func translucent(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 110}
}
