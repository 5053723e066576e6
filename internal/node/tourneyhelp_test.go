package node

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/tournament/live"
	"github.com/felt-poker/felt/protocol"
)

// Helpers of the tournament tables' tests (tourney_test.go): players on a
// WebSocket, the states they act on, where a tournament seats them.
// wsSeat follows a player's WebSocket: the last state of each table, the
// notices and the replies it was sent.
type wsSeat struct {
	c    *wsClient
	name string

	mu      sync.Mutex
	last    map[string]*protocol.State
	notices []string
	replies map[string]string // id -> "ok" or the error's code
	next    int
}

// follow reads c's messages on a goroutine until its context is done.
func follow(ctx context.Context, c *wsClient, name string) *wsSeat {
	s := &wsSeat{c: c, name: name, last: map[string]*protocol.State{}, replies: map[string]string{}}
	go func() {
		for {
			_, b, err := c.ws.Read(ctx)
			if err != nil {
				return
			}
			s.take(b)
		}
	}()
	return s
}

func (s *wsSeat) take(b []byte) {
	var m struct {
		Type  string          `json:"type"`
		ID    json.RawMessage `json:"id"`
		Code  string          `json:"code"`
		State *protocol.State `json:"state"`
		Error *protocol.Error `json:"error"`
	}
	if json.Unmarshal(b, &m) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch m.Type {
	case "state":
		if m.State != nil {
			s.last[m.State.Table] = m.State
		}
	case "notice":
		s.notices = append(s.notices, m.Code)
	case "ok":
		s.replies[string(m.ID)] = "ok"
	case "error":
		s.replies[string(m.ID)] = m.Error.Code
	}
}

// do sends msg (a JSON object without its id) and waits for its reply.
func (s *wsSeat) do(t *testing.T, ctx context.Context, msg string) string {
	t.Helper()
	s.mu.Lock()
	s.next++
	id := fmt.Sprint(s.next)
	s.mu.Unlock()
	s.c.send(ctx, msg[:len(msg)-1]+`,"id":`+id+`}`)
	var r string
	waitFor(t, s.name+"'s reply to "+msg, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		r = s.replies[id]
		return r != ""
	})
	return r
}

// state returns the last state of tbl the player was sent.
func (s *wsSeat) state(tbl string) *protocol.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last[tbl]
}

// toAct returns the last state of tbl if the player is to act in it.
func (s *wsSeat) toAct(tbl string) *protocol.State {
	if st := s.state(tbl); st != nil && st.MyTurn() {
		return st
	}
	return nil
}

func (s *wsSeat) noticed(code string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.notices, code)
}

// actMsg is the act message of kind at tbl, with amount for a bet or raise.
func actMsg(tbl, kind string, amount int64) string {
	if kind != "bet" && kind != "raise" {
		return fmt.Sprintf(`{"type":"act","table":%q,"action":%q}`, tbl, kind)
	}
	return fmt.Sprintf(`{"type":"act","table":%q,"action":%q,"amount":%d}`, tbl, kind, amount)
}

// tablesOf returns the tables tournament id seats its players at on d, by
// player, and the chips the standings hold.
func tablesOf(t *testing.T, ctx context.Context, d *live.Director, id int64) (map[string]string, int64) {
	t.Helper()
	in, err := d.Info(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	at, chips := map[string]string{}, int64(0)
	for _, s := range in.Standings {
		chips += s.Stack
		if s.Table != "" {
			at[s.Name] = s.Table
		}
	}
	return at, chips
}

// has reports whether the watcher was sent a notice of code.
func (s *sink) has(code string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.notices, code)
}

// after reports whether st, of a hand in play, comes after last (nil: any):
// the same hand with more events, or a later hand.
func after(st, last *protocol.State) bool {
	if last == nil {
		return true
	}
	if st.Hand.HandKey != last.Hand.HandKey {
		return st.Hand.Number > last.Hand.Number
	}
	return len(st.Hand.Events) > len(last.Hand.Events)
}

// callThenNext has the first of sinks' players to act at tbl call, and
// returns the next state in which one of them is to act in that hand.
func callThenNext(t *testing.T, ctx context.Context, tbl *table.Table, sinks map[table.Player]*sink) *table.State {
	t.Helper()
	var called *table.State
	waitFor(t, "a call", func() bool {
		for p, s := range sinks {
			if st := s.toAct(); st != nil && tbl.Act(ctx, p, engine.Call, 0) == nil {
				called = st
				return true
			}
		}
		return false
	})
	var next *table.State
	waitFor(t, "the next to act", func() bool {
		for _, s := range sinks {
			if st := s.toAct(); st != nil && st.Hand.HandKey == called.Hand.HandKey && after(st, called) {
				next = st
				return true
			}
		}
		return false
	})
	return next
}
