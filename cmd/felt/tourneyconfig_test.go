package main

import (
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/tournament"
)

// tournamentsExample is docs/house.md's [tournaments] example: the defaults.
const tournamentsExample = `
[tournaments]
bots = ["chart", "montecarlo"]
bot_fill = "2m"

[[tournaments.sit_and_go]]
name = "Heads-up sit-and-go"
seats = 2
buy_in = 100
stack = 1500
level = "3m"

[[tournaments.sit_and_go]]
name = "Six-max sit-and-go"
seats = 6
buy_in = 200
stack = 1500
level = "5m"

[[tournaments.scheduled]]
name = "Nightly"
start = "20:00"
seats = 9
buy_in = 500
stack = 3000
level = "10m"
min_entrants = 2
max_entrants = 90
`

func TestTournamentsConfig(t *testing.T) {
	c, err := loadHouseConfig(writeConfig(t, tournamentsExample))
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.Tournaments.director(false)
	if err != nil {
		t.Fatal(err)
	}
	def, err := defaultHouseConfig().Tournaments.director(false)
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range []struct {
		name string
		n    int
	}{{"example", len(d.SitAndGos)}, {"defaults", len(def.SitAndGos)}} {
		if got.n != 2 {
			t.Errorf("%s: %d sit-and-goes", got.name, got.n)
		}
	}
	if len(d.Scheduled) != 1 || len(def.Scheduled) != 1 || d.BotFill != 2*time.Minute || len(d.Bots) != 2 {
		t.Fatalf("example: %+v", d)
	}
	s := d.Scheduled[0]
	if s.Every != 24*time.Hour || s.Spec.Start.Hour() != 20 || s.Spec.Start.Minute() != 0 || s.Spec.Kind != tournament.Scheduled ||
		d.SitAndGos[1].Seats != 6 || d.SitAndGos[1].LevelTime != 5*time.Minute || d.SitAndGos[0].MaxEntrants != 2 {
		t.Errorf("example: %+v", d)
	}
	if nb, _ := c.Tournaments.director(true); len(nb.Bots) != 0 {
		t.Errorf("--no-bots kept bots: %v", nb.Bots)
	}
	// A list written replaces its defaults; the other list keeps them.
	c, err = loadHouseConfig(writeConfig(t, "[tournaments]\nsit_and_go = []\n"))
	if err != nil || len(c.Tournaments.SitAndGo) != 0 || len(c.Tournaments.Scheduled) != 1 {
		t.Fatalf("no sit-and-go: %+v %v", c.Tournaments, err)
	}
	if c, err = loadHouseConfig(writeConfig(t, "[tournaments]\nbots = []\n")); err != nil || len(c.Tournaments.Bots) != 0 || len(c.Tournaments.SitAndGo) != 2 {
		t.Fatalf("no bots: %+v %v", c.Tournaments, err)
	}
	for _, tc := range []struct{ text, want string }{
		{"[[tournaments.sit_and_go]]\nname = \"X\"\nseats = 1\nbuy_in = 1\nstack = 10\n", "tournaments.sit_and_go[0]: "},
		{"[[tournaments.sit_and_go]]\nname = \"X\"\nseats = 2\nbuy_in = -5\nstack = 10\n", "buy_in"},
		{"[[tournaments.sit_and_go]]\nname = \"X\"\nseats = 2\nstack = 10\nlevel = \"1ms\"\n", "level time"},
		{"[[tournaments.scheduled]]\nname = \"X\"\nseats = 6\nstack = 10\nstart = \"25:99\"\n", "tournaments.scheduled[0].start"},
		{"[[tournaments.scheduled]]\nname = \"X\"\nseats = 2\nstack = 10\nstart = \"20:00\"\n", "tournaments.scheduled[0].seats"},
		{"[tournaments]\nbots = [\"nosuch\"]\n", "tournaments.bots[0]"},
		{"[tournaments]\nbot_fill = \"-1s\"\n", "tournaments.bot_fill"},
	} {
		_, err := loadHouseConfig(writeConfig(t, tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
}
