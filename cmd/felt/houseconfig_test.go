package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/house"
)

// exampleConfig is the example of docs/house.md.
const exampleConfig = `# felt serve --config house.toml
name = "Friday Club"
signup_credits = 20000
guest_credits = 5000
refill_below = 2000
refill_to = 20000
refill_interval = "12h"
rank_min_hands = 100
max_conns_per_ip = 16
max_http_conns_per_ip = 128
announce = "239.255.70.84:47474"

[[tables]]
name = "Main"
variant = "nlhe"
seats = 6
small_blind = 25
big_blind = 50
min_buy_in = 1000
max_buy_in = 5000
action_seconds = 30
bots = ["chart", "montecarlo"]

[[tables]]
name = "Turbo"
variant = "nlhe"
seats = 2
small_blind = 10
big_blind = 20
min_buy_in = 400
max_buy_in = 2000
schedule = { every_hands = 10 }
straddle = true
run_it_twice = true
bots = ["hsppot"]

[[tables]]
name = "Stud"
variant = "stud3"
seats = 5
ante = 1
min_buy_in = 20
max_buy_in = 200
bots = ["chart", "random"]
`

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "house.toml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestHouseConfig(t *testing.T) {
	c, err := loadHouseConfig(writeConfig(t, exampleConfig))
	if err != nil {
		t.Fatal(err)
	}
	hs := c.houseSettings()
	if c.Name != "Friday Club" || hs.SignupCredits != 20000 || hs.GuestCredits != 5000 || hs.RefillBelow != 2000 ||
		hs.RefillTo != 20000 || hs.RefillInterval != 12*time.Hour || hs.RankMinHands != 100 || c.MaxConnsPerIP != 16 || c.MaxHTTPConnsPerIP != 128 || len(c.Tables) != 3 {
		t.Fatalf("%+v", c)
	}
	tc, err := c.table(1, nopBank{})
	if err != nil || tc.Name != "Turbo" || tc.Schedule.EveryHands != 10 || !tc.Permanent || tc.ActionTime != 0 || !tc.Straddle || !tc.RunItTwice {
		t.Fatalf("table 1: %+v %v", tc, err)
	}
	// No action_seconds: the table package's default, as for a player's table.
	if tc.DefaultTimes(); tc.ActionTime != 20*time.Second {
		t.Fatalf("table 1's clock: %v", tc.ActionTime)
	}
	// Only some keys: the rest keep their defaults, tables included.
	c, err = loadHouseConfig(writeConfig(t, "name = \"Tiny\"\nsignup_credits = 500\n"))
	if err != nil || c.Name != "Tiny" || c.SignupCredits != 500 || c.RefillTo != defaultHouseConfig().RefillTo || len(c.Tables) != 3 {
		t.Fatalf("partial: %+v %v", c, err)
	}
	def := defaultHouseConfig()
	if c, err := loadHouseConfig(writeConfig(t, "hands_public_after = \"0s\"\n")); err != nil || c.houseSettings().HandsPublicAfter != 0 ||
		def.houseSettings().HandsPublicAfter != 24*time.Hour {
		t.Fatalf("hands_public_after: %+v %v", c, err)
	}
	// No tables at all.
	if c, err = loadHouseConfig(writeConfig(t, "tables = []\n")); err != nil || len(c.Tables) != 0 {
		t.Fatalf("no tables: %+v %v", c, err)
	}

	table := func(extra string) string {
		return "[[tables]]\nname = \"A\"\nvariant = \"nlhe\"\nseats = 6\nsmall_blind = 10\nbig_blind = 20\nmin_buy_in = 400\nmax_buy_in = 2000\n" + extra
	}
	for _, tc := range []struct{ text, want string }{
		{"name = \"\"", "name: must be"},
		{"signup_credits = -1", "signup_credits: must not be negative"},
		{"guest_credits = -1", "guest_credits:"},
		{"refill_below = 5000\nrefill_to = 100", "refill_to: must be at least refill_below"},
		{"refill_interval = \"soon\"", "refill_interval"},
		{"rank_min_hands = -3", "rank_min_hands:"},
		{"hands_public_after = \"-1h\"", "hands_public_after:"},
		{"max_conns_per_ip = -1", "max_conns_per_ip:"},
		{"max_tables_per_player = -1", "max_tables_per_player:"},
		{`metrics = "everyone"`, "metrics:"},
		{`session_idle = "10s"`, "session_idle:"},
		{`sit_out_limit = "0s"`, "sit_out_limit:"},
		{`return_window = "10s"`, "return_window: must be 1m to 24h"},
		{`return_window = "48h"`, "return_window:"},
		{"max_http_conns_per_ip = -1", "max_http_conns_per_ip:"},
		{"max_http_conns_per_ip = 10", "max_http_conns_per_ip: must be at least max_conns_per_ip (64)"},
		{"announce = \"nowhere\"", "announce:"},
		{"colour = \"green\"", "colour: unknown field"},
		{table("colour = 1\n"), "tables.colour: unknown field"},
		{table("") + table(""), "tables[1].name: \"A\" is used by another table"},
		{strings.Replace(table(""), "big_blind = 20", "big_blind = 5", 1), "tables[0].big_blind: must be at least the small blind"},
		{strings.Replace(table(""), "nlhe", "omaha", 1), "tables[0].variant:"},
		{strings.Replace(table(""), "seats = 6", "seats = 11", 1), "tables[0].seats:"},
		{strings.Replace(table(""), "\"A\"", "\"Lobby\"", 1), "tables[0].name:"},
		{table("bots = [\"nobody\"]\n"), "tables[0].bots:"},
		{table("action_seconds = 1\n"), "tables[0].action_seconds:"},
		{strings.Replace(table("straddle = true\n"), "nlhe", "flhe", 1), "tables[0].straddle:"},
		{"name = ", "house.toml"},
	} {
		_, err := loadHouseConfig(writeConfig(t, tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error with %q", tc.text, err, tc.want)
		}
	}
}

// limitsExample is the [limits] example of docs/house.md.
const limitsExample = `[limits]
login_failures = 5
address_login_failures = 50
lockout = "30s"
max_lockout = "1h"
forget_failures = "2h"
registrations = 3
registration_every = "10m"
guests = 100
guest_every = "0s"
max_hashes = 2
hash_wait = "5s"
max_tracked = 50000
`

func TestHouseConfigLimits(t *testing.T) {
	c, err := loadHouseConfig(writeConfig(t, limitsExample))
	if err != nil {
		t.Fatal(err)
	}
	l := c.houseSettings().Limits
	if l.LoginFailures != 5 || l.AddressLoginFailures != 50 || l.LockOut != 30*time.Second || l.MaxLockOut != time.Hour ||
		l.ForgetFailures != 2*time.Hour || l.Registrations.Burst != 3 || l.Registrations.Every != 10*time.Minute ||
		l.Guests.Every != 0 || l.MaxHashes != 2 || l.HashWait != 5*time.Second || l.MaxTracked != 50000 {
		t.Fatalf("%+v", l)
	}
	// Keys left out keep their defaults.
	c, err = loadHouseConfig(writeConfig(t, "[limits]\nlogin_failures = 3\n"))
	if err != nil || c.houseSettings().Limits.LoginFailures != 3 || c.houseSettings().Limits.Guests != house.DefaultLimits().Guests {
		t.Fatalf("partial: %+v %v", c.Limits, err)
	}
	for _, tc := range []struct{ text, want string }{
		{"[limits]\nlogin_failures = -1", "limits.login_failures: must not be negative"},
		{"[limits]\nlockout = \"0s\"", "limits.lockout: must be positive"},
		{"[limits]\nmax_lockout = \"1s\"", "limits.max_lockout: must be at least"},
		{"[limits]\nguests = 0", "limits.guests: must be at least 1"},
		{"[limits]\nhash_wait = \"soon\"", "hash_wait"},
		{"[limits]\nmax_tracked = 0", "limits.max_tracked:"},
		{"[limits]\ncolour = 1", "limits.colour: unknown field"},
	} {
		if _, err := loadHouseConfig(writeConfig(t, tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error with %q", tc.text, err, tc.want)
		}
	}
}
