package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/felt-poker/felt/internal/dealer/casino"
)

// gradeCmd is "felt grade": grade one Casino Day bot against the rubric.
type gradeCmd struct {
	Host    string        `default:"127.0.0.1" help:"Address to listen on for the bot."`
	Port    int           `default:"4000" help:"Port to listen on; start the bot against it."`
	Timeout time.Duration `default:"1s" help:"Time the bot has for each answer."`
	Wait    time.Duration `default:"2m" help:"How long to wait for the bot to connect."`
}

// Help is the long help of "felt grade".
func (c *gradeCmd) Help() string {
	return `A student's bot is a client, so the grader plays the dealer: it listens on HOST:PORT,
the bot connects as it would to "felt dealer", and the grader asks login twice, a dozen
scripted bet1/bet2 questions with status messages between them, and then done. It prints
one line per rubric item. The exit code is 1 when a protocol line (login, time, legal
bets, closing after done) fails, 0 otherwise; strategy lines are advice.`
}

// Run is called by kong.
func (c *gradeCmd) Run(ctx context.Context) error {
	ln, err := net.Listen("tcp", net.JoinHostPort(c.Host, strconv.Itoa(c.Port)))
	if err != nil {
		return fmt.Errorf("grade: %w", err)
	}
	fmt.Printf("grader listening on %s: start your bot against it\n", ln.Addr())
	return c.run(ctx, ln, os.Stdout)
}

func (c *gradeCmd) run(ctx context.Context, ln net.Listener, out io.Writer) error {
	defer ln.Close()
	ctx, cancel := context.WithTimeout(ctx, c.Wait)
	defer cancel()
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	conn, err := ln.Accept()
	stop()
	if err != nil {
		return fmt.Errorf("grade: no bot connected within %v: %w", c.Wait, err)
	}
	ln.Close()
	rep := casino.Grade(context.Background(), conn, c.Timeout)
	printReport(out, rep)
	if !rep.ProtocolOK() {
		return &exitError{code: 1, err: fmt.Errorf("grade: a protocol line failed")}
	}
	return nil
}

// printReport writes one line per rubric item.
func printReport(out io.Writer, r casino.Report) {
	fmt.Fprintf(out, "bot %q (avatar %q) from %s\n", r.ID, r.Avatar, r.Addr)
	protocol, strategy, pp, sp := 0, 0, 0, 0
	for _, l := range r.Lines {
		mark := "PASS"
		if !l.Pass {
			mark = "FAIL"
		}
		kind := "strategy"
		if l.Protocol {
			kind = "protocol"
			protocol++
			if l.Pass {
				pp++
			}
		} else {
			strategy++
			if l.Pass {
				sp++
			}
		}
		fmt.Fprintf(out, "%s  [%s] %s\n      %s\n", mark, kind, l.Name, l.Detail)
	}
	fmt.Fprintf(out, "protocol: %d of %d pass; strategy: %d of %d pass\n", pp, protocol, sp, strategy)
}
