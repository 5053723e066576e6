package casino

import (
	"net"
	"strings"
	"testing"
	"time"
)

// loginRaw connects and logs in as id; it returns the connection once the dealer
// lists the player.
func loginRaw(t *testing.T, d *Dealer, addr, id string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if m, err := ReadUTF(c); err != nil || m != MsgLogin {
		t.Fatalf("%q %v", m, err)
	}
	if err := WriteUTF(c, Login(id, "Test")); err != nil {
		t.Fatal(err)
	}
	waitSnapshot(t, d, func(s Snapshot) bool { return hasStanding(s, id, func(st Standing) bool { return !st.Out }) })
	return c
}

func hasStanding(s Snapshot, id string, ok func(Standing) bool) bool {
	for _, st := range s.Standings {
		if st.ID == id && ok(st) {
			return true
		}
	}
	return false
}

// TestLobbyDisconnect: a player who hangs up in the lobby, and one who sends a
// frame nobody asked for, are shown out before the game starts and do not count
// toward the players that start it; the first logs in again and plays.
func TestLobbyDisconnect(t *testing.T) {
	d, addr, res := startDealer(t, Config{Players: 2, Hands: 3, Timeout: time.Minute})
	gone := loginRaw(t, d, addr, "gone")
	gone.Close()
	waitSnapshot(t, d, func(s Snapshot) bool {
		return s.Phase == "waiting" && hasStanding(s, "gone", func(st Standing) bool {
			return st.Out && st.OutHand == 0 && st.Reason == ReasonDisconnected
		})
	})
	chatty := loginRaw(t, d, addr, "chatty")
	if err := WriteUTF(chatty, "hello"); err != nil {
		t.Fatal(err)
	}
	if m, err := ReadUTF(chatty); err != nil || m != Done(ReasonIllegal) {
		t.Fatalf("chatty got %q %v", m, err)
	}
	waitSnapshot(t, d, func(s Snapshot) bool {
		return s.Phase == "waiting" && hasStanding(s, "chatty", func(st Standing) bool { return st.Out && st.Reason == ReasonIllegal })
	})
	call := func(conn net.Conn, q string, n int) (string, bool) { return "bet:" + toCall(q), false }
	back := scripted(t, addr, "gone", call)
	alice := scripted(t, addr, "alice", call)
	r := wait(t, res)
	wait(t, back)
	wait(t, alice)
	if r.Hands != 3 || standing(r, "gone").Out || standing(r, "alice").Out {
		t.Fatalf("the game did not wait for two players still connected: %+v", r)
	}
	if s := standing(r, "chatty"); !s.Out || s.OutHand != 0 || s.Chips != DefaultStack {
		t.Errorf("chatty: %+v", s)
	}
	checkChips(t, r, 3, DefaultStack)
}

// toCall is the toCall field of a bet1 or bet2 question.
func toCall(q string) string { return strings.Split(q, ":")[3] }

// TestDisconnectBetweenTurns: while one player holds its question (the dealer
// waits with a long timeout), another player at the table hangs up. The dealer
// shows it out at once, before the holder answers, rather than when its turn
// comes; the game then goes on with its chips in the pot conserved.
func TestDisconnectBetweenTurns(t *testing.T) {
	d, addr, res := startDealer(t, Config{Players: 3, Hands: 2, Timeout: time.Minute})
	ids := []string{"ann", "ben", "cat"}
	asked := make(chan string, len(ids))
	release := make(chan struct{})
	conns := map[string]net.Conn{}
	var clients []<-chan struct{}
	for _, id := range ids {
		conn, done := holdClient(t, addr, id, asked, release)
		conns[id], clients = conn, append(clients, done)
	}
	holder := wait(t, asked)
	victim := ids[0]
	if victim == holder {
		victim = ids[1]
	}
	conns[victim].Close() // it hangs up while it waits for its turn
	waitSnapshot(t, d, func(s Snapshot) bool {
		if len(s.Tables) != 1 || s.Tables[0].ToAct != holder {
			return false
		}
		seatOut := false
		for _, sv := range s.Tables[0].Seats {
			seatOut = seatOut || sv.ID == victim && sv.Out
		}
		return seatOut && hasStanding(s, victim, func(st Standing) bool {
			return st.Out && st.OutHand == 1 && st.Reason == ReasonDisconnected
		})
	})
	close(release)
	r := wait(t, res)
	for _, c := range clients {
		wait(t, c)
	}
	if n := len(asked); n > 0 && func() bool {
		for range n {
			if <-asked == victim {
				return true
			}
		}
		return false
	}() {
		t.Error("the victim was asked a question after it hung up")
	}
	checkChips(t, r, 3, DefaultStack)
	if s := standing(r, victim); !s.Out || s.OutHand != 1 || s.Reason != ReasonDisconnected {
		t.Errorf("victim %+v", s)
	}
}

// holdClient logs in as id and, at every question, sends id on asked (when there
// is room), waits for release and checks or calls. done is closed when the dealer
// closes the connection (or the test does).
func holdClient(t *testing.T, addr, id string, asked chan<- string, release <-chan struct{}) (net.Conn, <-chan struct{}) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			m, err := ReadUTF(conn)
			if err != nil {
				return
			}
			switch {
			case m == MsgLogin:
				WriteUTF(conn, Login(id, "Test"))
			case strings.HasPrefix(m, "bet"):
				select {
				case asked <- id:
				default:
				}
				<-release
				WriteUTF(conn, "bet:"+toCall(m))
			}
		}
	}()
	return conn, done
}
