// Command felt is a poker house, a dealer for bot tournaments and an AI lab in one
// program. Run "felt --help" for the subcommands.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/alecthomas/kong"
)

// cli lists felt's subcommands; each one lives in a file of its own named after it.
type cli struct {
	Serve     serveCmd     `cmd:"" help:"Run the poker house: accounts, lobby, tables with bots, the HTTP and WebSocket API."`
	Houses    housesCmd    `cmd:"" help:"List the felt houses announcing themselves on the local network."`
	Verify    verifyCmd    `cmd:"" help:"Check that a hand from a felt house was dealt from the seed committed to before it."`
	Bench     benchCmd     `cmd:"" help:"Measure felt's hot paths on this machine."`
	Equity    equityCmd    `cmd:"" help:"Win, tie and equity of hands or ranges, exact or by Monte Carlo."`
	Solve     solveCmd     `cmd:"" help:"Solve a heads-up no-limit turn or river spot (DCFR): strategy per hand, range grid, JSON; reads TexasSolver command files."`
	Replay    replayCmd    `cmd:"" help:"Print a PHH hand history street by street."`
	Sim       simCmd       `cmd:"" name:"simulate" help:"Play hands with random legal actions and write them as PHH or PokerStars text."`
	Match     matchCmd     `cmd:"" help:"Two bots heads-up in duplicate: bb/100 with a 95% confidence interval."`
	League    leagueCmd    `cmd:"" help:"Every bot against every other in duplicate: a cross table and a ranking."`
	Gauntlet  gauntletCmd  `cmd:"" help:"One bot in duplicate against every exploiter (all-in, calling station, pot-odds caller, min-raiser, maniac, tight-aggressive): each result and the worst case."`
	LBR       lbrCmd       `cmd:"" name:"lbr" help:"Local Best Response against a Hold'em bot (no-limit, pot-limit or fixed-limit): a lower bound on what a best response wins from it, in mbb/g."`
	Worker    workerCmd    `cmd:"" help:"Play the deals that match, league, gauntlet and lbr share out with --nats (NATS JetStream)."`
	Evolve    evolveCmd    `cmd:"" help:"Evolve neural bots by play, with a hall of fame; writes the champion's weights."`
	Tourn     tourCmd      `cmd:"" name:"tournament" help:"Every bot at one table until one is left: finishing order, bb/100, charts, CSV and XLSX."`
	Blueprint blueprintCmd `cmd:"" help:"Train the heads-up no-limit blueprint (MCCFR at several stack depths) that the resolve bot plays."`
	Train     trainCmd     `cmd:"" help:"Train CFR strategies (Kuhn, Leduc, heads-up limit Hold'em) with exploitability, checkpoints and curves."`
	Dealer    dealerCmd    `cmd:"" help:"Casino Day three card stud dealer for network bots, with a spectator page."`
	Stud      studCmd      `cmd:"" name:"stud-bot" help:"Reference Casino Day client: plays three card stud against a felt dealer."`
	Grade     gradeCmd     `cmd:"" help:"Grade a Casino Day bot: it connects, plays scripted situations, gets a report per rubric line."`
	ACPC      acpcCmd      `cmd:"" name:"acpc" help:"ACPC protocol 2.0.0 dealer: duplicate heads-up Hold'em, a port per seat, ACPC logs."`
	Bot       botCmd       `cmd:"" help:"Connect a felt bot to a dealer (--acpc HOST:PORT)."`
	ACPCScore acpcScoreCmd `cmd:"" name:"acpc-score" help:"A player's win rate in mbb/g ± 95% over ACPC logs (two logs of one match with the seats swapped: duplicate)."`
}

// exitError carries the exit code a subcommand wants (2 for bad input).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageError marks bad input from the command line: felt prints it and exits with 2.
func usageError(format string, args ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, args...)}
}

func main() {
	// Every command stops cleanly on SIGINT or SIGTERM through this context (the
	// house refunds its hands, training writes a checkpoint, matches stop).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var c cli
	parser, err := kong.New(&c,
		kong.BindTo(ctx, (*context.Context)(nil)),
		kong.Name("felt"),
		kong.Description("felt: a self-hosted poker house, bot-tournament dealer and poker AI lab. Play money only."),
		kong.UsageOnError(),
	)
	if err != nil {
		panic(err)
	}
	kctx, err := parser.Parse(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "felt:", err)
		os.Exit(2)
	}
	if err := kctx.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "felt:", err)
		var e *exitError
		if errors.As(err, &e) { // kong's Run wraps the command's error (errors.Join)
			os.Exit(e.code)
		}
		os.Exit(1)
	}
}
