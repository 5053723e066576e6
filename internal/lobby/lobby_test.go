package lobby

import (
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/table"
)

type sink struct {
	mu   sync.Mutex
	msgs []map[string]any
}

func (s *sink) Send(b []byte) {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic(err)
	}
	s.mu.Lock()
	s.msgs = append(s.msgs, m)
	s.mu.Unlock()
}

func (s *sink) all() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.msgs)
}

func names(v any) []string {
	out := []string{}
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// Players coming and going are pushed as one coalesced "online" message, after
// the snapshot, never as the whole list.
func TestOnlineCoalesced(t *testing.T) {
	l := New(nil, nil)
	var a sink
	alice := table.Player{ID: 1, Name: "alice"}
	l.Subscribe(alice, &a)
	if m := a.all(); len(m) != 1 || m[0]["type"] != "lobby" || !slices.Equal(names(m[0]["players"]), []string{"alice"}) {
		t.Fatalf("snapshot: %v", m)
	}
	time.Sleep(2 * FlushInterval) // alice's own arrival
	n := len(a.all())
	for i, name := range []string{"bob", "carol", "dave"} {
		var s sink
		l.Subscribe(table.Player{ID: int64(i + 2), Name: name}, &s)
	}
	l.Unsubscribe(table.Player{ID: 4, Name: "dave"}, 3)
	time.Sleep(3 * FlushInterval)
	got := a.all()[n:]
	if len(got) != 1 || got[0]["type"] != "online" {
		t.Fatalf("pushes: %v", got)
	}
	if j, lf := names(got[0]["joined"]), names(got[0]["left"]); !slices.Equal(j, []string{"bob", "carol"}) || !slices.Equal(lf, []string{"dave"}) {
		t.Fatalf("joined %v left %v", j, lf)
	}
	if l.Online() != 3 {
		t.Fatal("online", l.Online())
	}
}
