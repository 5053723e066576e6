package arena

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/xuri/excelize/v2"
)

// WriteStacksCSV writes a tournament's stacks: a header "hand" and the players, then
// one row per hand (hand 0: the start).
func WriteStacksCSV(w io.Writer, t TournamentResult) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(append([]string{"hand"}, t.Players...)); err != nil {
		return err
	}
	row := make([]string, len(t.Players)+1)
	for h, stacks := range t.Stacks {
		row[0] = strconv.Itoa(h)
		for i, s := range stacks {
			row[i+1] = strconv.FormatInt(s, 10)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteResultsCSV writes a tournament's results: place, player, final stack, hands
// dealt in, bb/100 and its 95% half-width, one row per player by finishing place.
func WriteResultsCSV(w io.Writer, t TournamentResult) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"place", "player", "stack", "hands", "bb_per_100", "ci95"}); err != nil {
		return err
	}
	for _, r := range resultRows(t) {
		if err := cw.Write([]string{strconv.Itoa(r.place), r.player, strconv.FormatInt(r.stack, 10), strconv.Itoa(r.hands),
			strconv.FormatFloat(r.rate, 'f', 2, 64), strconv.FormatFloat(r.ci, 'f', 2, 64)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// resultRow is one line of the results, by finishing place.
type resultRow struct {
	place    int
	player   string
	stack    int64
	hands    int
	rate, ci float64
}

func resultRows(t TournamentResult) []resultRow {
	last := t.Stacks[len(t.Stacks)-1]
	var rows []resultRow
	for p, name := range t.Finish {
		for i, pl := range t.Players {
			if pl == name {
				rows = append(rows, resultRow{p + 1, name, last[i], t.Dealt[i], t.Rates[i].BBPer100, t.Rates[i].CI95})
			}
		}
	}
	return rows
}

// WriteXLSX writes a tournament as an Excel workbook: a "Results" sheet with a
// native bar chart of bb/100, and a "Stacks" sheet with a native line chart of the
// stacks hand by hand.
func WriteXLSX(w io.Writer, t TournamentResult) error {
	f := excelize.NewFile()
	defer f.Close()
	const results, stacks = "Results", "Stacks"
	if err := f.SetSheetName("Sheet1", results); err != nil {
		return err
	}
	if _, err := f.NewSheet(stacks); err != nil {
		return err
	}
	set := func(sheet string, col, row int, v any) error {
		cell, err := excelize.CoordinatesToCellName(col, row)
		if err != nil {
			return err
		}
		return f.SetCellValue(sheet, cell, v)
	}
	for c, h := range []string{"place", "player", "stack", "hands", "bb/100", "± 95%"} {
		if err := set(results, c+1, 1, h); err != nil {
			return err
		}
	}
	rows := resultRows(t)
	for k, r := range rows {
		for c, v := range []any{r.place, r.player, r.stack, r.hands, r.rate, r.ci} {
			if err := set(results, c+1, k+2, v); err != nil {
				return err
			}
		}
	}
	n := len(rows) + 1
	if err := f.AddChart(results, "H2", &excelize.Chart{
		Type:   excelize.Col,
		Title:  []excelize.RichTextRun{{Text: "bb/100 by player"}},
		Series: []excelize.ChartSeries{{Name: results + "!$E$1", Categories: fmt.Sprintf("%s!$B$2:$B$%d", results, n), Values: fmt.Sprintf("%s!$E$2:$E$%d", results, n)}},
		Legend: excelize.ChartLegend{Position: "none"},
	}); err != nil {
		return err
	}
	if err := set(stacks, 1, 1, "hand"); err != nil {
		return err
	}
	for i, p := range t.Players {
		if err := set(stacks, i+2, 1, p); err != nil {
			return err
		}
	}
	for h, row := range t.Stacks {
		cell, _ := excelize.CoordinatesToCellName(1, h+2)
		vals := make([]any, 0, len(row)+1)
		vals = append(vals, h)
		for _, s := range row {
			vals = append(vals, s)
		}
		if err := f.SetSheetRow(stacks, cell, &vals); err != nil {
			return err
		}
	}
	last := len(t.Stacks) + 1
	var series []excelize.ChartSeries
	for i := range t.Players {
		col, _ := excelize.ColumnNumberToName(i + 2)
		series = append(series, excelize.ChartSeries{
			Name:       fmt.Sprintf("%s!$%s$1", stacks, col),
			Categories: fmt.Sprintf("%s!$A$2:$A$%d", stacks, last),
			Values:     fmt.Sprintf("%s!$%s$2:$%s$%d", stacks, col, col, last),
			Marker:     excelize.ChartMarker{Symbol: "none"},
		})
	}
	col, _ := excelize.ColumnNumberToName(len(t.Players) + 3)
	if err := f.AddChart(stacks, col+"2", &excelize.Chart{
		Type:      excelize.Line,
		Title:     []excelize.RichTextRun{{Text: "Stacks hand by hand"}},
		Series:    series,
		Dimension: excelize.ChartDimension{Width: 720, Height: 400},
	}); err != nil {
		return err
	}
	return f.Write(w)
}
