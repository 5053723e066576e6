package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/felt-poker/felt/internal/announce"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/lobby"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/web"
)

// houseConfig is the file of "felt serve --config FILE": the house's own
// settings, in TOML (docs/house.md). Every key is optional; a missing one keeps
// its default.
type houseConfig struct {
	Name           string   `toml:"name"`
	SignupCredits  int64    `toml:"signup_credits"`
	GuestCredits   int64    `toml:"guest_credits"`
	RefillBelow    int64    `toml:"refill_below"`
	RefillTo       int64    `toml:"refill_to"`
	RefillInterval duration `toml:"refill_interval"`
	RankMinHands   int64    `toml:"rank_min_hands"`
	// SessionIdle is house.Config.SessionIdle: a login unused this long ends.
	SessionIdle   duration `toml:"session_idle"`
	MaxConnsPerIP int      `toml:"max_conns_per_ip"`
	MaxTables     int      `toml:"max_tables_per_player"`
	// Metrics is who may read GET /metrics: "local" (the machine itself) or "public".
	Metrics string `toml:"metrics"`
	// MaxHTTPConnsPerIP bounds every connection (WebSockets included) per address.
	MaxHTTPConnsPerIP int `toml:"max_http_conns_per_ip"`
	// Announce is where the house sends its beacon; "off" (or "") sends none.
	Announce string        `toml:"announce"`
	Limits   limitsConfig  `toml:"limits"`
	Tables   []tableConfig `toml:"tables"`

	// HandsPublicAfter is house.Config.HandsPublicAfter ("0s": never).
	HandsPublicAfter duration `toml:"hands_public_after"`
	// SitOutLimit is table.Config.SitOutLimit for every table of the house.
	SitOutLimit duration `toml:"sit_out_limit"`
	// ReturnWindow is table.Config.ReturnWindow for every table of the house.
	ReturnWindow duration `toml:"return_window"`
	// Tournaments are the house's sit-and-goes and scheduled tournaments.
	Tournaments tournamentsConfig `toml:"tournaments"`
}

// limitsConfig is the [limits] table: failed logins, new accounts per address
// and password hashes at once (house.Limits, docs/security.md).
type limitsConfig struct {
	LoginFailures        int      `toml:"login_failures"`
	AddressLoginFailures int      `toml:"address_login_failures"`
	LockOut              duration `toml:"lockout"`
	MaxLockOut           duration `toml:"max_lockout"`
	ForgetFailures       duration `toml:"forget_failures"`
	Registrations        int      `toml:"registrations"`
	RegistrationEvery    duration `toml:"registration_every"`
	Guests               int      `toml:"guests"`
	GuestEvery           duration `toml:"guest_every"`
	TableOpens           int      `toml:"table_opens"`
	TableOpenEvery       duration `toml:"table_open_every"`
	MaxHashes            int      `toml:"max_hashes"`
	HashWait             duration `toml:"hash_wait"`
	MaxTracked           int      `toml:"max_tracked"`
}

func limitsConfigOf(l house.Limits) limitsConfig {
	return limitsConfig{
		LoginFailures: l.LoginFailures, AddressLoginFailures: l.AddressLoginFailures,
		LockOut: duration(l.LockOut), MaxLockOut: duration(l.MaxLockOut), ForgetFailures: duration(l.ForgetFailures),
		Registrations: l.Registrations.Burst, RegistrationEvery: duration(l.Registrations.Every),
		Guests: l.Guests.Burst, GuestEvery: duration(l.Guests.Every),
		TableOpens: l.TableOpens.Burst, TableOpenEvery: duration(l.TableOpens.Every),
		MaxHashes: l.MaxHashes, HashWait: duration(l.HashWait), MaxTracked: l.MaxTracked,
	}
}

func (c limitsConfig) limits() house.Limits {
	return house.Limits{
		LoginFailures: c.LoginFailures, AddressLoginFailures: c.AddressLoginFailures,
		LockOut: time.Duration(c.LockOut), MaxLockOut: time.Duration(c.MaxLockOut), ForgetFailures: time.Duration(c.ForgetFailures),
		Registrations: house.Rate{Burst: c.Registrations, Every: time.Duration(c.RegistrationEvery)},
		Guests:        house.Rate{Burst: c.Guests, Every: time.Duration(c.GuestEvery)},
		TableOpens:    house.Rate{Burst: c.TableOpens, Every: time.Duration(c.TableOpenEvery)},
		MaxHashes:     c.MaxHashes, HashWait: time.Duration(c.HashWait), MaxTracked: c.MaxTracked,
	}
}

// tableConfig is one of the house's own tables: open from the start, bots seated,
// never closed for lack of players.
type tableConfig struct {
	Name          string `toml:"name"`
	Variant       string `toml:"variant"`
	Seats         int    `toml:"seats"`
	SmallBlind    int64  `toml:"small_blind"`
	BigBlind      int64  `toml:"big_blind"`
	Ante          int64  `toml:"ante"`
	MinBuyIn      int64  `toml:"min_buy_in"`
	MaxBuyIn      int64  `toml:"max_buy_in"`
	ActionSeconds int    `toml:"action_seconds"`
	Schedule      struct {
		EveryHands   int `toml:"every_hands"`
		EveryMinutes int `toml:"every_minutes"`
	} `toml:"schedule"`
	Bots       []string `toml:"bots"`
	Straddle   bool     `toml:"straddle"`
	RunItTwice bool     `toml:"run_it_twice"`
}

// duration is a time.Duration written as "24h", "90m".
type duration time.Duration

func (d *duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration like \"24h\" or \"90m\"", b)
	}
	*d = duration(v)
	return nil
}

// defaultHouseConfig is a house without a config file: house.DefaultConfig, the
// three default tables, at most 64 WebSockets and 128 connections in all per IP
// address, announced to announce.DefaultGroup.
func defaultHouseConfig() houseConfig {
	h := house.DefaultConfig()
	return houseConfig{
		Name: "felt", SignupCredits: h.SignupCredits, GuestCredits: h.GuestCredits, RefillBelow: h.RefillBelow,
		RefillTo: h.RefillTo, RefillInterval: duration(h.RefillInterval), RankMinHands: h.RankMinHands, SessionIdle: duration(h.SessionIdle),
		MaxConnsPerIP: 64, MaxHTTPConnsPerIP: web.DefaultMaxHTTPConnsPerIP, MaxTables: 4, Metrics: "local", Announce: announce.DefaultGroup,
		Limits: limitsConfigOf(h.Limits),
		Tables: []tableConfig{
			{Name: "Main", Variant: table.NoLimit, Seats: 6, SmallBlind: 10, BigBlind: 20, MinBuyIn: 400, MaxBuyIn: 2000, Bots: []string{"chart", "montecarlo"}},
			{Name: "Limit", Variant: table.FixedLimit, Seats: 6, SmallBlind: 5, BigBlind: 10, MinBuyIn: 100, MaxBuyIn: 1000, Bots: []string{"chart", "hsppot"}},
			{Name: "Stud", Variant: table.StudThree, Seats: 5, Ante: 1, MinBuyIn: 20, MaxBuyIn: 200, Bots: []string{"chart", "random"}},
		},
		HandsPublicAfter: duration(h.HandsPublicAfter), SitOutLimit: duration(5 * time.Minute),
		ReturnWindow: duration(table.DefaultReturnWindow),
		Tournaments:  defaultTournaments(),
	}
}

// loadHouseConfig reads the config file at path over the defaults and checks
// it; "" gives the defaults. Every error names the file and the field at fault.
func loadHouseConfig(path string) (houseConfig, error) {
	c := defaultHouseConfig()
	if path == "" {
		return c, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return c, fmt.Errorf("config: %w", err)
	}
	return parseHouseConfig(path, data)
}

// parseHouseConfig reads the config file path's contents over the defaults and
// checks it.
func parseHouseConfig(path string, data []byte) (houseConfig, error) {
	c := defaultHouseConfig()
	c.Tables = nil
	c.Tournaments.SitAndGo, c.Tournaments.Scheduled = nil, nil
	md, err := toml.Decode(string(data), &c)
	if err != nil {
		return c, fmt.Errorf("config %s: %w", path, err)
	}
	if !md.IsDefined("tables") {
		c.Tables = defaultHouseConfig().Tables
	}
	def := defaultHouseConfig().Tournaments
	if !md.IsDefined("tournaments", "sit_and_go") {
		c.Tournaments.SitAndGo = def.SitAndGo
	}
	if !md.IsDefined("tournaments", "scheduled") {
		c.Tournaments.Scheduled = def.Scheduled
	}
	if u := md.Undecoded(); len(u) > 0 {
		return c, fmt.Errorf("config %s: %s: unknown field", path, u[0])
	}
	if err := c.check(); err != nil {
		return c, fmt.Errorf("config %s: %w", path, err)
	}
	return c, nil
}

// fieldErr is an error naming a field of the file: "field: message".
func fieldErr(field, format string, args ...any) error {
	return &house.FieldError{Field: field, Message: fmt.Sprintf(format, args...), Err: house.ErrInvalid}
}

// check validates the house's settings and each table's (tables against a
// placeholder bank: the house opens them with its own).
func (c *houseConfig) check() error {
	switch {
	case c.Name == "" || len(c.Name) > announce.MaxName || !announce.PrintableName(c.Name):
		return fieldErr("name", "must be 1 to %d bytes without control characters", announce.MaxName)
	case c.SignupCredits < 0:
		return fieldErr("signup_credits", "must not be negative")
	case c.GuestCredits < 0:
		return fieldErr("guest_credits", "must not be negative")
	case c.RefillBelow < 0:
		return fieldErr("refill_below", "must not be negative")
	case c.RefillTo < c.RefillBelow:
		return fieldErr("refill_to", "must be at least refill_below (%d)", c.RefillBelow)
	case c.RefillInterval < 0:
		return fieldErr("refill_interval", "must not be negative")
	case c.SessionIdle < duration(time.Minute):
		return fieldErr("session_idle", "must be at least 1m")
	case c.RankMinHands < 0:
		return fieldErr("rank_min_hands", "must not be negative")
	case c.SitOutLimit < duration(time.Minute):
		return fieldErr("sit_out_limit", "must be at least 1m")
	case c.ReturnWindow < duration(time.Minute) || c.ReturnWindow > duration(24*time.Hour):
		return fieldErr("return_window", "must be 1m to 24h")
	case c.HandsPublicAfter < 0:
		return fieldErr("hands_public_after", "must not be negative (\"0s\": never)")
	case c.MaxConnsPerIP < 0:
		return fieldErr("max_conns_per_ip", "must not be negative (0: no limit)")
	case c.Metrics != "local" && c.Metrics != "public":
		return fieldErr("metrics", "%q is neither \"local\" nor \"public\"", c.Metrics)
	case c.MaxTables < 0:
		return fieldErr("max_tables_per_player", "must not be negative (0: no limit)")
	case c.MaxHTTPConnsPerIP < 0:
		return fieldErr("max_http_conns_per_ip", "must not be negative (0: no limit)")
	case c.MaxHTTPConnsPerIP > 0 && c.MaxHTTPConnsPerIP < c.MaxConnsPerIP:
		return fieldErr("max_http_conns_per_ip", "must be at least max_conns_per_ip (%d): WebSockets are connections too", c.MaxConnsPerIP)
	}
	if err := c.Limits.limits().Validate(); err != nil {
		return err
	}
	if a := c.Announce; a != "" && a != "off" {
		if _, _, err := net.SplitHostPort(a); err != nil {
			return fieldErr("announce", "%q is not HOST:PORT (or \"off\")", a)
		}
	}
	if _, err := c.Tournaments.director(false); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, tc := range c.Tables {
		if _, err := c.table(i, nopBank{}); err != nil {
			return err
		}
		key := strings.ToLower(tc.Name)
		if seen[key] {
			return fieldErr(fmt.Sprintf("tables[%d].name", i), "%q is used by another table", tc.Name)
		}
		seen[key] = true
	}
	return nil
}

// houseSettings returns the house's configuration.
func (c *houseConfig) houseSettings() house.Config {
	h := house.DefaultConfig()
	h.SignupCredits, h.GuestCredits, h.RefillBelow, h.RefillTo = c.SignupCredits, c.GuestCredits, c.RefillBelow, c.RefillTo
	h.RefillInterval, h.RankMinHands = time.Duration(c.RefillInterval), c.RankMinHands
	h.SessionIdle = time.Duration(c.SessionIdle)
	h.Limits = c.Limits.limits()
	h.HandsPublicAfter = time.Duration(c.HandsPublicAfter)
	return h
}

// table returns the configuration of table i, checked, with bank; an error names
// the field as tables[i].field.
func (c *houseConfig) table(i int, bank table.Bank) (table.Config, error) {
	tc := c.Tables[i]
	prefix := fmt.Sprintf("tables[%d].", i)
	if err := lobby.ValidName(tc.Name); err != nil {
		return table.Config{}, prefixField(prefix, err)
	}
	action, err := table.ActionTime(tc.ActionSeconds)
	if err != nil {
		return table.Config{}, prefixField(prefix, err)
	}
	cfg := table.Config{
		Name: tc.Name, Variant: tc.Variant, Seats: tc.Seats, SmallBlind: tc.SmallBlind, BigBlind: tc.BigBlind,
		Ante: tc.Ante, MinBuyIn: tc.MinBuyIn, MaxBuyIn: tc.MaxBuyIn, ActionTime: action,
		Schedule: table.Schedule{EveryHands: tc.Schedule.EveryHands, EveryMinutes: tc.Schedule.EveryMinutes},
		Bots:     tc.Bots, Permanent: true, Bank: bank, Straddle: tc.Straddle, RunItTwice: tc.RunItTwice,
	}
	check := cfg
	check.DefaultTimes()
	if err := check.Validate(); err != nil {
		return table.Config{}, prefixField(prefix, err)
	}
	return cfg, nil
}

// prefixField puts prefix before the field a *house.FieldError names.
func prefixField(prefix string, err error) error {
	var fe *house.FieldError
	if !errors.As(err, &fe) {
		return fmt.Errorf("%s%w", prefix, err)
	}
	msg := strings.TrimPrefix(fe.Message, fe.Field+": ")
	return fieldErr(prefix+fe.Field, "%s", msg)
}

// nopBank stands in for the house when a table's settings are checked.
type nopBank struct{ table.Bank }
