package casino

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/history"
)

const testTimeout = 80 * time.Millisecond

// behaviour is how a scripted test client answers a question (nil: never answers).
type behaviour func(conn net.Conn, question string, n int) (reply string, stop bool)

// scripted is a test client: it logs in as id and answers questions as b says. It
// returns every message it got.
func scripted(t *testing.T, addr, id string, b behaviour) <-chan []string {
	t.Helper()
	out := make(chan []string, 1)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer conn.Close()
		var got []string
		defer func() { out <- got }()
		n := 0
		for {
			msg, err := ReadUTF(conn)
			if err != nil {
				return
			}
			got = append(got, msg)
			switch {
			case msg == MsgLogin:
				WriteUTF(conn, Login(id, "Test"))
			case strings.HasPrefix(msg, "bet"):
				n++
				if b == nil {
					continue // stall: read on, never answer
				}
				reply, stop := b(conn, msg, n)
				if stop {
					return
				}
				WriteUTF(conn, reply)
			}
		}
	}()
	return out
}

// startDealer runs a dealer on a loopback port and returns its address and result.
func startDealer(t *testing.T, cfg Config) (*Dealer, string, <-chan Result) {
	t.Helper()
	if cfg.Timeout == 0 {
		cfg.Timeout = testTimeout
	}
	if cfg.Seed == nil {
		s := cards.SeedFromUint64(7)
		cfg.Seed = &s
	}
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	res := make(chan Result, 1)
	go func() {
		r, err := d.Run(context.Background(), ln)
		if err != nil {
			t.Error(err)
		}
		res <- r
	}()
	return d, ln.Addr().String(), res
}

func wait[T any](t *testing.T, c <-chan T) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(20 * time.Second):
		t.Fatal("timed out")
	}
	panic("unreachable")
}

func checkChips(t *testing.T, r Result, players int, stack int64) {
	t.Helper()
	var sum int64
	for _, s := range r.Standings {
		sum += s.Chips
	}
	if len(r.Standings) != players || sum != int64(players)*stack {
		t.Fatalf("%d standings with %d chips, want %d with %d: %+v", len(r.Standings), sum, players, int64(players)*stack, r.Standings)
	}
}

func standing(r Result, id string) Standing {
	for _, s := range r.Standings {
		if s.ID == id {
			return s
		}
	}
	return Standing{}
}

// TestBadClientsDoNotStopTheGame seats well-behaved clients next to clients that
// stall, send garbage, drop mid-hand, reply too late and bet too much: each bad one
// goes out with its reason, the game goes on to its end and no chip is lost.
// Every client but the late one answers at once, and must never be taken for
// too slow: the clock is the dealer's default, which an answer over loopback
// meets even on a machine so loaded (40 on two cores) that a goroutine waits a
// tenth of a second or more for a core; testTimeout's 80 ms it did not.
func TestBadClientsDoNotStopTheGame(t *testing.T) {
	const timeout = DefaultTimeout
	var log bytes.Buffer
	_, addr, res := startDealer(t, Config{Players: 8, Hands: 40, Stack: 30, HandLog: &log, Timeout: timeout})
	ref := func(conn net.Conn, q string, n int) (string, bool) {
		m, err := ParseMessage(q)
		if err != nil {
			return "garbled", false
		}
		v, err := ViewOf(m)
		if err != nil {
			return "garbled", false
		}
		return ChipsReply(v.Legal, Reference{}.Act(&v)), false
	}
	clients := map[string]<-chan []string{}
	for i := range 3 {
		id := fmt.Sprintf("good%d", i)
		clients[id] = scripted(t, addr, id, ref)
	}
	clients["staller"] = scripted(t, addr, "staller", nil)
	clients["garbage"] = scripted(t, addr, "garbage", func(net.Conn, string, int) (string, bool) { return "bet:lots", false })
	clients["dropper"] = scripted(t, addr, "dropper", func(conn net.Conn, q string, n int) (string, bool) {
		if n == 2 {
			return "", true // hang up instead of answering the second question
		}
		return ref(conn, q, n)
	})
	clients["late"] = scripted(t, addr, "late", func(conn net.Conn, q string, n int) (string, bool) {
		time.Sleep(timeout + 40*time.Millisecond) // the point of this client: too late
		return "fold", false
	})
	clients["greedy"] = scripted(t, addr, "greedy", func(conn net.Conn, q string, n int) (string, bool) {
		m, _ := ParseMessage(q)
		toCall := int64(0)
		if m.Bet1 != nil {
			toCall = m.Bet1.ToCall
		} else if m.Bet2 != nil {
			toCall = m.Bet2.ToCall
		}
		return Bet(toCall + MaxRaise + 1), false
	})
	r := wait(t, res)
	checkChips(t, r, 8, 30)
	for id, want := range map[string]string{"staller": ReasonTooSlow, "garbage": ReasonIllegal, "dropper": ReasonDisconnected, "late": ReasonTooSlow, "greedy": ReasonIllegal} {
		s := standing(r, id)
		if !s.Out || s.Reason != want {
			t.Errorf("%s: %+v, want out for %q", id, s, want)
		}
		got := wait(t, clients[id])
		if id != "dropper" && (len(got) == 0 || got[len(got)-1] != Done(want)) {
			t.Errorf("%s got %q, want it to end with %q", id, got, Done(want))
		}
	}
	for i := range 3 {
		id := fmt.Sprintf("good%d", i)
		s := standing(r, id)
		if s.Out && s.Reason != ReasonNoChips {
			t.Errorf("%s: %+v", id, s)
		}
		got := wait(t, clients[id])
		if last := got[len(got)-1]; last != Done(ReasonGameOver) && last != Done(ReasonNoChips) {
			t.Errorf("%s's last message %q", id, last)
		}
		if got[0] != MsgLogin {
			t.Errorf("%s's first message %q", id, got[0])
		}
		for _, m := range got[1 : len(got)-1] {
			if _, err := ParseMessage(m); err != nil {
				t.Errorf("%s: %v", id, err)
			}
		}
	}
	checkLog(t, log.Bytes(), r.Hands)
}

// checkLog replays every hand of the log through the engine.
func checkLog(t *testing.T, log []byte, atLeast int) {
	t.Helper()
	hands, err := history.ParseAll(log)
	if err != nil {
		t.Fatalf("hand log: %v\n%s", err, log)
	}
	if len(hands) < atLeast {
		t.Fatalf("%d hands logged, want at least %d", len(hands), atLeast)
	}
	for i, p := range hands {
		if _, h, err := p.Replay(); err != nil || !h.Over() {
			t.Fatalf("hand %d does not replay: %v", i+1, err)
		}
	}
}

// TestManyTables fills three tables with network players and felt bots; the game
// plays to one winner or the hand limit with every chip accounted for.
func TestManyTables(t *testing.T) {
	var log bytes.Buffer
	_, addr, res := startDealer(t, Config{Players: 4, Bots: 19, Bot: StudBotName, Hands: 25, Stack: 20, HandLog: &log})
	var wg sync.WaitGroup
	for i := range 4 {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			c := Client{ID: fmt.Sprintf("ref%d", i), Avatar: "Owl", Bot: Reference{}}
			if _, err := c.Play(context.Background(), conn); err != nil {
				t.Error(err)
			}
		})
	}
	r := wait(t, res)
	wg.Wait()
	checkChips(t, r, 23, 20)
	checkLog(t, log.Bytes(), r.Hands+2) // three tables at first
	for _, s := range r.Standings {
		if s.Out && s.Reason != ReasonNoChips {
			t.Errorf("%+v", s)
		}
	}
}

// TestLoginRules: a bad login answer, a silent client and a repeated id are turned
// away; a client arriving after the start is told the game started.
func TestLoginRules(t *testing.T) {
	d, addr, res := startDealer(t, Config{Players: 2, Hands: 3})
	bad := scripted(t, addr, "", nil) // answers login with ":Test"
	if got := wait(t, bad); len(got) != 2 || got[1] != Done(ReasonIllegal) {
		t.Fatalf("bad login got %q", got)
	}
	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	if m, err := ReadUTF(silent); err != nil || m != MsgLogin {
		t.Fatalf("%q %v", m, err)
	}
	if m, err := ReadUTF(silent); err != nil || m != Done(ReasonTooSlow) {
		t.Fatalf("silent client got %q %v", m, err)
	}
	a := scripted(t, addr, "alice", func(net.Conn, string, int) (string, bool) { return "fold", false })
	waitSnapshot(t, d, func(s Snapshot) bool { return len(s.Standings) == 1 })
	dup := scripted(t, addr, "alice", nil)
	if got := wait(t, dup); got[len(got)-1] != Done(ReasonDuplicate) {
		t.Fatalf("duplicate got %q", got)
	}
	b := scripted(t, addr, "bob", func(net.Conn, string, int) (string, bool) { return "bet:0", false })
	r := wait(t, res)
	wait(t, a)
	wait(t, b)
	checkChips(t, r, 2, DefaultStack)
	d.Start() // harmless after the start
	if _, err := net.Dial("tcp", addr); err == nil {
		t.Error("the dealer still listens after the game")
	}
}

// TestSpectatorSeesNoHoleCards looks at every snapshot of a game and finds no hole
// card on a table whose hand is not over.
func TestSpectatorSeesNoHoleCards(t *testing.T) {
	d, _, res := startDealer(t, Config{Bots: 5, Bot: StudBotName, Hands: 30})
	n, shown := 0, 0
	d.show.mu.Lock()
	d.show.tap = func(b []byte) {
		n++
		var s Snapshot
		if err := json.Unmarshal(b, &s); err != nil {
			t.Error(err)
			return
		}
		for _, tv := range s.Tables {
			for _, seat := range tv.Seats {
				if len(seat.Cards) > 0 && seat.Cards[0] != "??" {
					shown++
					if !tv.Over {
						t.Errorf("hole card of %s visible during the hand: %+v", seat.ID, tv)
					}
				}
			}
		}
	}
	d.show.mu.Unlock()
	d.Start()
	wait(t, res)
	d.show.mu.Lock()
	defer d.show.mu.Unlock()
	if n < 100 || shown == 0 {
		t.Errorf("%d snapshots, %d hole cards shown at showdowns", n, shown)
	}
}

// waitSnapshot waits until the spectators' snapshot satisfies ok.
func waitSnapshot(t *testing.T, d *Dealer, ok func(Snapshot) bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		b, changed := d.show.get()
		var s Snapshot
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if ok(s) {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("snapshot never came; last %s", b)
		}
	}
}
