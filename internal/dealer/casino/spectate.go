package casino

import (
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/addrkey"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// Snapshot is everything the spectator page shows. It is built from spectator
// views of the engine hands, so it never holds a hole card before the showdown.
type Snapshot struct {
	// Phase is "waiting" (for logins), "playing" or "over".
	Phase string `json:"phase"`
	// Round is the round of hands being dealt; Hands the most rounds (0: no limit).
	Round int `json:"round"`
	Hands int `json:"hands"`
	// Needed is the number of logins that starts the game.
	Needed    int         `json:"needed"`
	Tables    []TableView `json:"tables"`
	Standings []Standing  `json:"standings"`
	// Actions are the most recent actions, wins and eliminations of the game,
	// the newest last (at most recentLen).
	Actions []ActionView `json:"actions"`
}

// ActionView is one line of the running list of actions. Table is 0 for an
// elimination outside a hand.
type ActionView struct {
	Seq    int    `json:"seq"` // numbers the lines of the game from 1
	Round  int    `json:"round"`
	Table  int    `json:"table"`
	ID     string `json:"id"`
	Action string `json:"action"`
}

// recentLen is how many actions the snapshot keeps.
const recentLen = 40

// record appends a line to the running list of actions; d.mu must be held.
func (d *Dealer) record(round, table int, id, action string) {
	d.seq++
	d.recent = append(d.recent, ActionView{Seq: d.seq, Round: round, Table: table, ID: id, Action: action})
	if n := len(d.recent) - recentLen; n > 0 {
		d.recent = slices.Delete(d.recent, 0, n)
	}
}

// TableView is one table's hand as a spectator sees it.
type TableView struct {
	Table  int        `json:"table"`
	Street string     `json:"street"`
	Pot    int64      `json:"pot"`
	ToAct  string     `json:"toAct"`
	Seats  []SeatView `json:"seats"`
	Over   bool       `json:"over"`
	Winner []string   `json:"winners,omitempty"`
}

// SeatView is one seat: its cards are "??" where a spectator may not see them.
type SeatView struct {
	ID     string   `json:"id"`
	Avatar string   `json:"avatar"`
	Stack  int64    `json:"stack"`
	Bet    int64    `json:"bet"`
	Cards  []string `json:"cards"`
	Folded bool     `json:"folded"`
	Out    bool     `json:"out"`
	Last   string   `json:"last"`
}

// update records table t's hand for the spectators and publishes.
func (d *Dealer) update(t int, h *engine.Hand, players []*entrant) {
	v := h.SpectatorView()
	tv := TableView{Table: t + 1, Street: v.Street.String(), Pot: v.Pot, Over: v.Over}
	d.mu.Lock()
	for i, s := range v.Seats {
		e := players[i]
		sv := SeatView{ID: e.id, Avatar: e.avatar, Stack: s.Stack, Bet: s.Bet, Folded: s.Folded || s.Left, Out: e.out, Last: e.last}
		for k := range s.NCards {
			c := "??"
			if s.Cards[k] != cards.NoCard {
				c = FormatCard(s.Cards[k])
			}
			sv.Cards = append(sv.Cards, c)
		}
		tv.Seats = append(tv.Seats, sv)
	}
	if s := v.ToAct; s != engine.NoSeat {
		tv.ToAct = players[s].id
	}
	if v.Over {
		for _, p := range h.Result().Pots {
			for _, a := range p.Awards {
				tv.Winner = append(tv.Winner, fmt.Sprintf("%s +%d", players[a.Seat].id, a.Amount))
			}
		}
	}
	d.tables[t] = tv
	d.mu.Unlock()
	d.publish()
}

// publish sends the current snapshot to every spectator.
func (d *Dealer) publish() {
	d.pub.Lock()
	defer d.pub.Unlock()
	st := d.standings()
	d.mu.Lock()
	s := Snapshot{Phase: "waiting", Round: d.round, Hands: d.cfg.Hands, Needed: d.cfg.Players, Standings: st}
	if d.started {
		s.Phase = "playing"
	}
	if d.over {
		s.Phase = "over"
	}
	out := make(map[string]bool, len(d.players))
	for _, e := range d.players {
		out[e.id] = e.out
	}
	for i := range len(d.tables) {
		if tv, ok := d.tables[i]; ok {
			// a player put out while waiting shows at once, not at the next action
			tv.Seats = slices.Clone(tv.Seats)
			for k := range tv.Seats {
				tv.Seats[k].Out = out[tv.Seats[k].ID]
			}
			s.Tables = append(s.Tables, tv)
		}
	}
	s.Actions = slices.Clone(d.recent)
	d.mu.Unlock()
	b, err := json.Marshal(s)
	if err != nil { // a Snapshot always marshals
		d.log.Error("snapshot", "err", err)
		return
	}
	d.show.set(b)
}

// Bounds of the page's event streams (GET /events): at most MaxStreamsFrom from
// one address (addrkey.Of), addrkey.WideFactor times that from one IPv6 /48
// (addrkey.Counter), and MaxStreams in all are open at once; a write of a
// snapshot that takes StreamWriteTimeout ends its stream.
const (
	MaxStreamsFrom     = 8
	MaxStreams         = 512
	StreamWriteTimeout = 10 * time.Second
)

// spectators holds the latest snapshot and wakes the page streams when it changes.
// Streams skip snapshots they were too slow to see: only the latest matters.
type spectators struct {
	mu      sync.Mutex
	latest  []byte
	changed chan struct{}    // closed and replaced by every set
	tap     func([]byte)     // tests: sees every snapshot, under mu
	from    *addrkey.Counter // open streams by address and /48
	streams int              // open streams in all
	// writeTimeout is StreamWriteTimeout (shorter in tests); closed, when not
	// nil, is called (under mu) when a stream ends.
	writeTimeout time.Duration
	closed       func()
}

func newSpectators() *spectators {
	return &spectators{changed: make(chan struct{}), from: &addrkey.Counter{Max: MaxStreamsFrom}, writeTimeout: StreamWriteTimeout}
}

// open counts a new stream from host, or reports false when a bound is
// reached.
func (s *spectators) open(host string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.streams >= MaxStreams || !s.from.Take(host) {
		return false
	}
	s.streams++
	return true
}

// close forgets a stream open did count.
func (s *spectators) close(host string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.streams--
	s.from.Release(host)
	if s.closed != nil {
		s.closed()
	}
}

func (s *spectators) set(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latest = b
	if s.tap != nil {
		s.tap(b)
	}
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *spectators) get() ([]byte, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.latest, s.changed
}

//go:embed page.html
var page embed.FS

// Handler serves the spectator page: GET / the page, GET /state the snapshot as
// JSON, GET /events a Server-Sent Events stream of snapshots, POST /start starts
// the game. Watching is open to anyone; starting is the operator's: POST /start
// must carry the start token as "Authorization: Bearer <token>" (the page sends
// the token of its address, /?token=<token>), or it is refused with 403.
// Cross-origin POSTs are refused.
func (d *Dealer) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		// the address may hold the start token: never send it on as a referrer
		w.Header().Set("Referrer-Policy", "no-referrer")
		http.ServeFileFS(w, r, page, "page.html")
	})
	mux.HandleFunc("GET /state", func(w http.ResponseWriter, r *http.Request) {
		b, _ := d.show.get()
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	})
	mux.HandleFunc("POST /start", func(w http.ResponseWriter, r *http.Request) {
		if !d.startAllowed(r) {
			d.log.Warn("start refused: no or wrong start token", "addr", r.RemoteAddr)
			http.Error(w, "starting the game needs the operator's start token", http.StatusForbidden)
			return
		}
		d.Start()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /events", d.events)
	return http.NewCrossOriginProtection().Handler(mux)
}

// startAllowed reports that r carries the start token. The comparison takes the
// same time whatever the guess (both sides are hashed to the same length first).
func (d *Dealer) startAllowed(r *http.Request) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return false
	}
	a, b := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(d.cfg.StartToken))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// events streams every snapshot as an SSE "data:" line until the client goes. A
// client past the bounds on streams is refused with 503; one that does not read
// what it is sent within StreamWriteTimeout is cut off.
func (d *Dealer) events(w http.ResponseWriter, r *http.Request) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if !d.show.open(host) {
		w.Header().Set("Retry-After", "10")
		http.Error(w, "too many spectators' streams open", http.StatusServiceUnavailable)
		return
	}
	defer d.show.close(host)
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	for {
		b, changed := d.show.get()
		if err := rc.SetWriteDeadline(time.Now().Add(d.show.writeTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		}
	}
}
