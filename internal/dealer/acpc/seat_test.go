package acpc

import (
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/dealer/gate"
)

// TestSilentConnectionsDoNotHoldTheSeat: connections that reach a seat's port
// first and then send nothing, or half a VERSION line, do not keep the players
// from it: the players connecting after them are seated at once (before, each
// silent connection held the port for VersionWait, one after the other), the
// match is played, and the silent ones are closed (the oldest at once, to make
// room in the gate for the players; the others with a refusal once the seat is
// taken).
func TestSilentConnectionsDoNotHoldTheSeat(t *testing.T) {
	x := newMatch(t, "holdem.limit.2p.reverse_blinds", 2)
	x.m.VersionWait = time.Hour
	var squat []net.Conn
	for k := range 2 * gate.PerAddress {
		c, err := net.Dial("tcp", x.addrs[k%2])
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if k%4 == 1 {
			io.WriteString(c, "VERSION:2.") // half a line, then nothing
		}
		squat = append(squat, c)
	}
	p0 := scripted(t, x.addrs[0], Version, x.m.Game, raiser)
	p1 := scripted(t, x.addrs[1], Version, x.m.Game, feltBot(true))
	s := x.run(t)
	<-p0
	<-p1
	if s.Replaced != [2]int{} {
		t.Errorf("%+v\n%s", s, x.diag.String())
	}
	for k, c := range squat {
		c.SetReadDeadline(time.Now().Add(20 * time.Second))
		b, err := io.ReadAll(c)
		if err != nil && !errors.Is(err, syscall.ECONNRESET) || len(b) > 0 && !strings.HasPrefix(string(b), "# felt: ") {
			t.Errorf("silent connection %d: read %q, %v; want it closed", k, b, err)
		}
	}
}
