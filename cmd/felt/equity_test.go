package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestEquityTable(t *testing.T) {
	var out bytes.Buffer
	if err := runEquity(context.Background(), []string{"AhAs", "KdKc"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"hand", "equity %", "AhAs", "81.06", "0.38", "81.26", "KdKc", "18.74", "exact: 1,712,304 deals"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestEquityBoardAndMonteCarlo(t *testing.T) {
	var out bytes.Buffer
	err := runEquity(context.Background(), []string{"QQ+,AKs", "random", "--board", "Kh7d2c", "--dead", "3s", "--mc", "--samples", "20000", "--seed", "5"}, &out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"QQ+,AKs", "random", "± %", "board Kh7d2c, dead 3s", "monte carlo: 20,000 showdowns", "seed 5"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestEquityJSON(t *testing.T) {
	var out bytes.Buffer
	if err := runEquity(context.Background(), []string{"AhAs", "KdKc", "--board", "Kh7d2c", "--json"}, &out); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Players []struct {
			Hand                     string
			Win, Tie, Equity, StdErr float64
			Wins, Ties               float64
		}
		Method    string
		Showdowns int64
		Deals     float64
		Board     string
		ElapsedNS int64 `json:"elapsed_ns"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out.String())
	}
	if len(got.Players) != 2 || got.Players[0].Hand != "AhAs" || got.Method != "exact" || got.Deals != 990 || got.Board != "Kh7d2c" || got.Showdowns == 0 {
		t.Fatalf("JSON %+v", got)
	}
	if p := got.Players[1]; p.Wins+got.Players[0].Wins+p.Ties != 990 || p.Equity < 0.9 {
		t.Fatalf("kings %+v", p)
	}
}

func TestEquityBadInputExitsTwo(t *testing.T) {
	for _, args := range [][]string{
		{"AhAs"},                              // one player
		{"AhAs", "AhKd"},                      // a card twice
		{"AhAs", "Kx"},                        // bad range token
		{"AhAs", "KdKc", "--board", "Kh7d"},   // two-card board
		{"AhAs", "KdKc", "--board", "Zz7d2c"}, // bad card
		{"AhAs", "KdKc", "--dead", "Ah"},      // dead card in a hand
		{"AA", "AA", "AA"},                    // cannot all be dealt
		{"AhAs", "KdKc", "--exact", "--mc"},   // both methods
		{"AhAs", "KdKc", "--seed", "x"},       // bad seed
		{"AhAs", "KdKc", "--samples", "-5"},   // negative
		{"AhAs", "KdKc", "--no-such-flag"},    // unknown flag
	} {
		var out bytes.Buffer
		err := runEquity(context.Background(), args, &out)
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 {
			t.Errorf("%q: error %v, want exit code 2", args, err)
		}
	}
}
