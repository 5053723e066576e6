// Package curve records CFR training curves (exploitability as training goes on)
// as CSV files and draws them as charts: exploitability against time and against
// iterations, both on log scales, one line per algorithm.
package curve

import (
	"encoding/csv"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Point is one measurement of a training run.
type Point struct {
	Game       string
	Algo       string
	Iterations int
	Seconds    float64 // training time so far, measurement excluded
	MChips     float64 // exploitability, milli-chips per game
}

// Header is the first row of a curve CSV file.
var header = []string{"game", "algo", "iterations", "seconds", "exploitability_mchips"}

// ErrBadCurve is wrapped by Read for a malformed file.
var ErrBadCurve = errors.New("bad curve file")

// Write writes points as CSV rows, with the header row first if withHeader.
func Write(w io.Writer, points []Point, withHeader bool) error {
	cw := csv.NewWriter(w)
	if withHeader {
		if err := cw.Write(header); err != nil {
			return err
		}
	}
	for _, p := range points {
		if err := cw.Write([]string{p.Game, p.Algo, strconv.Itoa(p.Iterations),
			strconv.FormatFloat(p.Seconds, 'g', 6, 64), strconv.FormatFloat(p.MChips, 'g', 6, 64)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Read reads a curve CSV file written by Write.
func Read(r io.Reader) ([]Point, error) {
	rows, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadCurve, err)
	}
	if len(rows) == 0 || strings.Join(rows[0], ",") != strings.Join(header, ",") {
		return nil, fmt.Errorf("%w: want the header %s", ErrBadCurve, strings.Join(header, ","))
	}
	var out []Point
	for i, row := range rows[1:] {
		it, err1 := strconv.Atoi(row[2])
		sec, err2 := strconv.ParseFloat(row[3], 64)
		mc, err3 := strconv.ParseFloat(row[4], 64)
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, fmt.Errorf("%w: row %d: %v", ErrBadCurve, i+2, err)
		}
		out = append(out, Point{Game: row[0], Algo: row[1], Iterations: it, Seconds: sec, MChips: mc})
	}
	return out, nil
}

// palette colours the algorithms' lines, in order of first appearance.
var palette = [...]color.NRGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xd6, 0x27, 0x28, 0xff}, {0x2c, 0xa0, 0x2c, 0xff},
	{0xff, 0x7f, 0x0e, 0xff}, {0x94, 0x67, 0xbd, 0xff}, {0x8c, 0x56, 0x4b, 0xff},
}

// Chart draws points as two log-log panels side by side, exploitability against
// training time and against iterations, one line per algorithm, and writes the
// image to w in the format that name's extension says (.svg or .png).
func Chart(w io.Writer, name, title string, points []Point) error {
	return ChartAs(w, name, title, "", points)
}

// ChartAs is Chart with the exploitability's axis labelled ylabel (for points whose
// MChips field holds another unit, such as a solver's % of the pot); "" is Chart's
// "exploitability (milli-chips per game)".
func ChartAs(w io.Writer, name, title, ylabel string, points []Point) error {
	if ylabel == "" {
		ylabel = "exploitability (milli-chips per game)"
	}
	var algos []string
	series := map[string]plotter.XYs{}
	iters := map[string]plotter.XYs{}
	for _, p := range points {
		// Log scales need positive numbers.
		if p.Seconds <= 0 || p.Iterations <= 0 || p.MChips <= 0 || math.IsInf(p.MChips, 0) {
			continue
		}
		if _, ok := series[p.Algo]; !ok {
			algos = append(algos, p.Algo)
		}
		series[p.Algo] = append(series[p.Algo], plotter.XY{X: p.Seconds, Y: p.MChips})
		iters[p.Algo] = append(iters[p.Algo], plotter.XY{X: float64(p.Iterations), Y: p.MChips})
	}
	if len(algos) == 0 {
		return errors.New("chart: no points to draw")
	}
	left := panel(title+": exploitability against time", "training time (s)", ylabel)
	right := panel(title+": exploitability against iterations", "iterations", ylabel)
	for i, a := range algos {
		for _, pl := range []struct {
			p   *plot.Plot
			xys plotter.XYs
		}{{left, series[a]}, {right, iters[a]}} {
			l, err := plotter.NewLine(pl.xys)
			if err != nil {
				return err
			}
			l.Color = palette[i%len(palette)]
			l.Width = vg.Points(1.5)
			pl.p.Add(l)
			pl.p.Legend.Add(a, l)
		}
	}
	const w0, h0 = 11 * vg.Inch, 4 * vg.Inch
	var c vg.CanvasWriterTo
	switch strings.ToLower(filepath.Ext(name)) {
	case ".svg":
		c = vgsvg.New(w0, h0)
	case ".png":
		c = vgimg.PngCanvas{Canvas: vgimg.New(w0, h0)}
	default:
		return fmt.Errorf("chart %s: want a .svg or .png file", name)
	}
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 2,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align([][]*plot.Plot{{left, right}}, tiles, dc)
	left.Draw(canvases[0][0])
	right.Draw(canvases[0][1])
	_, err := c.WriteTo(w)
	return err
}

// panel returns an empty log-log plot.
func panel(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Left = true // bottom left, where the falling curves leave room
	p.Add(plotter.NewGrid())
	return p
}
