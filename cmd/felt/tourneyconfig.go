package main

import (
	"fmt"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/tournament"
	"github.com/felt-poker/felt/internal/tournament/live"
)

// tournamentsConfig is the [tournaments] table of the house's config file
// (docs/house.md, "Tournaments").
type tournamentsConfig struct {
	// Bots may fill a sit-and-go's empty places bot_fill after its first
	// registration, or when an entrant asks; [] keeps bots out of tournaments.
	Bots      []string        `toml:"bots"`
	BotFill   duration        `toml:"bot_fill"`
	SitAndGo  []tourneyConfig `toml:"sit_and_go"`
	Scheduled []tourneyConfig `toml:"scheduled"`
}

// tourneyConfig is one sit-and-go or scheduled tournament.
type tourneyConfig struct {
	Name        string   `toml:"name"`
	Seats       int      `toml:"seats"`
	BuyIn       int64    `toml:"buy_in"`
	Stack       int64    `toml:"stack"`
	Level       duration `toml:"level"`
	MinEntrants int      `toml:"min_entrants"`
	MaxEntrants int      `toml:"max_entrants"`
	// Start is a scheduled tournament's first start (RFC 3339), or "HH:MM" (UTC)
	// for every day at that time; Every repeats a dated start ("168h": weekly).
	Start string   `toml:"start"`
	Every duration `toml:"every"`
}

func defaultTournaments() tournamentsConfig {
	return tournamentsConfig{
		Bots: []string{"chart", "montecarlo"}, BotFill: duration(2 * time.Minute),
		SitAndGo: []tourneyConfig{
			{Name: "Heads-up sit-and-go", Seats: 2, BuyIn: 100, Stack: 1500, Level: duration(3 * time.Minute)},
			{Name: "Six-max sit-and-go", Seats: 6, BuyIn: 200, Stack: 1500, Level: duration(5 * time.Minute)},
		},
		Scheduled: []tourneyConfig{
			{Name: "Nightly", Seats: 9, BuyIn: 500, Stack: 3000, Level: duration(10 * time.Minute), Start: "20:00"},
		},
	}
}

func (tc tourneyConfig) spec(kind string) tournament.Spec {
	return tournament.Spec{Name: tc.Name, Kind: kind, Seats: tc.Seats, BuyIn: tc.BuyIn, Stack: tc.Stack,
		LevelTime: time.Duration(tc.Level), MinEntrants: tc.MinEntrants, MaxEntrants: tc.MaxEntrants}
}

// minEvery bounds how often a scheduled tournament repeats: "every = 1ns"
// would start one at every tick of the director.
const minEvery = time.Hour

// schedule returns a scheduled tournament's first start and period.
func (tc tourneyConfig) schedule(now time.Time) (time.Time, time.Duration, error) {
	if at, err := time.Parse("15:04", tc.Start); err == nil {
		day := now.UTC().Truncate(24 * time.Hour)
		return day.Add(time.Duration(at.Hour())*time.Hour + time.Duration(at.Minute())*time.Minute), 24 * time.Hour, nil
	}
	at, err := time.Parse(time.RFC3339, tc.Start)
	if err != nil {
		return time.Time{}, 0, fmt.Errorf("%q is neither HH:MM nor an RFC 3339 time", tc.Start)
	}
	return at, time.Duration(tc.Every), nil
}

// director returns the director's configuration, checked; noBots keeps bots
// out. An error names the field.
func (c tournamentsConfig) director(noBots bool) (live.Config, error) {
	var out live.Config
	for i, b := range c.Bots {
		if err := bot.CheckUntrusted(b); err != nil {
			return out, fieldErr(fmt.Sprintf("tournaments.bots[%d]", i), "%v", err)
		}
	}
	if c.BotFill < 0 {
		return out, fieldErr("tournaments.bot_fill", "must not be negative")
	}
	if !noBots {
		out.Bots, out.BotFill = c.Bots, time.Duration(c.BotFill)
	}
	for i, tc := range c.SitAndGo {
		s := tc.spec(tournament.SitAndGo)
		s.Defaults()
		if err := s.Validate(); err != nil {
			return out, fieldErr(fmt.Sprintf("tournaments.sit_and_go[%d]", i), "%v", err)
		}
		out.SitAndGos = append(out.SitAndGos, s)
	}
	for i, tc := range c.Scheduled {
		field := fmt.Sprintf("tournaments.scheduled[%d]", i)
		at, every, err := tc.schedule(time.Now())
		if err != nil {
			return out, fieldErr(field+".start", "%v", err)
		}
		if every < 0 || every > 0 && every < minEvery {
			return out, fieldErr(field+".every", "must be 0 (once) or at least %v", minEvery)
		}
		s := tc.spec(tournament.Scheduled)
		s.Start = at
		s.Defaults()
		if err := s.Validate(); err != nil {
			return out, fieldErr(field, "%v", err)
		}
		if s.Seats < 3 {
			return out, fieldErr(field+".seats", "a scheduled tournament's tables have 3 seats or more")
		}
		out.Scheduled = append(out.Scheduled, live.Schedule{Spec: s, Every: every})
	}
	return out, nil
}
