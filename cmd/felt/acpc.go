package main

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/dealer/acpc"
	"github.com/felt-poker/felt/internal/dealer/casino"
	"github.com/felt-poker/felt/internal/engine"
)

// acpcCmd is "felt acpc": a dealer speaking the ACPC protocol 2.0.0.
type acpcCmd struct {
	Game      string        `default:"holdem.limit.2p.reverse_blinds" help:"Game definition file, or the name of a built-in one (holdem.limit.2p.reverse_blinds, holdem.nolimit.2p.reverse_blinds)."`
	Host      string        `default:"127.0.0.1" help:"Address to listen on."`
	Ports     []int         `default:"18791,18792" help:"One port per seat: the player of the first port is player 1 (0 picks a free port)."`
	Deals     int           `default:"1000" help:"Deals to play; each is played twice with the seats swapped (duplicate)."`
	Seed      string        `help:"Seed of the deals (decimal or 64 hex digits; default random)."`
	Timeout   time.Duration `default:"10s" help:"Most time for one action (ACPC's t_response); a late, malformed or illegal action becomes a check or call."`
	HandTime  time.Duration `name:"hand-time" default:"0" help:"Most time a player may spend on one hand (ACPC's t_hand); once spent, its actions of the hand are replaced at once. 0: no limit."`
	MatchTime time.Duration `name:"match-time" default:"0" help:"Each player's time bank for the whole match (ACPC: 7s a hand, e.g. 3h53m20s for 1000 deals); once spent, its actions are replaced at once. 0: no limit."`
	Names     []string      `default:"p1,p2" help:"The players' names in the log."`
	Log       string        `default:"felt-acpc.log" help:"ACPC log file (STATE lines and the final SCORE); empty for none."`
}

// Run is called by kong.
func (c *acpcCmd) Run(ctx context.Context) error {
	g, err := loadGame(c.Game)
	if err != nil {
		return usageError("--game: %v", err)
	}
	if len(c.Ports) != 2 || len(c.Names) != 2 {
		return usageError("--ports and --names take two values, one per seat")
	}
	if c.Timeout <= 0 || c.HandTime < 0 || c.MatchTime < 0 {
		return usageError("--timeout must be positive, --hand-time and --match-time not negative")
	}
	m := acpc.Match{Game: g, Deals: c.Deals, Timeout: c.Timeout, HandTime: c.HandTime, MatchTime: c.MatchTime, Names: [2]string{c.Names[0], c.Names[1]},
		Logger: slog.New(slog.NewTextHandler(os.Stderr, nil))}
	if c.Seed != "" {
		s, err := cards.ParseSeed(c.Seed)
		if err != nil {
			return usageError("--seed: %v", err)
		}
		m.Seed = &s
	}
	if c.Log != "" {
		f, err := os.Create(c.Log)
		if err != nil {
			return fmt.Errorf("acpc log: %w", err)
		}
		defer f.Close()
		m.Log = f
	}
	var lns [2]net.Listener
	for i, p := range c.Ports {
		ln, err := net.Listen("tcp", net.JoinHostPort(c.Host, strconv.Itoa(p)))
		if err != nil {
			return fmt.Errorf("acpc: seat %d: %w", i+1, err)
		}
		lns[i] = ln
	}
	fmt.Printf("ACPC dealer: %s on ports %s and %s\n", c.Game, portOf(lns[0]), portOf(lns[1]))
	score, err := m.Run(ctx, lns)
	fmt.Printf("%d hands; score %s %+d, %s %+d\n", score.Hands, c.Names[0], score.Total[0], c.Names[1], score.Total[1])
	for i, n := range c.Names {
		if score.Replaced[i] > 0 {
			fmt.Printf("%s: %d actions replaced (%d out of time); thinking time %v\n", n, score.Replaced[i], score.Late[i], score.Used[i].Round(time.Millisecond))
		}
	}
	return err
}

func portOf(ln net.Listener) string { return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port) }

// loadGame reads a game definition file, or a built-in one by name.
func loadGame(name string) (*acpc.GameDef, error) {
	f, err := os.Open(name)
	if err != nil {
		if g, berr := acpc.Builtin(name); berr == nil {
			return g, nil
		}
		return nil, err
	}
	defer f.Close()
	return acpc.ParseGameDef(f)
}

// acpcBotGame is the game an ACPC game definition deals, as a bot is told it.
func acpcBotGame(g *acpc.GameDef) *bot.Game {
	s := engine.NoLimit
	if g.Limit {
		s = engine.FixedLimit
	}
	return &bot.Game{Variant: engine.Holdem, Structure: s, Seats: g.NumPlayers}
}

// botCmd is "felt bot": connect a felt bot to a dealer.
type botCmd struct {
	ACPC   string        `name:"acpc" required:"" placeholder:"HOST:PORT" help:"ACPC dealer to play on."`
	Game   string        `default:"holdem.limit.2p.reverse_blinds" help:"Game definition file or built-in name (as felt acpc)."`
	Bot    string        `default:"chart" help:"The felt bot to play (see internal/bot; stud is for Casino Day only)."`
	Seed   uint64        `help:"Seed of the bot's random choices."`
	Budget time.Duration `help:"Time the bot may take per decision (e.g. 1s; 0: none but the bot's own)."`
	// The dealer's clocks: the defaults are within both felt acpc's and the ACPC
	// dealer's defaults (10s, none, none and 10m, 10m, 7s a hand).
	Timeout  time.Duration `default:"10s" help:"The dealer's most time for one action (ACPC's --t_response); the bot's deadline stays inside it. 0: none."`
	HandTime time.Duration `name:"hand-time" default:"0" help:"The dealer's most time for one hand (ACPC's --t_hand). 0: none."`
	PerHand  time.Duration `name:"per-hand" default:"7s" help:"The dealer's average time a hand over the match (ACPC's --t_per_hand; felt acpc's --match-time divided by the hands). 0: none."`
	Idle     time.Duration `default:"20m" help:"Most time to wait on the dealer for its next line; past it the bot gives up with an error. 0: no limit."`
}

// Run is called by kong.
func (c *botCmd) Run(ctx context.Context) error {
	g, err := loadGame(c.Game)
	if err != nil {
		return usageError("--game: %v", err)
	}
	if strings.EqualFold(c.Bot, casino.StudBotName) {
		return usageError("--bot stud plays three card stud only")
	}
	b, err := casino.NewBot(c.Bot, acpcBotGame(g), rand.New(rand.NewPCG(c.Seed, 0)))
	if err != nil {
		return usageError("--bot: %v", err)
	}
	conn, err := (&net.Dialer{Timeout: 10 * time.Second}).DialContext(ctx, "tcp", c.ACPC)
	if err != nil {
		return fmt.Errorf("bot: %w", err)
	}
	if c.Budget < 0 || c.Timeout < 0 || c.HandTime < 0 || c.PerHand < 0 || c.Idle < 0 {
		return usageError("--budget, --timeout, --hand-time, --per-hand and --idle must not be negative")
	}
	cl := acpc.Client{Game: g, Bot: b, Budget: c.Budget, Timeout: c.Timeout, HandTime: c.HandTime, PerHand: c.PerHand, Idle: c.Idle,
		Log: os.Stderr}
	sum, err := cl.Play(ctx, conn)
	fmt.Printf("%s played %d hands; %s\n", c.Bot, sum.Hands, answeredFor(sum.Panics, sum.Late))
	return err
}

// answeredFor says how many decisions a client answered for its bot (a check or
// fold) because the bot panicked and because it was late (bot.Guard).
func answeredFor(panics, late int) string {
	return fmt.Sprintf("answered for the bot: %d decisions after a panic, %d out of time", panics, late)
}
