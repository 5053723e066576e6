package main

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

// sink keeps the seed commitments a spectator sees before each hand ends.
type sink struct {
	mu        sync.Mutex
	published map[string]string
}

func (s *sink) Send(b []byte) {
	var m table.StateMsg
	if json.Unmarshal(b, &m) != nil || m.State == nil || m.State.Hand == nil || m.State.Hand.Over {
		return
	}
	s.mu.Lock()
	s.published[m.State.Hand.HandKey] = m.State.Hand.SeedSHA256
	s.mu.Unlock()
}

// TestVerify checks real hands dealt by a live table and stored by the house,
// then tampered copies of one.
func TestVerify(t *testing.T) {
	st := storetest.SQLite(t)
	hc := house.DefaultConfig()
	hc.Argon2.Memory, hc.Argon2.Time = 64, 1
	h, err := house.New(st, hc)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := table.New(table.Config{Name: "Fair", Variant: table.NoLimit, Seats: 3, SmallBlind: 10, BigBlind: 20,
		MinBuyIn: 200, MaxBuyIn: 2000, ActionTime: 10 * time.Second, BotDelay: time.Millisecond, HandPause: time.Millisecond,
		Bots: []string{"call", "random", "chart"}, Permanent: true, Bank: h, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close(context.Background(), "test over")
	s := &sink{published: map[string]string{}}
	if _, err := tb.Watch(t.Context(), table.Player{}, s); err != nil {
		t.Fatal(err)
	}
	var phh string
	for start := time.Now(); phh == ""; time.Sleep(20 * time.Millisecond) {
		hs, err := st.HandsByTable(t.Context(), tb.Ref(), 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(hs) > 0 {
			phh = hs[len(hs)-1].PHH
		}
		if time.Since(start) > 20*time.Second {
			t.Fatal("no hand recorded")
		}
	}
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	key := between(phh, `_hand_key = "`, `"`)
	s.mu.Lock()
	published := s.published[key]
	s.mu.Unlock()
	if published == "" {
		t.Fatalf("no commitment seen for %q", key)
	}
	run := func(file, hash string) (string, error) {
		var out strings.Builder
		err := (&verifyCmd{File: file, Hash: hash}).run(&out)
		return out.String(), err
	}
	for _, hash := range []string{published, "", strings.ToUpper(published)} {
		if out, err := run(write("hand.phh", phh), hash); err != nil || !strings.Contains(out, "FAIR") {
			t.Fatalf("the real hand, hash %q: %v\n%s", hash, err, out)
		}
	}
	api, _ := json.Marshal(map[string]any{"id": 1, "phh": phh})
	if out, err := run(write("hand.json", string(api)), published); err != nil {
		t.Fatalf("the hand as GET /api/hands/{id} gives it: %v\n%s", err, out)
	}

	seed := between(phh, `_seed = "`, `"`)
	other := []byte(seed)
	other[0] = "01"[map[bool]int{true: 1}[other[0] == '0']]
	_, rest, _ := strings.Cut(phh, "d dh p1 ")
	hole := rest[:4]
	swapped := hole[2:4] + hole[:2] // the same cards dealt in another order
	for name, tc := range map[string]struct{ text, hash string }{
		"another seed":            {strings.Replace(phh, seed, string(other), 1), ""},
		"another hand key":        {strings.Replace(phh, key, key+"0", 1), ""},
		"another published hash":  {phh, strings.Repeat("ab", 32)},
		"other hole cards":        {strings.Replace(phh, "d dh p1 "+hole, "d dh p1 "+swapped, 1), ""},
		"no seed":                 {strings.Replace(phh, `_seed = "`+seed+`"`, "", 1), ""},
		"no commitment published": {strings.Replace(phh, "_seed_sha256", "_other", 1), ""},
	} {
		out, err := run(write("bad.phh", tc.text), tc.hash)
		var e *exitError
		if !errors.As(err, &e) || e.code != 1 || !strings.Contains(out, "NOT VERIFIED") {
			t.Errorf("%s: %v\n%s", name, err, out)
		}
	}
	if _, err := run(filepath.Join(dir, "missing.phh"), ""); err == nil {
		t.Error("a missing file verified")
	}
}

func between(s, from, to string) string {
	_, rest, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, to)
	return v
}
