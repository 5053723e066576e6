// Package study runs the house's Study page solves: a player pastes a spot, the
// house solves it with bounded work, and the player browses the result. Each player
// has at most one solve, running or kept for browsing; a solve is capped in memory
// and in time, runs on one core, and the whole house runs at most Limits.Slots at
// once. Transports (internal/web) decode, call and encode.
package study

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/solver"
)

// The errors a player can meet; each message is written for the player.
var (
	ErrBadSpot = errors.New("study: bad spot")           // the spot does not parse or is too big
	ErrBusy    = errors.New("study: the solver is busy") // every slot of the house is solving
	ErrSolving = errors.New("study: already solving")    // the player's own solve is running
	ErrNoSolve = errors.New("study: no solve")           // nothing to show or stop
	ErrResting = errors.New("study: your address rests") // its last solve kept others waiting (RestError)
)

// RestError refuses a solve from an address whose last solve kept another
// player waiting (ErrBusy), until Wait has passed.
type RestError struct{ Wait time.Duration }

func (e *RestError) Error() string { return fmt.Sprintf("%v for %v", ErrResting, e.Wait) }

// Unwrap returns ErrResting.
func (e *RestError) Unwrap() error { return ErrResting }

// MinRest is the shortest rest of an address whose solve kept another player
// waiting: at least the wait a refused player is told to come back after.
const MinRest = 30 * time.Second

// Limits bound the work of the Study page; zero fields take the defaults.
type Limits struct {
	MaxMemory int64         // bytes one solve may take (default 256 MiB)
	MaxTime   time.Duration // wall time of one solve (default 60 s)
	Slots     int           // solves running at once in the house (default 1)
	Kept      int           // players' solves held, running or kept for browsing; beyond it the oldest finished is dropped (default 32, at least Slots)
	// KeptMemory bounds the memory of the solves held, running or kept for
	// browsing (default 4 × MaxMemory, at least Slots × MaxMemory): a new
	// solve drops the oldest finished ones until it fits.
	KeptMemory int64
	MaxText    int // bytes of a pasted spot (default 64 KiB)
}

func (l *Limits) setDefaults() {
	if l.MaxMemory <= 0 {
		l.MaxMemory = 256 << 20
	}
	if l.MaxTime <= 0 {
		l.MaxTime = time.Minute
	}
	if l.Slots <= 0 {
		l.Slots = 1
	}
	if l.Kept <= 0 {
		l.Kept = 32
	}
	l.Kept = max(l.Kept, l.Slots)
	if l.KeptMemory <= 0 {
		l.KeptMemory = 4 * l.MaxMemory
	}
	l.KeptMemory = max(l.KeptMemory, int64(l.Slots)*l.MaxMemory)
	if l.MaxText <= 0 {
		l.MaxText = 64 << 10
	}
}

// Request is a spot to solve: its text in a format ("toml", "json" or "texas", a
// TexasSolver command file) and the target exploitability in % of the pot (0: the
// file's, else 0.5; at least 0.1).
type Request struct {
	Spot     string  `json:"spot"`
	Format   string  `json:"format"`
	Accuracy float64 `json:"accuracy"`
	// From is the address the request came from (set by the transport, never
	// decoded): a solve that kept another player waiting has its address rest
	// as long as it ran (at least MinRest) before the next.
	From string `json:"-"`
}

// Status is where a player's solve is.
type Status struct {
	State          string  `json:"state"` // "none", "solving" or "done"
	Spot           string  `json:"spot,omitempty"`
	Hands          [2]int  `json:"hands"`
	Nodes          int     `json:"nodes,omitempty"`
	Memory         int64   `json:"memory,omitempty"` // bytes
	Iterations     int     `json:"iterations"`
	Exploitability float64 `json:"exploitability"` // % of the pot; 0 until the first check
	Target         float64 `json:"target"`
	Seconds        float64 `json:"seconds"`
	MaxSeconds     float64 `json:"max_seconds"`
	Stopped        string  `json:"stopped,omitempty"` // why a done solve stopped: "target", "time" or "stopped"
}

// session is one player's solve. mu guards status and the solver once done.
type session struct {
	mu     sync.Mutex
	s      *solver.Solver
	status Status
	cancel context.CancelFunc // set before the session is shared; stops the solve
	done   chan struct{}
	ended  time.Time
	memory int64 // the solver's, set before the session is shared
	// from is the request's address; contended is set (under Service.mu)
	// when another player was refused while this solve ran.
	from      string
	contended bool
}

// Service holds the players' solves.
type Service struct {
	lim      Limits
	slots    chan struct{}
	mu       sync.Mutex
	sessions map[int64]*session
	rests    map[string]time.Time // by address: when it may solve again
}

// New returns a service with lim's bounds.
func New(lim Limits) *Service {
	lim.setDefaults()
	return &Service{lim: lim, slots: make(chan struct{}, lim.Slots), sessions: map[int64]*session{}, rests: map[string]time.Time{}}
}

// Limits returns the service's bounds, defaults filled in.
func (sv *Service) Limits() Limits { return sv.lim }

// Start parses the player's spot and starts solving it in the background, replacing
// the player's finished solve. It refuses a spot that does not parse or is too big
// (ErrBadSpot, with the reason), a player whose solve is running (ErrSolving), an
// address resting (a *RestError) and a house whose slots are all solving (ErrBusy).
func (sv *Service) Start(user int64, req Request) (Status, error) {
	if len(req.Spot) > sv.lim.MaxText {
		return Status{}, fmt.Errorf("%w: the spot is over %d KiB", ErrBadSpot, sv.lim.MaxText>>10)
	}
	sc, err := parse(req)
	if err != nil {
		return Status{}, fmt.Errorf("%w: %v", ErrBadSpot, err)
	}
	if err := sv.admit(user, req.From); err != nil {
		return Status{}, err
	}
	sess, err := sv.build(sc, req.Accuracy)
	if err != nil {
		<-sv.slots
		return Status{}, err
	}
	sv.mu.Lock()
	if old := sv.sessions[user]; old != nil && !old.finished() {
		sv.mu.Unlock()
		sess.s.Close()
		<-sv.slots
		return Status{}, ErrSolving
	}
	ctx, cancel := context.WithCancel(context.Background())
	sess.cancel, sess.from = cancel, req.From
	sv.sessions[user] = sess
	sv.evict(sess)
	sv.mu.Unlock()
	st := sess.snapshot() // "solving", however fast the solve
	go sv.run(ctx, sess)
	return st, nil
}

// admit takes a slot for a solve of user, from address from, or says why not:
// their solve runs (ErrSolving), their address rests (a *RestError), or every
// slot is solving (ErrBusy: the solves running are marked contended).
func (sv *Service) admit(user int64, from string) error {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	if old := sv.sessions[user]; old != nil && !old.finished() {
		return ErrSolving
	}
	now := time.Now()
	for a, until := range sv.rests {
		if !now.Before(until) {
			delete(sv.rests, a)
		}
	}
	if until, ok := sv.rests[from]; ok && from != "" {
		return &RestError{Wait: until.Sub(now)}
	}
	select {
	case sv.slots <- struct{}{}:
		return nil
	default:
	}
	for _, sess := range sv.sessions {
		if !sess.finished() && sess.from != from {
			sess.contended = true
		}
	}
	return ErrBusy
}

// parse reads the request's spot in its format.
func parse(req Request) (solver.Script, error) {
	r := strings.NewReader(req.Spot)
	switch req.Format {
	case "toml", "":
		return solver.ReadSpotFile(r, false)
	case "json":
		return solver.ReadSpotFile(r, true)
	case "texas":
		return solver.ReadScript(r)
	}
	return solver.Script{}, fmt.Errorf("format %q: want toml, json or texas", req.Format)
}

// build makes the solver on one core and checks its memory. The caller holds a slot.
func (sv *Service) build(sc solver.Script, accuracy float64) (*session, error) {
	s, err := solver.New(sc.Spot, solver.Options{Workers: 1, NoIsomorphism: sc.NoIsomorphism})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadSpot, err)
	}
	if m := s.Memory(); m > sv.lim.MaxMemory {
		s.Close()
		return nil, fmt.Errorf("%w: the spot needs about %d MiB, over the house's %d MiB: narrow the ranges or the sizes", ErrBadSpot, m>>20, sv.lim.MaxMemory>>20)
	}
	switch {
	case accuracy <= 0 && sc.Accuracy > 0:
		accuracy = sc.Accuracy
	case accuracy <= 0:
		accuracy = 0.5
	}
	nodes, _ := s.Nodes()
	sp := s.Spot()
	return &session{s: s, done: make(chan struct{}), memory: s.Memory(), status: Status{State: "solving",
		Spot:  fmt.Sprintf("board %s, pot %g, stack %g", cards.Format(sp.Board), sp.Pot, sp.Stack),
		Hands: s.Hands(), Nodes: nodes, Memory: s.Memory(), Target: max(accuracy, 0.1), MaxSeconds: sv.lim.MaxTime.Seconds()}}, nil
}

// run solves sess until its target, the time cap or Stop, then frees the slot.
func (sv *Service) run(ctx context.Context, sess *session) {
	started := time.Now()
	sess.mu.Lock()
	target := sess.status.Target
	sess.mu.Unlock()
	pr, err := sess.s.Solve(ctx, solver.Limits{Accuracy: target, MaxTime: sv.lim.MaxTime}, func(p solver.Progress) {
		sess.mu.Lock()
		sess.status.Iterations, sess.status.Exploitability, sess.status.Seconds = p.Iterations, p.Exploitability, p.Elapsed.Seconds()
		sess.mu.Unlock()
	})
	sess.cancel()
	sess.mu.Lock()
	sess.status.State, sess.ended = "done", time.Now()
	switch {
	case err != nil:
		sess.status.Stopped = "stopped"
	case pr.Exploitability <= target:
		sess.status.Stopped = "target"
	default:
		sess.status.Stopped = "time"
	}
	ran := sess.ended.Sub(started)
	sess.mu.Unlock()
	sv.mu.Lock()
	if sess.contended && sess.from != "" { // others waited: they go first now
		sv.rests[sess.from] = time.Now().Add(max(ran, MinRest))
	}
	sv.mu.Unlock()
	<-sv.slots // first: whoever sees the solve done finds the slot free
	close(sess.done)
}

func (sess *session) finished() bool {
	select {
	case <-sess.done:
		return true
	default:
		return false
	}
}

func (sess *session) snapshot() Status {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.status
}

// evict drops the oldest finished solves while more than Limits.Kept players hold
// one or the solves held take more than Limits.KeptMemory (each is kept with its
// solver's arrays, up to MaxMemory: 32 players' solves at the most would hold
// 8 GiB). fresh, just started, is never dropped. sv.mu must be held.
func (sv *Service) evict(fresh *session) {
	for len(sv.sessions) > sv.lim.Kept || sv.keptMemory() > sv.lim.KeptMemory {
		var oldest int64
		var at time.Time
		for u, sess := range sv.sessions {
			if sess == fresh || !sess.finished() {
				continue
			}
			if e := sess.endedAt(); at.IsZero() || e.Before(at) {
				oldest, at = u, e
			}
		}
		if at.IsZero() {
			return
		}
		delete(sv.sessions, oldest)
	}
}

// keptMemory is the memory of the solves held. sv.mu must be held.
func (sv *Service) keptMemory() int64 {
	var m int64
	for _, sess := range sv.sessions {
		m += sess.memory
	}
	return m
}

func (sess *session) endedAt() time.Time {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.ended
}

// Status returns the player's solve's state ("none" without one).
func (sv *Service) Status(user int64) Status {
	sv.mu.Lock()
	sess := sv.sessions[user]
	sv.mu.Unlock()
	if sess == nil {
		return Status{State: "none"}
	}
	return sess.snapshot()
}

// Node describes the node at path in the player's finished solve: ErrNoSolve
// without one, ErrSolving while it runs, solver.ErrBadNode for a wrong path.
func (sv *Service) Node(user int64, path []string) (solver.NodeInfo, error) {
	sv.mu.Lock()
	sess := sv.sessions[user]
	sv.mu.Unlock()
	switch {
	case sess == nil:
		return solver.NodeInfo{}, ErrNoSolve
	case !sess.finished():
		return solver.NodeInfo{}, ErrSolving
	}
	if len(path) > 64 {
		return solver.NodeInfo{}, fmt.Errorf("%w: a path of %d steps", solver.ErrBadNode, len(path))
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.s.Node(path)
}

// Stop stops the player's running solve at an iteration boundary and waits for it;
// the result so far stays to browse.
func (sv *Service) Stop(user int64) error {
	sv.mu.Lock()
	sess := sv.sessions[user]
	sv.mu.Unlock()
	if sess == nil || sess.finished() {
		return ErrNoSolve
	}
	sess.cancel() // set before the session was shared
	<-sess.done
	return nil
}
