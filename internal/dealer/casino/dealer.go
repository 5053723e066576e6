package casino

import (
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/addrkey"
	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/dealer/gate"
	"github.com/felt-poker/felt/internal/engine"
)

// ErrConfig is wrapped by New for a configuration it cannot run.
var ErrConfig = errors.New("bad dealer configuration")

// Defaults for the zero fields of Config.
const (
	DefaultTimeout   = time.Second
	DefaultStack     = 100
	DefaultTableSize = engine.MaxSeats
	DefaultBot       = "montecarlo"
	DefaultFlushWait = 5 * time.Second
	// DefaultMaxPlayers bounds the network players of a game: a hundred full
	// tables.
	DefaultMaxPlayers = 1000
	// DefaultMaxPerAddress bounds the network players of a game from one
	// address: a class running every student's bot from one machine fits, a
	// script on one machine fills a tenth of the default lobby at most.
	DefaultMaxPerAddress = 100
	// MinStartToken is the shortest StartToken accepted, so that it cannot be
	// guessed over the network.
	MinStartToken = 16
)

// Config configures a Dealer. Zero fields take the defaults above.
type Config struct {
	// Players is the number of network players whose login starts the game (bots
	// are not counted); 0 waits for Start.
	Players int
	// MaxPlayers bounds the network players logged in at once before the start
	// (a login past it is told done:game full), and the players who hung up in
	// the lobby that the standings keep (a login forgets the first of them to go
	// while they are MaxPlayers).
	MaxPlayers int
	// MaxPerAddress bounds the network players logged in at once from one
	// address (internal/addrkey: an IPv4 address, an IPv6 /64) before the start,
	// and those of one IPv6 /48 to addrkey.WideFactor times it; a login past
	// either is told done:too many players from one address.
	MaxPerAddress int
	// Hands bounds the rounds of hands played (0: until one player is left). With
	// more players than one table seats, a round deals one hand at every table.
	Hands int
	// Stack is every player's chips at the start; Ante what each pays per hand.
	Stack, Ante int64
	// Timeout is how long a player has to answer a message.
	Timeout time.Duration
	// Bots felt bots fill seats when the game starts; Bot names them (a name of the
	// bot registry, or "stud" for this package's reference strategy).
	Bots int
	Bot  string
	// TableSize is the most players at one table (2 to engine.MaxSeats).
	TableSize int
	// Seed, when not nil, fixes every hand's shuffle (each hand's seed is drawn from
	// a ChaCha8 stream keyed by it); otherwise the seed comes from crypto/rand. The
	// hand log records each hand's seed either way.
	Seed *cards.Seed
	// HandLog, when not nil, receives every hand as PHH (a .phhs file).
	HandLog io.Writer
	// Logger receives the dealer's log; nil discards it.
	Logger *slog.Logger
	// FlushWait bounds the wait, at the end of the game, for every connection to
	// write its last messages (status, done) and close; connections still open
	// then are closed. It is one wait for all connections together.
	FlushWait time.Duration
	// StartToken is the secret that the spectator page's POST /start must carry
	// (see Handler); empty, New makes a random one (StartToken returns it).
	StartToken string
}

// Dealer runs one Casino Day game: it takes logins, starts, deals three card stud
// until one player is left or the hands run out, and reports the standings. The
// game loop owns every engine hand; each network player has its own goroutine.
type Dealer struct {
	cfg   Config
	log   *slog.Logger
	seeds *rand.ChaCha8
	hands *handLog
	show  *spectators
	gate  *gate.Gate // the connections that have not answered login
	// fromAddr counts the network players in (not out) by address and /48
	// (MaxPerAddress); join takes a place, putOut gives it back.
	fromAddr *addrkey.Counter
	// pub makes publishing one step, from reading the state to storing the
	// snapshot, so that an older snapshot never replaces a newer one.
	pub sync.Mutex

	mu       sync.Mutex // guards the fields below and every entrant
	players  []*entrant
	remotes  []*remote // every connection not yet closed, for finish to flush
	round    int
	tables   map[int]TableView // the hand at each table, for the spectators
	joined   int               // logins and bots so far: the next entrant's order
	recent   []ActionView      // the running list of actions, for the spectators
	seq      int               // lines recorded in recent so far
	started  bool
	over     bool
	startNow chan struct{} // closed by Start or when Players have logged in
}

// entrant is one player of the game, network or bot.
type entrant struct {
	id, avatar string
	addr       string  // addrkey of a network player's connection
	order      int     // join order: seat order and tie-break of the standings
	remote     *remote // nil for a bot
	bot        bot.Bot // nil for a network player
	chips      int64   // chips not in a pot between hands
	out        bool    // out of the game (see reason)
	reason     string  // why it went out
	outHand    int     // the hand (round) it went out in
	last       string  // its last action, for the spectators
}

// Standing is one player's result.
type Standing struct {
	Place  int    `json:"place"`
	ID     string `json:"id"`
	Avatar string `json:"avatar"`
	Bot    bool   `json:"bot"`
	Chips  int64  `json:"chips"`
	// Out reports the player went out, in round OutHand (0: before the first
	// hand), for Reason.
	Out     bool   `json:"out"`
	OutHand int    `json:"outHand"`
	Reason  string `json:"reason"`
}

// Result is the outcome of a game.
type Result struct {
	// Hands is the number of rounds of hands dealt; Standings every player, the
	// winner first.
	Hands     int
	Standings []Standing
	// Seed is the master seed the hands' seeds were drawn from.
	Seed cards.Seed
}

// New checks cfg and returns a dealer ready to Run.
func New(cfg Config) (*Dealer, error) {
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Stack == 0 {
		cfg.Stack = DefaultStack
	}
	if cfg.Ante == 0 {
		cfg.Ante = engine.DefaultStudAnte
	}
	if cfg.TableSize == 0 {
		cfg.TableSize = DefaultTableSize
	}
	if cfg.Bot == "" {
		cfg.Bot = DefaultBot
	}
	if cfg.FlushWait == 0 {
		cfg.FlushWait = DefaultFlushWait
	}
	if cfg.MaxPlayers == 0 {
		cfg.MaxPlayers = DefaultMaxPlayers
	}
	if cfg.MaxPerAddress == 0 {
		cfg.MaxPerAddress = DefaultMaxPerAddress
	}
	if cfg.StartToken == "" {
		cfg.StartToken = crand.Text()
	}
	switch {
	case cfg.Players < 0, cfg.Hands < 0, cfg.Bots < 0, cfg.MaxPlayers < 0, cfg.MaxPerAddress < 0:
		return nil, fmt.Errorf("%w: negative players, hands or bots", ErrConfig)
	case cfg.Players > cfg.MaxPlayers:
		return nil, fmt.Errorf("%w: %d players to start, more than the %d that may log in", ErrConfig, cfg.Players, cfg.MaxPlayers)
	case cfg.Stack < cfg.Ante || cfg.Ante < 0:
		return nil, fmt.Errorf("%w: stack %d cannot pay ante %d", ErrConfig, cfg.Stack, cfg.Ante)
	case cfg.Timeout < 0, cfg.FlushWait < 0:
		return nil, fmt.Errorf("%w: negative timeout", ErrConfig)
	case len(cfg.StartToken) < MinStartToken:
		return nil, fmt.Errorf("%w: start token shorter than %d characters", ErrConfig, MinStartToken)
	case cfg.TableSize < engine.MinSeats || cfg.TableSize > engine.MaxSeats:
		return nil, fmt.Errorf("%w: table size %d not in %d..%d", ErrConfig, cfg.TableSize, engine.MinSeats, engine.MaxSeats)
	}
	if _, err := NewBot(cfg.Bot, cfg.botGame(), nil); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	seed := cards.RandomSeed()
	if cfg.Seed != nil {
		seed = *cfg.Seed
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	d := &Dealer{
		cfg:      cfg,
		log:      log,
		seeds:    rand.NewChaCha8(seed),
		hands:    &handLog{w: cfg.HandLog},
		show:     newSpectators(),
		gate:     gate.New(0, 0),
		fromAddr: &addrkey.Counter{Max: cfg.MaxPerAddress},
		startNow: make(chan struct{}),
	}
	d.hands.seed = seed
	d.publish()
	return d, nil
}

// NewBot makes an in-process player for game g (nil: not known): "stud" is this
// package's reference strategy, any other name a bot of the felt registry
// (internal/bot). r may be nil.
func NewBot(name string, g *bot.Game, r *rand.Rand) (bot.Bot, error) {
	if name == StudBotName {
		return Reference{}, nil
	}
	return bot.New(name, bot.Options{Rand: r, Game: g})
}

// botGame is the game the dealer's bots play: three card stud at its tables.
func (c *Config) botGame() *bot.Game {
	return &bot.Game{Variant: engine.StudThree, Seats: c.TableSize}
}

// StartToken returns the secret of the spectator page's start button (Handler).
func (d *Dealer) StartToken() string { return d.cfg.StartToken }

// Start starts the game now with the players logged in so far (the spectator
// page's start button). It is safe to call more than once, from any goroutine.
func (d *Dealer) Start() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.started {
		d.started = true
		close(d.startNow)
	}
}

// Run accepts players on ln, plays the game and returns its result. It closes ln
// when the game is over. Cancelling ctx ends the game after the hands being played
// (every player still in is told "done:dealer shutting down"). Run returns once
// every player has been sent its last messages, or FlushWait after the end.
func (d *Dealer) Run(ctx context.Context, ln net.Listener) (Result, error) {
	d.log.Info("dealer listening", "addr", ln.Addr().String(), "players", d.cfg.Players, "seed", d.hands.seed.String())
	var accepting sync.WaitGroup
	accepting.Go(func() { d.accept(ctx, ln) })
	defer accepting.Wait()
	defer ln.Close()

	select {
	case <-d.startNow:
	case <-ctx.Done():
		d.Start() // refuse late logins
		ln.Close()
		d.finish(ReasonShutdown)
		return Result{Seed: d.hands.seed, Standings: d.standings()}, ctx.Err()
	}
	if err := d.addBots(); err != nil {
		return Result{}, err
	}
	round := 0
	for d.cfg.Hands == 0 || round < d.cfg.Hands {
		alive := d.alive()
		if len(alive) < 2 || ctx.Err() != nil {
			break
		}
		round++
		d.mu.Lock()
		d.round = round
		d.tables = map[int]TableView{}
		d.mu.Unlock()
		d.playRound(round, alive)
	}
	why := ReasonGameOver
	if ctx.Err() != nil {
		why = ReasonShutdown
	}
	ln.Close() // no login from now on: finish waits for a known set of connections
	d.finish(why)
	res := Result{Hands: round, Standings: d.standings(), Seed: d.hands.seed}
	d.mu.Lock()
	d.over = true
	d.mu.Unlock()
	d.publish()
	if err := d.hands.err; err != nil {
		return res, fmt.Errorf("hand log: %w", err)
	}
	return res, nil
}

// accept takes connections until ln is closed; each logs in on its own goroutine.
// A temporary failure to accept (too many open files) is waited out.
func (d *Dealer) accept(ctx context.Context, ln net.Listener) {
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		c, err := gate.Accept(ctx, ln, func(err error) { d.log.Warn("accept failed: retrying", "err", err) })
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				d.log.Warn("accept", "err", err)
			}
			return
		}
		answered := d.gate.Admit(c) // in the order of arrival
		wg.Go(func() { d.login(ctx, c, answered) })
	}
}

// login asks a new connection for its name and seats it if the game has not
// started. A bad or late answer, or a full game, closes the connection. Until it
// answers, the connection counts in the dealer's gate (answered ends that): a
// flood of connections that never answer closes its own oldest ones.
func (d *Dealer) login(ctx context.Context, c net.Conn, answered func()) {
	addr := c.RemoteAddr().String()
	p := newRemote(c, d.cfg.Timeout)
	d.track(p)
	text, err := p.ask(MsgLogin)
	answered()
	if err == nil {
		var id, avatar string
		id, avatar, err = ParseLogin(text)
		if err == nil {
			err = d.join(id, avatar, p)
		}
	}
	if err != nil {
		d.log.Info("login refused", "addr", addr, "err", err)
		p.bye(reason(err))
		return
	}
}

// errRefused wraps why a login was refused; its text is the done reason.
type errRefused string

func (e errRefused) Error() string { return string(e) }

// join seats a logged-in player; it starts the game when enough have joined. A
// player who went out before the start (it hung up in the lobby) does not count,
// and its id may log in again.
func (d *Dealer) join(id, avatar string, p *remote) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.started {
		return errRefused(ReasonStarted)
	}
	addr := addrkey.OfAddr(p.conn.RemoteAddr())
	in, gone := 0, 0
	for i, e := range d.players {
		if e.id == id {
			if !e.out {
				return errRefused(ReasonDuplicate)
			}
			d.players = slices.Delete(d.players, i, i+1)
			break
		}
	}
	for _, e := range d.players {
		if e.out {
			gone++
		} else {
			in++
		}
	}
	if in >= d.cfg.MaxPlayers {
		return errRefused(ReasonFull)
	}
	if !d.fromAddr.Take(addr) {
		return errRefused(ReasonAddressFull)
	}
	if gone >= d.cfg.MaxPlayers { // forget the player who hung up first
		i := slices.IndexFunc(d.players, func(e *entrant) bool { return e.out })
		d.players = slices.Delete(d.players, i, i+1)
	}
	e := &entrant{id: id, avatar: avatar, addr: addr, order: d.joined, remote: p, chips: d.cfg.Stack}
	d.joined++
	d.players = append(d.players, e)
	in++
	d.log.Info("login", "id", id, "avatar", avatar, "addr", p.conn.RemoteAddr().String(), "players", in)
	if d.cfg.Players > 0 && in >= d.cfg.Players {
		d.started = true
		close(d.startNow)
	}
	go d.watch(e)
	go d.publish()
	return nil
}

// watch puts a network player out as soon as its connection finds it gone, or
// breaking a rule, while it waits for its turn or for the start. It returns when
// the connection ends for another reason.
func (d *Dealer) watch(e *entrant) {
	select {
	case <-e.remote.lost:
	case <-e.remote.quit:
		return
	}
	d.mu.Lock()
	round := d.round
	d.mu.Unlock()
	d.log.Info("player lost while waiting", "id", e.id, "err", e.remote.lostErr)
	d.putOut(e, round, reason(e.remote.lostErr))
	d.publish()
}

// addBots seats the configured bots after the network players.
func (d *Dealer) addBots() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := range d.cfg.Bots {
		var s [32]byte
		d.seeds.Read(s[:])
		b, err := NewBot(d.cfg.Bot, d.cfg.botGame(), rand.New(rand.NewChaCha8(s)))
		if err != nil {
			return err
		}
		d.players = append(d.players, &entrant{
			id: fmt.Sprintf("felt-%s-%d", d.cfg.Bot, i+1), avatar: "Robot",
			order: d.joined, bot: b, chips: d.cfg.Stack,
		})
		d.joined++
	}
	return nil
}

// alive returns the players still in, in seat order.
func (d *Dealer) alive() []*entrant {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []*entrant
	for _, e := range d.players {
		if !e.out {
			out = append(out, e)
		}
	}
	return out
}

// tables splits players into the fewest tables of at most TableSize seats, their
// sizes as equal as possible, keeping seat order.
func tables(players []*entrant, size int) [][]*entrant {
	k := (len(players) + size - 1) / size
	out := make([][]*entrant, 0, k)
	for i := range k {
		lo, hi := i*len(players)/k, (i+1)*len(players)/k
		out = append(out, players[lo:hi])
	}
	return out
}

// playRound deals one hand at every table at once and then puts out the players
// who cannot pay the next ante.
func (d *Dealer) playRound(round int, alive []*entrant) {
	ts := tables(alive, d.cfg.TableSize)
	seeds := make([]cards.Seed, len(ts))
	for i := range seeds {
		d.seeds.Read(seeds[i][:])
	}
	var wg sync.WaitGroup
	for i, t := range ts {
		wg.Go(func() { d.playHand(round, i, t, seeds[i]) })
	}
	wg.Wait()
	for _, e := range alive {
		if !e.out && e.chips < d.cfg.Ante {
			d.putOut(e, round, ReasonNoChips)
		}
	}
	d.publish()
}

// putOut removes a player from the game; a network player is told why and its
// connection closed.
func (d *Dealer) putOut(e *entrant, round int, why string) {
	d.mu.Lock()
	if e.out {
		d.mu.Unlock()
		return
	}
	e.out, e.reason, e.outHand = true, why, round
	if e.remote != nil {
		d.fromAddr.Release(e.addr)
	}
	d.record(round, 0, e.id, "out: "+why)
	d.mu.Unlock()
	d.log.Info("out", "id", e.id, "hand", round, "reason", why, "chips", e.chips)
	if e.remote != nil {
		e.remote.bye(why)
	}
}

// track adds a new connection to those finish waits for, and forgets those
// already closed.
func (d *Dealer) track(p *remote) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.remotes = slices.DeleteFunc(d.remotes, (*remote).closed)
	d.remotes = append(d.remotes, p)
}

// finish tells every player still in that the game is over, then waits until
// every connection has written its last messages (the done of a player put out
// in the last hand too) and closed, so that the process may exit without losing
// them. After FlushWait it closes the connections still open: a player that does
// not read cannot hold the dealer longer.
func (d *Dealer) finish(why string) {
	d.mu.Lock()
	for _, e := range d.players {
		if !e.out && e.remote != nil {
			e.remote.bye(why)
		}
	}
	remotes := slices.Clone(d.remotes)
	d.mu.Unlock()
	t := time.NewTimer(d.cfg.FlushWait)
	defer t.Stop()
	for i, p := range remotes {
		select {
		case <-p.quit:
		case <-t.C:
			n := 0
			for _, p := range remotes[i:] {
				if !p.closed() {
					p.conn.Close()
					n++
				}
			}
			d.log.Warn("last messages not written in time: connections closed", "wait", d.cfg.FlushWait, "connections", n)
			return
		}
	}
}

// standings orders every player: those still in by chips, then those out, the
// last to go out first; ties by chips, then seat order.
func (d *Dealer) standings() []Standing {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Standing, len(d.players))
	for i, e := range d.players {
		out[i] = Standing{ID: e.id, Avatar: e.avatar, Bot: e.bot != nil, Chips: e.chips, Out: e.out, OutHand: e.outHand, Reason: e.reason}
	}
	order := make(map[string]int, len(d.players))
	for _, e := range d.players {
		order[e.id] = e.order
	}
	slices.SortStableFunc(out, func(a, b Standing) int {
		switch {
		case a.Out != b.Out:
			if a.Out {
				return 1
			}
			return -1
		case a.Out && a.OutHand != b.OutHand:
			return b.OutHand - a.OutHand
		case a.Chips != b.Chips:
			if a.Chips > b.Chips {
				return -1
			}
			return 1
		}
		return order[a.ID] - order[b.ID]
	})
	for i := range out {
		out[i].Place = i + 1
	}
	return out
}
