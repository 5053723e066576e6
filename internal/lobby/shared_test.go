package lobby

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/protocol"
)

// peersSpy records what a lobby tells the other nodes.
type peersSpy struct {
	mu      sync.Mutex
	lines   []string
	changed int
	asked   int      // AllowChat's calls
	refuse  bool     // AllowChat's answer is no
	fail    error    // AllowChat's error
	keys    []string // the keys AllowChat was asked for
}

func (p *peersSpy) Chat(l chat.Line) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lines = append(p.lines, l.From+": "+l.Text)
}

func (p *peersSpy) AllowChat(key string, _ int, _ time.Duration, _ time.Time) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked++
	p.keys = append(p.keys, key)
	return !p.refuse, p.fail
}

func (p *peersSpy) PresenceChanged() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.changed++
}

// presenceSince returns the players joined and left in the online messages
// of s from its message n on, and the number of messages.
func presenceSince(s *sink, n int) (joined, left []string, next int) {
	all := s.all()
	for _, m := range all[n:] {
		if m["type"] == "online" {
			joined = append(joined, names(m["joined"])...)
			left = append(left, names(m["left"])...)
		}
	}
	return joined, left, len(all)
}

// TestOnlineOnEveryNode: the players online are every node's, once each; a
// player online on two nodes stays online when one of them drops them, and
// only changes of the house's list are pushed. The lobby tells its peers of
// its own players' changes only.
func TestOnlineOnEveryNode(t *testing.T) {
	l := New(nil, nil)
	peers := &peersSpy{}
	l.SetPeers(peers)
	var s sink
	alice := table.Player{ID: 1, Name: "alice"}
	sub := l.Subscribe(alice, &s)
	l.flush()
	_, _, n := presenceSince(&s, 0)

	l.SetRemoteOnline("b", []protocol.Player{{ID: 1, Name: "alice"}, {ID: 2, Name: "bob"}, {ID: 0, Name: "nobody"}})
	l.SetRemoteOnline("c", []protocol.Player{{ID: 2, Name: "bob"}, {ID: 3, Name: "carol"}})
	l.flush()
	j, lf, n := presenceSince(&s, n)
	if slices.Sort(j); !slices.Equal(j, []string{"bob", "carol"}) || len(lf) != 0 {
		t.Fatalf("after b and c: joined %v left %v, want bob and carol joined", j, lf)
	}
	var fresh sink
	l.Subscribe(table.Player{}, &fresh)
	if got := names(fresh.all()[0]["players"]); !slices.Equal(got, []string{"alice", "bob", "carol"}) {
		t.Errorf("a newcomer's snapshot lists %v", got)
	}

	n = len(fresh.all())
	l.RemoveRemoteOnline("b") // b lost: bob is on c too, alice here
	l.flush()
	if j, lf, _ = presenceSince(&fresh, n); len(j) != 0 || len(lf) != 0 {
		t.Fatalf("after b lost: joined %v left %v, want nothing", j, lf)
	}
	l.Unsubscribe(alice, sub) // alice leaves this node, her last
	l.flush()
	if j, lf, _ = presenceSince(&fresh, n); len(j) != 0 || !slices.Equal(lf, []string{"alice"}) {
		t.Fatalf("after alice left: joined %v left %v, want alice left", j, lf)
	}
	n = len(fresh.all())
	l.RemoveRemoteOnline("c")
	l.flush()
	if j, lf, _ = presenceSince(&fresh, n); len(j) != 0 || !slices.Equal(lf, []string{"bob", "carol"}) {
		t.Fatalf("after c lost: joined %v left %v, want bob and carol left", j, lf)
	}
	peers.mu.Lock()
	defer peers.mu.Unlock()
	if peers.changed != 2 {
		t.Errorf("the peers were told of %d changes, want 2 (alice came and went)", peers.changed)
	}
}

// TestChatSharedOnce: a line said here goes to the peers once checked; a
// refused one does not; a line from another node is shown and kept, without
// this node's rate limit.
func TestChatSharedOnce(t *testing.T) {
	l := New(nil, nil)
	peers := &peersSpy{}
	l.SetPeers(peers)
	alice := table.Player{ID: 1, Name: "alice"}
	if err := l.Chat(alice, "", "hi"); err != nil {
		t.Fatal(err)
	}
	if err := l.Chat(alice, "", "bad \u202etext"); err == nil {
		t.Fatal("a hidden-text line passed")
	}
	for i := range chatLines + 2 {
		l.RemoteChat(chat.NewLine("", "bob", fmt.Sprint("remote ", i), time.Now()))
	}
	var s sink
	l.Subscribe(table.Player{}, &s)
	if got := s.all()[0]["chat"].([]any); len(got) != chatLines+3 {
		t.Errorf("the snapshot keeps %d lines, want %d", len(got), chatLines+3)
	}
	if !slices.Equal(peers.lines, []string{"alice: hi"}) {
		t.Errorf("the peers were sent %q", peers.lines)
	}
}

// TestChatRateOfTheHouse: a line the house's count refuses (the sender said
// enough on other nodes) is refused here and goes nowhere; a line this node's
// own count refuses is not counted by the house at all.
func TestChatRateOfTheHouse(t *testing.T) {
	l := New(nil, nil)
	peers := &peersSpy{refuse: true}
	l.SetPeers(peers)
	var s sink
	l.Subscribe(table.Player{}, &s)
	alice := table.Player{ID: 1, Name: "alice"}
	if err := l.Chat(alice, "", "hi"); !errors.Is(err, chat.ErrRateLimited) {
		t.Fatalf("a line the house refuses: %v, want ErrRateLimited", err)
	}
	peers.refuse = false
	for i := range chatLines + 2 {
		err := l.Chat(alice, "", fmt.Sprint("line ", i))
		if (err == nil) != (i < chatLines-1) { // the refused line counted on this node
			t.Fatalf("line %d: %v", i, err)
		}
	}
	if len(peers.lines) != chatLines-1 || peers.asked != chatLines {
		t.Errorf("the peers were sent %q and asked %d times, want %d lines and %d asks", peers.lines, peers.asked, chatLines-1, chatLines)
	}
	for _, m := range s.all() {
		if m["type"] == "chat" && m["text"] == "hi" {
			t.Errorf("the refused line was shown: %v", m)
		}
	}
}

// TestHouseOnline counts the players online on every node once each: one
// online here and on another node is one player.
func TestHouseOnline(t *testing.T) {
	l := New(nil, nil)
	var s sink
	l.Subscribe(table.Player{ID: 1, Name: "alice"}, &s)
	if n := l.HouseOnline(); n != 1 {
		t.Fatalf("one node, alice: %d online", n)
	}
	l.SetRemoteOnline("b", []protocol.Player{{ID: 1, Name: "alice"}, {ID: 2, Name: "bob"}})
	l.SetRemoteOnline("c", []protocol.Player{{ID: 2, Name: "bob"}, {ID: 3, Name: "carol"}})
	if n, here := l.HouseOnline(), l.Online(); n != 3 || here != 1 {
		t.Fatalf("alice here and on b, bob on b and c, carol on c: %d in the house, %d here; want 3 and 1", n, here)
	}
	l.RemoveRemoteOnline("c")
	if n := l.HouseOnline(); n != 2 {
		t.Fatalf("c gone: %d in the house, want 2", n)
	}
}

// TestChatFailsClosed: a line the house cannot count (its count's store does
// not answer, or is written by others at every try) is refused as busy, is
// shown nowhere and goes to no peer; the chat passes again once the count
// answers.
func TestChatFailsClosed(t *testing.T) {
	l := New(nil, nil)
	peers := &peersSpy{fail: errors.New("nats: timeout")}
	l.SetPeers(peers)
	var s sink
	l.Subscribe(table.Player{}, &s)
	alice := table.Player{ID: 1, Name: "alice"}
	err := l.Chat(alice, "", "uncounted")
	var pe *house.PlayerError
	if !errors.Is(err, house.ErrBusy) || !errors.As(err, &pe) || pe.RetryAfter <= 0 {
		t.Fatalf("a line the house could not count: %v, want a busy PlayerError with a retry", err)
	}
	peers.fail = nil
	if err := l.Chat(alice, "", "counted"); err != nil {
		t.Fatalf("a line once the count answers: %v", err)
	}
	if !slices.Equal(peers.lines, []string{"alice: counted"}) {
		t.Errorf("the peers were sent %q, want the counted line only", peers.lines)
	}
	for _, m := range s.all() {
		if m["type"] == "chat" && m["text"] == "uncounted" {
			t.Errorf("the uncounted line was shown: %v", m)
		}
	}
}

// TestChatPerAddress: accounts are cheap (guests), so the lobby bounds the
// lines said from one address, whoever says them: 10 in 10 s from one IPv4
// address or one IPv6 /64, however many players say them; another address is
// not held back; on a house of several nodes the address is counted across
// the house too.
func TestChatPerAddress(t *testing.T) {
	l := New(nil, nil)
	peers := &peersSpy{}
	l.SetPeers(peers)
	said := 0
	for i := range 3 * chatLines {
		p := table.Player{ID: int64(1 + i%3), Name: fmt.Sprint("guest-", i%3)}
		if err := l.Chat(p, "10.0.0.1", fmt.Sprint("line ", i)); err == nil {
			said++
		} else if !errors.Is(err, chat.ErrRateLimited) {
			t.Fatal(err)
		}
	}
	if said != addrChatLines {
		t.Fatalf("three players of one address said %d lines, want %d", said, addrChatLines)
	}
	if err := l.Chat(table.Player{ID: 9, Name: "bob"}, "10.0.0.2", "hi"); err != nil {
		t.Fatalf("a player of another address: %v", err)
	}
	for i := range addrChatLines {
		if err := l.Chat(table.Player{ID: int64(20 + i), Name: "v6"}, fmt.Sprintf("2001:db8::%x", i+1), "hi"); err != nil {
			t.Fatalf("line %d of one /64: %v", i, err)
		}
	}
	if err := l.Chat(table.Player{ID: 40, Name: "v6"}, "2001:db8::ffff", "hi"); !errors.Is(err, chat.ErrRateLimited) {
		t.Fatalf("a line past the bound from one /64: %v", err)
	}
	peers.mu.Lock()
	defer peers.mu.Unlock()
	if len(peers.keys) == 0 || !slices.Contains(peers.keys, "addr."+hex.EncodeToString([]byte("10.0.0.1"))) {
		t.Errorf("the house was asked for %q, not for the address", peers.keys)
	}
}
