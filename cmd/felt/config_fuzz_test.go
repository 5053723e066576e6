package main

import (
	"os"
	"strings"
	"testing"
)

// A scheduled tournament repeating every nanosecond (one started at every tick
// of the director) or more often than minEvery is refused.
func TestScheduledTournamentBounds(t *testing.T) {
	for _, extra := range []string{`every = "1ns"`, `every = "59m"`} {
		conf := strings.Replace(tournamentsExample, `start = "20:00"`, `start = "2026-12-31T20:00:00Z"`+"\n"+extra, 1)
		if _, err := parseHouseConfig("felt.toml", []byte(conf)); err == nil || !strings.Contains(err.Error(), "tournaments.scheduled[0]") {
			t.Errorf("%s: %v, want an error naming tournaments.scheduled[0]", extra, err)
		}
	}
}

// FuzzHouseConfig reads anything as the house's config file: no panic, an
// error names the file, and a config accepted gives tables and tournaments
// that check again, with bots a player could also have named.
func FuzzHouseConfig(f *testing.F) {
	f.Add([]byte(tournamentsExample))
	if doc, err := os.ReadFile("../../docs/house.md"); err == nil {
		f.Add(doc)
	}
	f.Add([]byte("name = \"x\"\n[[tables]]\nname = \"T\"\nvariant = \"nl\"\nseats = 6\nsmall_blind = 1\nbig_blind = 2\nmin_buy_in = 40\nmax_buy_in = 200\nbots = [\"neural:weights=/etc/passwd\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseHouseConfig("felt.toml", data)
		if err != nil {
			if !strings.Contains(err.Error(), "felt.toml") {
				t.Fatalf("error %v does not name the file", err)
			}
			return
		}
		if err := c.check(); err != nil {
			t.Fatalf("accepted, then %v", err)
		}
		if _, err := c.Tournaments.director(false); err != nil {
			t.Fatalf("accepted, then %v", err)
		}
	})
}
