package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/dealer/casino"
	"github.com/felt-poker/felt/internal/web"
)

// runDealerPage runs felt dealer with its page, waiting for 2 players, until
// the test ends; it returns the players' address and the page's.
func runDealerPage(t *testing.T) (players, page string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c := &dealerCmd{Addr: "127.0.0.1:0", HTTP: "127.0.0.1:0", Players: 2, MaxPlayers: 10, Stack: 100, Ante: 1,
		Timeout: time.Minute, Bot: "stud", TableSize: 10, FlushWait: time.Second}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- c.run(ctx, pw, slog.New(slog.DiscardHandler))
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	lines := bufio.NewScanner(pr)
	for page == "" && lines.Scan() {
		l := lines.Text()
		if a, ok := strings.CutPrefix(l, "dealer listening on "); ok {
			players, _, _ = strings.Cut(a, ";")
		}
		if a, ok := strings.CutPrefix(l, "spectator page on http://"); ok {
			page = strings.TrimSuffix(a, "/")
		}
	}
	if page == "" || players == "" {
		t.Fatalf("felt dealer printed no addresses: %v", lines.Err())
	}
	go io.Copy(io.Discard, pr)
	return players, page
}

// closedWithin reports that the server closed c (after what it sent) within d.
func closedWithin(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

// readEvent reads one Server-Sent Event's data line.
func readEvent(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("event stream: %v", err)
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			return data
		}
	}
}

// TestDealerPageTimeouts: felt dealer's spectator page bounds its connections as
// felt serve does (web.DefaultLimits). A connection that sends half a request
// header, or stays idle after a request, is closed once its timeout passes
// (before, an idle one was held until its client hung up: a script could hold
// as many as it opened), while an event stream opened first, older than every
// timeout by then, still gets the page's snapshots.
func TestDealerPageTimeouts(t *testing.T) {
	const limit = 300 * time.Millisecond
	defer func(l web.Limits) { dealerPageLimits = l }(dealerPageLimits)
	dealerPageLimits = web.Limits{ReadHeaderTimeout: limit, ReadTimeout: limit, WriteTimeout: limit, IdleTimeout: limit}
	players, page := runDealerPage(t)

	stream := dial(t, page)
	fmt.Fprintf(stream, "GET /events HTTP/1.1\r\nHost: %s\r\n\r\n", page)
	stream.SetReadDeadline(time.Now().Add(20 * time.Second)) // the stream is never idle that long here
	events := bufio.NewReader(stream)
	readEvent(t, events)

	half := dial(t, page)
	fmt.Fprintf(half, "GET /state HTTP/1.1\r\nHost: %s\r\n", page) // and no end
	if !closedWithin(half, 20*time.Second) {
		t.Fatal("a connection holding half a request header was never closed")
	}

	idle := dial(t, page)
	fmt.Fprintf(idle, "GET /state HTTP/1.1\r\nHost: %s\r\n\r\n", page)
	if line, err := bufio.NewReader(idle).ReadString('\n'); err != nil || !strings.Contains(line, " 200 ") {
		t.Fatalf("GET /state: %q %v", line, err)
	}
	if !closedWithin(idle, 20*time.Second) {
		t.Fatal("an idle kept-alive connection was never closed")
	}

	// A login changes the snapshot: the stream must carry it.
	player := dial(t, players)
	if msg, err := casino.ReadUTF(player); err != nil || msg != casino.MsgLogin {
		t.Fatalf("dealer's first message %q %v", msg, err)
	}
	casino.WriteUTF(player, casino.Login("alice", "Cat"))
	for !strings.Contains(readEvent(t, events), `"alice"`) {
	}
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
