package study

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/solver"
)

const river = `pot = 10
stack = 95
board = "Qs Jh 2h 8d 3c"
oop = "AA,KK,QQ,AK,JTs,T9s,98s,A5s,A4s"
ip = "QQ:0.5,JJ,TT,99,AQs,KQ,QJ,JTs,76s"
[[sizes]]
bet = [100]
raise = [50]
`

// turn is big enough to still be solving when the test looks.
const turn = `pot = 10
stack = 95
board = "Qs Jh 2h 8d"
oop = "random"
ip = "random"
[[sizes]]
bet = [75]
raise = [100]
allin = true
`

// wait blocks until the player's solve has finished (at most a minute: the solves
// here stop at their target or are stopped).
func wait(t *testing.T, sv *Service, user int64) {
	t.Helper()
	sv.mu.Lock()
	sess := sv.sessions[user]
	sv.mu.Unlock()
	select {
	case <-sess.done:
	case <-time.After(time.Minute):
		t.Fatal("the solve did not finish")
	}
}

func TestStudySolvesAndBrowses(t *testing.T) {
	sv := New(Limits{})
	if st := sv.Status(1); st.State != "none" {
		t.Fatalf("before: %+v", st)
	}
	if _, err := sv.Node(1, nil); !errors.Is(err, ErrNoSolve) {
		t.Errorf("node before a solve: %v", err)
	}
	st, err := sv.Start(1, Request{Spot: river, Accuracy: 0.5})
	if err != nil || st.Nodes == 0 || st.Target != 0.5 {
		t.Fatalf("start: %+v, %v", st, err)
	}
	wait(t, sv, 1)
	st = sv.Status(1)
	if st.State != "done" || st.Stopped != "target" || st.Exploitability > 0.5 || st.Iterations == 0 {
		t.Errorf("done: %+v", st)
	}
	root, err := sv.Node(1, nil)
	if err != nil || root.Kind != "decision" || len(root.Hands) == 0 {
		t.Fatalf("root: %+v, %v", root, err)
	}
	if _, err := sv.Node(1, []string{"b999"}); !errors.Is(err, solver.ErrBadNode) {
		t.Errorf("a wrong path: %v", err)
	}
	if _, err := sv.Node(1, make([]string, 65)); !errors.Is(err, solver.ErrBadNode) {
		t.Errorf("a path of 65 steps: %v", err)
	}
}

// TestStudyBounds: one solve at a time per player and Slots in the house; Stop
// ends a solve at once and keeps it to browse; a spot over the memory cap, over the
// text cap or malformed is refused before any solving; old solves are dropped.
func TestStudyBounds(t *testing.T) {
	sv := New(Limits{Slots: 1, Kept: 1})
	if _, err := sv.Start(1, Request{Spot: turn, Accuracy: 0.1}); err != nil {
		t.Fatal(err)
	}
	if _, err := sv.Start(1, Request{Spot: river}); !errors.Is(err, ErrSolving) {
		t.Errorf("a second solve of the same player: %v", err)
	}
	if _, err := sv.Start(2, Request{Spot: river}); !errors.Is(err, ErrBusy) {
		t.Errorf("a solve while the house's slot is taken: %v", err)
	}
	if _, err := sv.Node(1, nil); !errors.Is(err, ErrSolving) {
		t.Errorf("browsing a running solve: %v", err)
	}
	if err := sv.Stop(1); err != nil {
		t.Fatal(err)
	}
	if st := sv.Status(1); st.State != "done" || st.Stopped != "stopped" {
		t.Errorf("after Stop: %+v", st)
	}
	if err := sv.Stop(1); !errors.Is(err, ErrNoSolve) {
		t.Errorf("stopping twice: %v", err)
	}
	if _, err := sv.Start(2, Request{Spot: river}); err != nil {
		t.Fatalf("the slot is free again: %v", err)
	}
	wait(t, sv, 2)
	if st := sv.Status(1); st.State != "none" {
		t.Errorf("Kept 1: the older solve should be dropped, is %+v", st)
	}
	small := New(Limits{MaxMemory: 1 << 20, MaxText: 1 << 10})
	for name, req := range map[string]Request{
		"too big":    {Spot: turn},
		"too long":   {Spot: river + strings.Repeat("#", 1<<10)},
		"bad spot":   {Spot: "pot = 10"},
		"bad format": {Spot: river, Format: "yaml"},
	} {
		if _, err := small.Start(3, req); !errors.Is(err, ErrBadSpot) {
			t.Errorf("%s: %v, want ErrBadSpot", name, err)
		}
	}
	if _, err := small.Start(3, Request{Spot: river}); err != nil {
		t.Errorf("the refusals kept the slot: %v", err)
	}
	wait(t, small, 3)
}

// TestStudyKeptMemory: solves kept to browse hold their solver's memory, up
// to MaxMemory each; players (guests are players) solving one after another
// must not make the house hold Kept of them (32 × 256 MiB by default). The
// oldest finished solves are dropped so that the solves held take at most 4 ×
// MaxMemory, the one just started included.
func TestStudyKeptMemory(t *testing.T) {
	probe := New(Limits{})
	st, err := probe.Start(100, Request{Spot: river})
	if err != nil {
		t.Fatal(err)
	}
	wait(t, probe, 100)
	sv := New(Limits{MaxMemory: st.Memory, Kept: 32})
	const players = 7
	for u := int64(1); u <= players; u++ {
		if _, err := sv.Start(u, Request{Spot: river}); err != nil {
			t.Fatal(err)
		}
		wait(t, sv, u)
	}
	held := 0
	for u := int64(1); u <= players; u++ {
		if sv.Status(u).State != "none" {
			held++
		}
	}
	if held != 4 || sv.Status(players).State != "done" || sv.Status(1).State != "none" {
		t.Fatalf("%d solves of %d bytes each held, under a cap of 4 × %d bytes: want the 4 newest", held, st.Memory, st.Memory)
	}
}

// TestStudyTakesTurns: the house's one solver is shared. An address whose
// solve kept another player waiting (refused busy) rests as long as it ran,
// at least MinRest, before its next solve, whichever of its players asks
// (guests rotate past the one-solve-per-player rule), so that the player who
// waited gets the solver; an address nobody waited for solves again at once.
func TestStudyTakesTurns(t *testing.T) {
	sv := New(Limits{Slots: 1})
	if _, err := sv.Start(1, Request{Spot: river, From: "10.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	wait(t, sv, 1)
	if _, err := sv.Start(2, Request{Spot: turn, From: "10.0.0.1"}); err != nil {
		t.Fatalf("nobody waited for the first solve: %v", err)
	}
	if _, err := sv.Start(3, Request{Spot: river, From: "10.0.0.2"}); !errors.Is(err, ErrBusy) {
		t.Fatalf("a solve while the slot is taken: %v", err)
	}
	if err := sv.Stop(2); err != nil {
		t.Fatal(err)
	}
	var rest *RestError
	if _, err := sv.Start(4, Request{Spot: turn, From: "10.0.0.1"}); !errors.As(err, &rest) || rest.Wait < MinRest-time.Second {
		t.Fatalf("the same address, at once, while another waited: %v", err)
	}
	if _, err := sv.Start(3, Request{Spot: river, From: "10.0.0.2"}); err != nil {
		t.Fatalf("the player who waited: %v", err)
	}
	wait(t, sv, 3)
}
