package acpc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/dealer/gate"
	"github.com/felt-poker/felt/internal/engine"
)

// Version is the protocol version a client announces first ("VERSION:2.0.0").
const Version = "VERSION:2.0.0"

// Match configures a duplicate heads-up match.
type Match struct {
	Game *GameDef
	// Deals is the number of deals; each is played twice, the players swapping
	// positions, so the match has 2*Deals hands.
	Deals int
	// Seed fixes the deals (nil: crypto/rand).
	Seed *cards.Seed
	// Timeout is the most time a player has for one action (ACPC's t_response;
	// default one second). The clock runs from the moment the state is written
	// to the moment the answer's line has arrived.
	Timeout time.Duration
	// HandTime, when positive, is the most time a player may spend on all its
	// actions of one hand (ACPC's t_hand).
	HandTime time.Duration
	// MatchTime, when positive, is each player's time bank for the whole match
	// (ACPC's t_per_hand times the number of hands). A player whose bank or hand
	// time is spent has every later action of the match or hand replaced at once.
	MatchTime time.Duration
	// VersionWait is how long a new connection has to send its VERSION line
	// (default ten timeouts). A connection that sends anything else, or nothing,
	// is closed and the seat's port waits for the next one.
	VersionWait time.Duration
	// Names name the two players in the log (default "p1", "p2").
	Names [2]string
	// Log receives the ACPC log: a STATE line per hand and a SCORE line.
	Log io.Writer
	// Logger receives diagnostics: every replaced action with its reason, every
	// refused connection, a player's hanging up and its time bank running out.
	// nil discards them.
	Logger *slog.Logger
}

// Score is the match's result. Each array is indexed by player (the player of
// port i).
type Score struct {
	Hands int
	// Total is the chips won over all hands; the two sum to zero.
	Total [2]int64
	// Used is the time each player spent on its actions.
	Used [2]time.Duration
	// Late counts the actions whose time ran out (the per-action timeout, the
	// hand's time or the time bank); Replaced every action replaced, late,
	// malformed, illegal, out of time or after the player hung up.
	Late, Replaced [2]int
}

// maxLine bounds one line from a player; a longer line ends its connection.
const maxLine = 64 << 10

// Reasons an action is replaced, in the diagnostics.
var (
	errGone   = errors.New("player hung up")
	errLate   = errors.New("no answer in time")
	errNoTime = errors.New("no time left")
)

// player is one connected seat. A goroutine per player reads its lines into
// lines, so that a partial line is never lost at a deadline, a hang-up is seen
// at once, and the dealer waits on a channel and a timer, never on a socket.
type player struct {
	conn  net.Conn
	lines chan string   // closed when the connection ends; err says why
	quit  chan struct{} // closed by close: the reader stops
	err   error
	gone  bool
	used  time.Duration // time spent on actions over the match
	empty bool          // the time bank ran out (logged once)
}

func newPlayer(conn net.Conn) *player {
	p := &player{conn: conn, lines: make(chan string), quit: make(chan struct{})}
	go p.read()
	return p
}

// read sends every line (without its line end) to p.lines until the connection
// ends or p is closed.
func (p *player) read() {
	defer close(p.lines)
	sc := bufio.NewScanner(p.conn)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	for sc.Scan() {
		select {
		case p.lines <- strings.TrimRight(sc.Text(), "\r"):
		case <-p.quit:
			return
		}
	}
	p.err = sc.Err() // written before lines is closed
	if p.err == nil {
		p.err = io.EOF
	}
}

func (p *player) close() {
	close(p.quit)
	p.conn.Close()
}

// Run waits for one player on each listener (the player of lns[i] is player i),
// reads their VERSION lines and plays the match. A connection that does not
// announce version 2 in time is closed and the port waits for another. Run
// closes the listeners and the connections. Cancelling ctx stops the wait for
// players, or ends the match after the hand being played.
func (m *Match) Run(ctx context.Context, lns [2]net.Listener) (Score, error) {
	log := m.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg, err := m.Game.Config()
	if err != nil {
		return Score{}, err
	}
	if m.Timeout == 0 {
		m.Timeout = time.Second
	}
	if m.VersionWait == 0 {
		m.VersionWait = 10 * m.Timeout
	}
	names := m.Names
	for i := range names {
		if names[i] == "" {
			names[i] = fmt.Sprintf("p%d", i+1)
		}
	}
	m.Names = names
	var ps [2]*player
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, ln := range lns {
		stop := context.AfterFunc(ctx, func() { ln.Close() })
		defer stop()
		defer ln.Close()
		wg.Go(func() { ps[i], errs[i] = m.seat(ctx, ln, i, log) })
	}
	wg.Wait()
	for _, p := range ps {
		if p != nil {
			defer p.close()
		}
	}
	if err := errors.Join(errs...); err != nil {
		return Score{}, err
	}
	seed := cards.RandomSeed()
	if m.Seed != nil {
		seed = *m.Seed
	}
	seeds := rand.NewChaCha8(seed)
	var score Score
	for d := 0; d < m.Deals && ctx.Err() == nil; d++ {
		var s cards.Seed
		seeds.Read(s[:])
		for swap := range 2 {
			// at[pos] is the player at position pos.
			at := [2]int{0, 1}
			if swap == 1 {
				at = [2]int{1, 0}
			}
			hand := score.Hands
			c := cfg
			c.Seed = s
			net, err := m.playHand(ctx, c, ps, at, hand, &score, log)
			if err != nil {
				return score, err
			}
			for pos, pl := range at {
				score.Total[pl] += net[pos]
			}
			score.Hands++
		}
	}
	for i, p := range ps {
		score.Used[i] = p.used
	}
	if m.Log != nil {
		fmt.Fprintf(m.Log, "SCORE:%d|%d:%s|%s\n", score.Total[0], score.Total[1], names[0], names[1])
	}
	return score, ctx.Err()
}

// seat accepts connections on ln until one announces protocol version 2, and
// then closes ln. Each connection waits for its VERSION line on its own goroutine,
// so that connections that send nothing (or half a line) do not hold the seat:
// the first to announce takes it, and the others are closed. At most
// gate.PerAddress connections from one address and gate.Total in all wait at once
// (a new one closes the oldest: internal/dealer/gate).
func (m *Match) seat(ctx context.Context, ln net.Listener, i int, log *slog.Logger) (*player, error) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	waiting := gate.New(0, 0)
	won := make(chan *player)
	failed := make(chan error, 1)
	wg.Go(func() {
		for {
			conn, err := gate.Accept(ctx, ln, func(err error) { log.Warn("accept failed: retrying", "player", i, "err", err) })
			if err != nil {
				failed <- err
				return
			}
			announced := waiting.Admit(conn) // in the order of arrival
			wg.Go(func() { m.hello(ctx, conn, announced, i, won, log) })
		}
	})
	select {
	case p := <-won:
		ln.Close()
		return p, nil
	case err := <-failed:
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return nil, fmt.Errorf("seat %d: %w", i, err)
	}
}

// hello waits for conn's VERSION line and offers the player to seat on won;
// a connection that does not announce version 2 in time, or comes too late (the
// seat taken, ctx ended), is told why and closed; ends conn's wait in the gate.
func (m *Match) hello(ctx context.Context, conn net.Conn, announced func(), i int, won chan<- *player, log *slog.Logger) {
	defer announced()
	p := newPlayer(conn)
	line, err := p.version(ctx, m.VersionWait)
	if err == nil {
		select {
		case won <- p:
			log.Info("player connected", "player", i, "addr", conn.RemoteAddr().String(), "version", line)
			return
		case <-ctx.Done():
			err = errors.New("the seat is taken")
		}
	}
	log.Warn("connection refused", "player", i, "addr", conn.RemoteAddr().String(), "err", err)
	conn.SetWriteDeadline(time.Now().Add(time.Second))
	fmt.Fprintf(conn, "# felt: %v\r\n", err)
	p.close()
}

// version waits for the first line that is not a comment and checks that it
// announces major version 2 ("VERSION:2.<minor>.<revision>").
func (p *player) version(ctx context.Context, wait time.Duration) (string, error) {
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return "", fmt.Errorf("hung up before %q: %w", Version, p.err)
			}
			if comment(line) {
				continue
			}
			v, ok := strings.CutPrefix(line, "VERSION:")
			f := strings.Split(v, ".")
			if !ok || len(f) != 3 || f[0] != "2" || !digits(f[1]) || !digits(f[2]) {
				return line, fmt.Errorf("want %q first, got %q", Version, clip(line))
			}
			return line, nil
		case <-t.C:
			return "", fmt.Errorf("no %q within %v", Version, wait)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

func comment(line string) bool {
	return line == "" || line[0] == '#' || line[0] == ';'
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// clip shortens a line for the diagnostics.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// playHand plays one hand with player at[pos] at position pos and returns each
// position's chips won. It counts replaced and late actions in score.
func (m *Match) playHand(ctx context.Context, cfg engine.Config, ps [2]*player, at [2]int, hand int, score *Score, log *slog.Logger) ([]int64, error) {
	h, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	limit := cfg.Structure == engine.FixedLimit
	send := func() {
		for pos, pl := range at {
			p := ps[pl]
			if p.gone {
				continue
			}
			p.conn.SetWriteDeadline(time.Now().Add(m.Timeout))
			if _, err := io.WriteString(p.conn, MatchState(h, limit, pos, hand)+"\r\n"); err != nil {
				log.Warn("player gone", "player", pl, "hand", hand, "err", err)
				p.gone = true
				p.conn.Close()
			}
		}
	}
	var spent [2]time.Duration // this hand's time, per player
	for !h.Over() {
		send()
		pos := h.ToAct()
		pl := at[pos]
		p := ps[pl]
		state := MatchState(h, limit, pos, hand)
		a, err := m.read(ctx, p, h, limit, state, &spent[pl])
		if err != nil {
			score.Replaced[pl]++
			if errors.Is(err, errLate) {
				score.Late[pl]++
			}
			if m.MatchTime > 0 && p.used >= m.MatchTime && !p.empty {
				p.empty = true
				log.Warn("time bank empty: every later action is replaced", "player", pl, "hand", hand, "used", p.used)
			}
			a = replacement(h, limit, p.gone)
			log.Info("action replaced", "player", pl, "hand", hand, "position", pos, "by", ActionString(h, limit, a), "err", err)
		}
		if err := h.Apply(a); err != nil {
			return nil, fmt.Errorf("hand %d: %w", hand, err)
		}
	}
	send()
	res := h.Result()
	if m.Log != nil {
		fmt.Fprintf(m.Log, "STATE:%d:%s:%s:%d|%d:%s|%s\n", hand, Betting(h, limit), allCards(h), res.Net[0], res.Net[1], m.Names[at[0]], m.Names[at[1]])
	}
	return res.Net, nil
}

// answer reads a player's line sent while it was to act in h, after state: the
// action it answers, or why it is refused. skip reports a line to pass over: a
// comment, or a MATCHSTATE answer to an earlier state (a late answer).
func answer(h *engine.Hand, limit bool, state, line string) (a engine.Action, skip bool, err error) {
	if comment(line) {
		return a, true, nil
	}
	act, ok := strings.CutPrefix(line, state+":")
	if !ok {
		if strings.HasPrefix(line, "MATCHSTATE:") {
			return a, true, nil
		}
		return a, false, fmt.Errorf("%w: answer %q to %q", ErrState, clip(line), state)
	}
	a, err = Action(h, limit, act)
	if err != nil {
		return a, false, err
	}
	if err := h.Clone().Apply(a); err != nil {
		return a, false, fmt.Errorf("%w: illegal action %q: %w", ErrState, clip(act), err)
	}
	return a, false, nil
}

// replacement is the action that stands in for a player's missing, late or
// refused one: a check or call, as the ACPC dealer does, or for a player that hung
// up a fold, but only where ACPC allows one (something to call).
func replacement(h *engine.Hand, limit bool, gone bool) engine.Action {
	if gone {
		if a, err := Action(h, limit, "f"); err == nil {
			return a
		}
	}
	a, _ := Action(h, limit, "c")
	return a
}

// allCards writes every card of the hand (the log shows both hands).
func allCards(h *engine.Hand) string {
	var b strings.Builder
	for i := range h.Seats() {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(cards.Format(h.Cards(i)))
	}
	for i, c := range h.Board() {
		if i == 0 || i >= 3 {
			b.WriteByte('/')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// read gets the action of player p, who was sent state; spent is p's time in
// this hand so far. The wait is the least of the timeout, what is left of the
// hand's time and what is left of the time bank; the time it takes is charged to
// both. A MATCHSTATE line that answers another state (a late answer to an
// earlier one) is skipped; any other line that is not a comment ends the wait
// with an error, as does an illegal action.
func (m *Match) read(ctx context.Context, p *player, h *engine.Hand, limit bool, state string, spent *time.Duration) (engine.Action, error) {
	if p.gone {
		return engine.Action{}, errGone
	}
	wait := m.Timeout
	if m.HandTime > 0 {
		wait = min(wait, m.HandTime-*spent)
	}
	if m.MatchTime > 0 {
		wait = min(wait, m.MatchTime-p.used)
	}
	if wait <= 0 {
		return engine.Action{}, errNoTime
	}
	start := time.Now()
	defer func() {
		d := time.Since(start)
		*spent += d
		p.used += d
	}()
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				p.gone = true
				p.conn.Close()
				return engine.Action{}, fmt.Errorf("%w: %w", errGone, p.err)
			}
			a, skip, err := answer(h, limit, state, line)
			if skip {
				continue
			}
			return a, err
		case <-t.C:
			return engine.Action{}, fmt.Errorf("%w (%v)", errLate, wait)
		case <-ctx.Done():
			return engine.Action{}, ctx.Err()
		}
	}
}
