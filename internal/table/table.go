// Package table is felt's live table runtime. One goroutine owns a table and the
// engine hand in play and adds what the engine must not know: seats, buy-ins and
// cash-outs, sitting out and in, the action clock and time bank, disconnect grace,
// blind levels and bots. The outside reaches it only through methods that enqueue
// commands, and hears from it through messages built for each recipient with every
// card it may not see already removed (docs/protocol.md).
package table

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/history"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
)

// Errors that callers branch on (engine errors come through unchanged).
var (
	ErrClosed    = errors.New("table closed")
	ErrNotSeated = errors.New("not seated at this table")
	ErrSeated    = errors.New("already seated at this table")
	ErrSeatTaken = errors.New("seat taken")
	ErrAnonymous = errors.New("log in first")
	// ErrPrivate refuses a stranger who would watch (or chat at) a table whose
	// players keep it to themselves (Config.Watchers).
	ErrPrivate = fmt.Errorf("%w: this table is private: only its players may watch it", house.ErrForbidden)
)

// Player is a person at a table: a registered or guest account. ID 0 is an
// anonymous spectator.
type Player struct {
	ID   int64
	Name string
}

// Sink receives the messages (JSON text) for one watcher. Send must not block.
type Sink interface {
	Send(msg []byte)
}

// bankTimeout bounds each ledger call made by a table.
const bankTimeout = 10 * time.Second

// roomChat is the room chat's rate: lines per window.
const (
	roomChatLines  = 5
	roomChatWindow = 10 * time.Second
	// roomAddrChatLines bounds the lines said from one address in
	// roomChatWindow, whoever says them: guests are cheap.
	roomAddrChatLines = 10
	roomChatLog       = 30
)

type seat struct {
	occupied bool
	p        Player
	bot      *botSeat // nil for a person
	// stack is the seat's chips: between hands all of them, during a hand the
	// stack it was dealt in with (the engine has the live one).
	stack      int64
	inHand     bool
	sittingOut bool
	leaving    bool // stand up after the hand
	left       bool // left the room; folded, cashed out after the hand
	away       bool
	awaySince  time.Time
	// sitOutSince is when the seat began sitting out (see Config.SitOutLimit).
	sitOutSince time.Time
	timeouts    int
	bank        time.Duration
	// topUp is chips bought in during a hand the seat plays (TopUp), added to
	// the stack when the hand ends; booking is a top-up being booked.
	topUp, booking int64
	// straddle and runTwice are the player's choices (Options).
	straddle, runTwice bool
	// owesBB: hands were dealt while the seat sat out, so it is dealt in
	// again only at the big blind (dealtIn): a player could otherwise sit
	// out whenever the blinds came to them and play every other hand free.
	owesBB bool
	// basis is the chips the player brought to the seat of their own free
	// will (buy-in and top-ups, less what they were bound to bring back
	// from winnings here: departure.won); chips above it are winnings.
	basis int64
}

type watcher struct {
	p    Player
	sink Sink
}

// Table is one live table. Its methods are safe for concurrent use.
type Table struct {
	cfg  Config
	ref  string
	log  *slog.Logger
	cmds chan func()
	// loopDone is closed when the goroutine has ended; done once the cash-outs
	// and models it left are written too.
	loopDone chan struct{}
	done     chan struct{}
	ledger   *ledger
	// botJobs counts the bots' jobs queued or running (botrun.go).
	botJobs sync.WaitGroup
	models  *modelSaver // nil without Config.BotModels

	// Everything below belongs to the table's goroutine.
	closed      bool
	moved       bool // closed by abandon: the table goes on on another node
	seats       []seat
	reserved    map[int]int64    // seat -> the player buying in for it (Sit)
	admitted    map[int64]bool   // players who gave a locked table's key (Admit)
	admitOrder  []int64          // the same, in the order they gave it
	waiting     []Player         // the waiting list, first in line first (waitlist.go)
	waitFrom    map[int64]string // by player on the waiting list: the address they joined from
	offer       *offer           // the seat held for the first in line, or nil
	watchers    map[int]*watcher
	nextWatcher int

	// departed are the players' last departures from a seat, by player
	// (departures.go); departSeq counts them.
	departed  map[int64]departure
	departSeq uint64
	// keeper keeps the departures in the house's store (nil: they are not:
	// a tournament's table, a heads-up game, a bank that keeps none);
	// unkept are the players whose departure it should forget, and unstored
	// those whose departure, read from the log, it lacks (keepMissing),
	// until the ledger is there to. closing: closeTable is paying back the
	// seats (the house closes them: no departures kept).
	keeper   DepartureKeeper
	unkept   []int64
	unstored []int64
	closing  bool
	// loggedLeft is, while a table taken over opens, when each departure
	// read from its log was made (its writer's clock; storedLater).
	loggedLeft map[int64]time.Time

	hand        *engine.Hand
	handCfg     engine.Config
	handPlayers []Player
	handNo      int64
	handID      int64
	handLive    bool
	handStart   time.Time
	handKey     string // the table's reference and the hand's number
	seedHash    string // history.SeedCommitment of handKey and the seed
	firstHandAt time.Time
	button      int
	level       int
	nextHandAt  time.Time
	emptySince  time.Time
	hadHuman    bool

	clockSeat  int
	clockStart time.Time
	botAt      time.Time
	// thinking is the decision a bot is asked for, or nil (botrun.go).
	thinking *thought

	chipsIn, chipsOut int64
	// tSmall, tBig and tAnte are a tournament's blinds now (Config.Tourney).
	tSmall, tBig, tAnte int64

	limiter *chat.Limiter[int64]  // room chat, by player
	addrs   *chat.Limiter[string] // room chat, by address
	chatLog *chat.Log
	// chatSaid counts the lines said at the table.
	chatSaid int

	// What the HandLog has of the table's own state (notes.go): the seats
	// (LogSeat.key), the waiting list, how many admissions and chat lines,
	// and the notes since its last state; clockNoted is when the clock of
	// the seat to act was last noted. loggedSeats is nil until the log has
	// the table's state.
	// lastEnd is the hand the log's last end record carries (LogState.Last),
	// until the next hand starts.
	lastEnd       *store.Hand
	loggedSeats   []LogSeat
	loggedWaiting []LogPlayer
	loggedAdmits  int
	loggedChat    int
	notes         int
	clockNoted    time.Time
	// loggedDepartSeq is the last departure the log has (departure.seq).
	loggedDepartSeq uint64

	// returnEnds is when the first State.Return sent ends (zero: none
	// was): the watchers are then sent a state without it.
	returnEnds time.Time

	version, sent uint64
	lastInfo      Info
	haveInfo      bool
}

// DefaultRefPrefix begins the references of tables whose Config.RefPrefix is
// empty: the house's and the players' tables.
const DefaultRefPrefix = "table:"

// RefsOf returns what begins the reference of every table called name whose
// references begin with prefix (each table adds a random part of its own).
func RefsOf(prefix, name string) string { return prefix + name + "#" }

// New opens a table, seats its bots and starts its goroutine.
func New(cfg Config) (*Table, error) {
	cfg.DefaultTimes()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.RefPrefix == "" {
		cfg.RefPrefix = DefaultRefPrefix
	}
	seed := cards.RandomSeed()
	t := &Table{
		cfg:       cfg,
		ref:       RefsOf(cfg.RefPrefix, cfg.Name) + hex.EncodeToString(seed[:4]),
		log:       cfg.Log.With("table", cfg.Name),
		cmds:      make(chan func()),
		loopDone:  make(chan struct{}),
		done:      make(chan struct{}),
		seats:     make([]seat, cfg.Seats),
		reserved:  make(map[int]int64),
		waitFrom:  make(map[int64]string),
		admitted:  make(map[int64]bool),
		watchers:  make(map[int]*watcher),
		button:    -1,
		clockSeat: -1,
		limiter:   chat.NewLimiter[int64](roomChatLines, roomChatWindow),
		addrs:     chat.NewLimiter[string](roomAddrChatLines, roomChatWindow),
		chatLog:   chat.NewLog(roomChatLog),
		version:   1, // the first flush reports the listing
	}
	if k, ok := cfg.Bank.(DepartureKeeper); ok && cfg.Tourney == nil && !cfg.HeadsUp {
		t.keeper = k
	}
	if err := t.open(cfg, seed); err != nil {
		if t.models != nil {
			t.models.close()
		}
		return nil, err
	}
	t.ledger = newLedger(t)
	for _, id := range t.unkept {
		t.unkeep(id)
	}
	var deps []store.Departure
	for _, id := range t.unstored {
		if d := t.kept(id); d != nil {
			deps = append(deps, *d)
		}
	}
	if len(deps) > 0 { // one write, not one per departure ahead of the cash-outs
		t.ledger.add(cashOutOp{deps: deps, keep: true})
	}
	t.unkept, t.unstored = nil, nil
	go t.run()
	return t, nil
}

// open seats the table's bots, resumes its state or seats a tournament's
// players, and writes the opening records of its log.
func (t *Table) open(cfg Config, seed [32]byte) error {
	stake := cfg.BotStack
	if stake == 0 {
		stake = cfg.MaxBuyIn
	}
	var models bot.ModelStore
	if cfg.BotModels != nil {
		t.models = newModelSaver(cfg.BotModels, t.log)
		models = t.models
	}
	rng := rand.New(rand.NewChaCha8(seed))
	for i, name := range cfg.Bots {
		b, err := t.newBotSeat(name, bot.Options{Rand: rand.New(rand.NewChaCha8(randomSeed(rng))), Models: models, Game: cfg.botGame()})
		if err != nil {
			return err
		}
		t.seats[i] = seat{occupied: true, p: Player{Name: fmt.Sprintf("%s%s-%d", house.BotPrefix, b.name, i+1)}, bot: b, stack: stake}
		t.chipsIn += stake
	}
	if cfg.Resume != nil && cfg.Tourney == nil {
		if err := t.resume(cfg.Resume, time.Now()); err != nil {
			return err
		}
	}
	t.loadDeparted(time.Now())
	if cfg.Tourney != nil {
		if err := t.seatAll(cfg); err != nil {
			return err
		}
		t.tourneyBlinds(time.Now())
	}
	if err := t.logResumed(); err != nil {
		return err
	}
	return t.logOpened()
}

func randomSeed(r *rand.Rand) [32]byte {
	var s [32]byte
	for i := 0; i < len(s); i += 8 {
		v := r.Uint64()
		for j := range 8 {
			s[i+j] = byte(v >> (8 * j))
		}
	}
	return s
}

// Name returns the table's name.
func (t *Table) Name() string { return t.cfg.Name }

// Ref returns the table's reference in the ledger and hand records.
func (t *Table) Ref() string { return t.ref }

// Done is closed when the table has closed, its goroutine ended and the
// cash-outs and bot models it left are written.
func (t *Table) Done() <-chan struct{} { return t.done }

// Moved reports whether the table has stopped without closing, to go on on
// another node of the house (HandOver, a refused HandLog write): false until
// Done is closed, and for a table that closed.
func (t *Table) Moved() bool {
	select {
	case <-t.done:
		return t.moved
	default:
		return false
	}
}

// call runs f on the table's goroutine and returns its error.
func (t *Table) call(ctx context.Context, f func() error) error {
	reply := make(chan error, 1)
	select {
	case t.cmds <- func() { reply <- t.noted(f()) }:
	case <-t.loopDone:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// callSure runs f on the table's goroutine and returns its error, or ErrClosed
// when f did not run: it has no deadline of its own, for a step that must not be
// left half done (the table's goroutine never waits for anything slow).
func (t *Table) callSure(f func() error) error {
	reply := make(chan error, 1)
	select {
	case t.cmds <- func() { reply <- t.noted(f()) }:
		return <-reply
	case <-t.loopDone:
		return ErrClosed
	}
}

// finish ends what the goroutine leaves behind (once it has ended): the
// cash-outs, the bots' last jobs and the models still to write.
func (t *Table) finish() {
	t.ledger.close()
	t.botJobs.Wait()
	if t.models != nil {
		t.models.close()
	}
	close(t.done)
}

func (t *Table) run() {
	defer func() {
		close(t.loopDone)
		go t.finish()
	}()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		now := time.Now()
		if !t.closed {
			t.step(now)
			_ = t.logChanges(now)
		}
		t.flush(now)
		if t.closed {
			switch {
			case t.moved && t.cfg.Hooks.Moved != nil:
				t.cfg.Hooks.Moved(t.cfg.Name)
			case t.cfg.Hooks.Closed != nil:
				t.cfg.Hooks.Closed(t.cfg.Name)
			}
			return
		}
		timer.Reset(t.nextWake(now))
		select {
		case f := <-t.cmds:
			f()
		case <-timer.C:
		}
	}
}

// step does everything that is due at now: grace expiries, bots' and timed-out
// actions, the end of a hand, the start of the next, closing an empty table.
func (t *Table) step(now time.Time) {
	if !t.returnEnds.IsZero() && !now.Before(t.returnEnds) {
		t.version++ // a return window ended: its player's buy-in is the table's again
	}
	t.checkGrace(now)
	t.checkSittingOut(now)
	t.checkWaitlist(now)
	for t.handLive {
		if t.hand.Over() {
			t.finishHand(now)
			break
		}
		s := t.hand.ToAct()
		if t.clockSeat != s {
			t.endThought()
			t.clockSeat, t.clockStart, t.botAt, t.clockNoted = s, now, now.Add(t.cfg.BotDelay), now
			t.version++
		}
		st := &t.seats[s]
		if st.bot != nil {
			if !t.botStep(s, now) {
				break
			}
		} else if st.left || (st.sittingOut && t.tourney()) {
			// A player who left is folded at once, and one who sits out at a
			// tournament's table (blinded out); one whose connection dropped
			// keeps the whole clock and time bank (Config.Grace).
			t.autoAct(s)
		} else if !now.Before(t.deadline()) {
			t.timeout(s)
		} else {
			break
		}
	}
	if t.closed {
		return
	}
	if !t.handLive && !now.Before(t.nextHandAt) && t.startHand(now) {
		// Everyone sees the new hand and its seed commitment before any of it is
		// played, even a hand that its forced bets alone decide.
		t.flush(now)
		t.step(now)
		return
	}
	if t.closed { // the hand's log refused its start (abandon)
		return
	}
	t.checkIdle(now)
}

func (t *Table) deadline() time.Time {
	return t.clockStart.Add(t.cfg.ActionTime + t.seats[t.clockSeat].bank)
}

// nextWake returns how long the goroutine may sleep before something is due.
func (t *Table) nextWake(now time.Time) time.Duration {
	next := now.Add(time.Hour)
	earlier := func(at time.Time) {
		if at.After(now) && at.Before(next) {
			next = at
		}
	}
	if t.handLive && t.clockSeat >= 0 {
		if th := t.thinking; th != nil && th.done {
			earlier(t.botAt)
		}
		earlier(t.deadline())
		if t.seats[t.clockSeat].bot == nil && t.cfg.HandLog != nil {
			earlier(t.clockNoted.Add(clockNoteEvery))
		}
	}
	if !t.handLive {
		earlier(t.nextHandAt)
	}
	for i := range t.seats {
		if st := &t.seats[i]; st.occupied && st.away && !st.left {
			earlier(st.awaySince.Add(t.cfg.Grace))
		}
		if st := &t.seats[i]; st.occupied && st.sittingOut && st.bot == nil {
			earlier(st.sitOutSince.Add(t.cfg.SitOutLimit))
		}
	}
	if !t.emptySince.IsZero() {
		earlier(t.emptySince.Add(t.cfg.IdleClose))
	}
	if t.offer != nil {
		earlier(t.offer.until)
	}
	if !t.returnEnds.IsZero() {
		earlier(t.returnEnds)
	}
	return next.Sub(now)
}

// applied notes that an action changed the hand.
func (t *Table) applied() {
	t.clockSeat = -1
	t.version++
}

// autoAct checks when the seat may, and folds otherwise.
func (t *Table) autoAct(s int) {
	kind := engine.Fold
	if t.hand.Legal().Can(engine.Check) {
		kind = engine.Check
	}
	if err := t.apply(engine.Action{Seat: s, Kind: kind}); err != nil && !t.closed {
		t.log.Error("automatic action refused", "seat", s, "kind", kind.String(), "err", err)
		_ = t.apply(engine.Action{Seat: s, Kind: engine.Leave})
	}
	t.applied()
}

func (t *Table) timeout(s int) {
	st := &t.seats[s]
	st.timeouts++
	st.bank = 0
	t.autoAct(s)
	if st.timeouts >= t.cfg.MaxTimeouts && !st.sittingOut {
		st.sitOut(time.Now())
		t.notice(st.p.ID, NoticeMsg{Code: "sat_out", Text: fmt.Sprintf("sat out after %d timeouts in a row; sit in to play again", st.timeouts)})
	}
}

func (t *Table) activeSeat(i int) bool {
	st := &t.seats[i]
	if t.tourney() {
		return st.occupied && st.stack >= t.cfg.minStack()
	}
	return st.occupied && !st.sittingOut && !st.leaving && !st.left && st.stack >= t.cfg.minStack()
}

// mayEnter returns why p may not watch, sit or chat at the table, or nil:
// ErrPrivate for a stranger to a table kept to its players, ErrLocked for
// one who has not given a locked table's key, ErrAnonymous for anyone not
// logged in at a locked table.
func (t *Table) mayEnter(p Player) error {
	if !t.mayWatch(p) {
		return ErrPrivate
	}
	if t.cfg.Lock != nil && p.ID == 0 {
		return ErrAnonymous // a key admits a player: log in first
	}
	if t.cfg.Lock != nil && t.seatOf(p.ID) < 0 && !t.admitted[p.ID] {
		return ErrLocked
	}
	return nil
}

// mayWatch reports whether p may watch the table (Config.Watchers): anyone may
// watch an open table; only its seated players a private one.
func (t *Table) mayWatch(p Player) bool {
	return t.cfg.Watchers == WatchAnyone || t.seatOf(p.ID) >= 0
}

// present reports whether a human is seated or anyone watches.
func (t *Table) present() bool { return t.humanSeated() || len(t.watchers) > 0 }

func (t *Table) humanSeated() bool {
	for i := range t.seats {
		if t.seats[i].occupied && t.seats[i].bot == nil {
			return true
		}
	}
	return false
}

// startHand deals the next hand if at least two seats can play and someone is
// there to see it (bots alone do not play to an empty room).
func (t *Table) startHand(now time.Time) bool {
	n := 0
	for i := range t.seats {
		if t.activeSeat(i) {
			n++
		}
	}
	if n < 2 || (!t.present() && !t.tourney()) {
		return false
	}
	dealt := t.dealtIn()
	if t.firstHandAt.IsZero() {
		t.firstHandAt = now
	}
	t.level = t.levelAt(now)
	v, s := t.cfg.engineGame()
	cfg := engine.Config{
		Variant: v, Structure: s, Stacks: make([]int64, len(t.seats)),
		SmallBlind: t.cfg.SmallBlind << t.level, BigBlind: t.cfg.BigBlind << t.level, Ante: t.cfg.Ante << t.level,
		Button: t.button, Seed: cards.RandomSeed(),
	}
	if t.tourney() {
		cfg.SmallBlind, cfg.BigBlind, cfg.Ante = t.tourneyBlinds(now)
	}
	t.handPlayers = make([]Player, len(t.seats))
	for i := range t.seats {
		st := &t.seats[i]
		st.inHand = dealt[i]
		if st.inHand {
			st.owesBB = false
		} else if st.occupied && st.sittingOut && st.bot == nil && !t.tourney() {
			st.owesBB = true
		}
		if st.inHand {
			cfg.Stacks[i] = st.stack
			t.handPlayers[i] = st.p
			if t.cfg.Straddle && st.straddle && st.bot == nil {
				cfg.Straddlers |= 1 << i
			}
			if t.cfg.RunItTwice && (st.runTwice || st.bot != nil) {
				cfg.RunTwice |= 1 << i
			}
		}
	}
	if t.cfg.HandLog != nil && cfg.Validate() == nil {
		state := t.logState(now)
		state.Hand = t.handNo + 1
		t.lastEnd = nil
		if t.logged(func(ctx context.Context, l HandLog) error { return l.StartHand(ctx, state.Hand, cfg, state) }) != nil {
			return false
		}
	}
	var err error
	if t.hand == nil {
		t.hand, err = engine.New(cfg)
	} else {
		err = t.hand.Reset(cfg)
	}
	if err != nil {
		t.log.Error("cannot deal", "err", err)
		for i := range t.seats {
			t.seats[i].inHand = false
		}
		t.hand = nil
		t.nextHandAt = now.Add(t.cfg.HandPause)
		return false
	}
	t.handCfg = cfg
	t.seatNames()
	t.handNo++
	t.handKey = fmt.Sprintf("%s/%d", t.ref, t.handNo)
	t.seedHash = history.SeedCommitment(t.handKey, cfg.Seed)
	t.handID = 0
	t.handStart = now
	t.handLive = true
	t.clockSeat = -1
	t.version++
	return true
}

// dealtIn moves the button on and returns the seats dealt into the next hand:
// every active seat, but that a seat owing the big blind (owesBB) is dealt in
// only when it sits where the big blind falls (right after the first seat
// dealt after the button, which posts the small blind), or when fewer than
// two others are active to deal without it. The button never goes to a seat
// owing the big blind.
func (t *Table) dealtIn() []bool {
	n := len(t.seats)
	dealt, owing := make([]bool, n), make([]bool, n)
	ready := 0
	for i := range t.seats {
		if t.activeSeat(i) {
			ready++
			owing[i] = t.seats[i].owesBB && !t.tourney()
			dealt[i] = !owing[i]
		}
	}
	if ready-count(owing) < 2 { // too few to deal without them
		for i := range owing {
			dealt[i] = dealt[i] || owing[i]
		}
	}
	t.button = nextButton(t.button, dealt, owing)
	// Three seats or more are ready here (two, and no seat owes): the engine
	// puts the small blind on the first seat dealt after the button and the
	// big blind on the second. A seat owing the big blind is dealt in when it
	// comes right after the small blind, before any other seat dealt; seats
	// owing it between the button and the small blind wait (a seat owing it
	// counted as the small blind's place would have the next one dealt in
	// posting only the small blind, then given the button).
	for k, seen := 1, 0; k < n; k++ {
		i := (t.button + k) % n
		if dealt[i] {
			if seen++; seen == 2 {
				break
			}
		} else if owing[i] && seen == 1 {
			dealt[i] = true
			break
		}
	}
	return dealt
}

// nextButton returns the seat the button moves to from button: the first
// seat dealt after it that owes no big blind, or, when every seat dealt
// owes it, the first dealt. Seats owing the big blind are dealt in at once
// when too few others could play without them; heads-up the button posts
// the small blind, so a player back owing the big blind who sat down right
// after the button would otherwise post the small blind hand after hand.
func nextButton(button int, dealt, owing []bool) int {
	n, first := len(dealt), -1
	for k := 1; k <= n; k++ {
		i := (button + k + n) % n
		if !dealt[i] {
			continue
		}
		if !owing[i] {
			return i
		}
		if first < 0 {
			first = i
		}
	}
	return first
}

// count returns how many of bs are true.
func count(bs []bool) int {
	c := 0
	for _, b := range bs {
		if b {
			c++
		}
	}
	return c
}

func (t *Table) levelAt(now time.Time) int {
	if t.tourney() {
		return t.level
	}
	lvl := 0
	if h := t.cfg.Schedule.EveryHands; h > 0 {
		lvl = int(t.handNo / int64(h))
	}
	if m := t.cfg.Schedule.EveryMinutes; m > 0 {
		lvl = max(lvl, int(now.Sub(t.firstHandAt)/(time.Duration(m)*time.Minute)))
	}
	return min(lvl, maxLevel)
}

func (t *Table) finishHand(now time.Time) {
	t.endThought()
	r := t.hand.Result()
	started := make([]int64, len(t.seats))
	for i := range t.seats {
		started[i] = t.seats[i].stack
		if t.seats[i].inHand {
			t.seats[i].stack = r.Stacks[i]
		}
		t.seats[i].stack += t.seats[i].topUp
		t.seats[i].topUp = 0
	}
	// The hand's end is logged, with the hand as the store records it, before
	// it is recorded: a node that takes the table over after the log's end
	// record records the hand itself (once: by its key), and one that takes it
	// over before finds the hand in play.
	hand := t.handRecord(r)
	if t.cfg.HandLog != nil {
		hand.Key = t.handKey
		end := t.logState(now)
		end.Last = &hand
		t.lastEnd = &hand
		if t.logged(func(ctx context.Context, l HandLog) error { return l.EndHand(ctx, end) }) != nil {
			return
		}
	}
	t.handLive = false
	t.clockSeat = -1
	t.nextHandAt = now.Add(t.cfg.HandPause)
	t.version++
	t.record(hand)
	t.handEnd()
	if t.cfg.Hooks.HandDone != nil {
		t.cfg.Hooks.HandDone()
	}
	if t.tourney() {
		t.finishTourneyHand(started)
		return
	}
	broke := false
	stake := t.cfg.BotStack
	if stake == 0 {
		stake = t.cfg.MaxBuyIn
	}
	for i := range t.seats {
		st := &t.seats[i]
		st.inHand = false
		switch {
		case !st.occupied:
		case st.bot != nil:
			if st.stack < t.cfg.minStack() {
				broke = true
				if !t.cfg.HeadsUp {
					t.chipsIn += stake - st.stack
					st.stack = stake
				}
			}
		case st.left || st.leaving:
			t.cashOut(i, "cashed_out")
		case st.stack < t.cfg.minStack():
			broke = true
			t.cashOut(i, "busted")
		}
	}
	if t.cfg.HeadsUp && (broke || !t.humanSeated()) {
		t.flush(now) // the players see the deciding hand's end before the table closes
		t.closeTable("the heads-up match is over")
	}
}

// handRecord returns the finished hand as the store records it: its PHH text
// and each seat's result.
func (t *Table) handRecord(r engine.Result) store.Hand {
	vpip, pfr := firstRound(t.hand.Events())
	names := make([]string, len(t.seats))
	var players []store.HandPlayer
	for i, p := range t.handPlayers {
		names[i] = p.Name
		if !t.seats[i].inHand {
			continue
		}
		won := false
		for _, pot := range r.Pots {
			for _, a := range pot.Awards {
				won = won || a.Seat == i
			}
		}
		players = append(players, store.HandPlayer{Seat: i, UserID: p.ID, Name: p.Name, Net: r.Net[i], Won: won,
			VPIP: vpip.Has(i), PFR: pfr.Has(i)})
	}
	text, err := t.phh(names)
	if err != nil {
		t.log.Error("hand history", "hand", t.handNo, "err", err)
	}
	bb := t.handCfg.BigBlind
	if t.cfg.Variant == StudThree {
		bb = t.handCfg.Ante
	}
	return store.Hand{TableRef: t.ref, Variant: t.cfg.Variant, BigBlind: bb, PHH: text, PlayedAt: t.handStart, Players: players,
		Private: t.cfg.Watchers == WatchPlayers || t.cfg.Lock != nil, Tournament: t.tourney()}
}

// record stores the finished hand.
func (t *Table) record(hand store.Hand) {
	handNo := t.handNo
	if a, ok := t.cfg.Bank.(AsyncRecorder); ok && t.cfg.HandLog == nil {
		// The table deals on; the id shows in the state once the hand is stored.
		a.RecordHandAsync(hand, func(id int64, err error) {
			if err != nil {
				t.log.Error("record hand", "hand", handNo, "err", err)
				return
			}
			go t.setHandID(handNo, id)
		})
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), bankTimeout)
	defer cancel()
	id, err := t.cfg.Bank.RecordHand(ctx, hand)
	if err != nil {
		t.log.Error("record hand", "hand", t.handNo, "err", err)
		return
	}
	t.handID = id
}

// setHandID gives hand number handNo its stored id, if it is still the table's
// last hand.
func (t *Table) setHandID(handNo, id int64) {
	ctx, cancel := context.WithTimeout(context.Background(), bankTimeout)
	defer cancel()
	_ = t.call(ctx, func() error {
		if t.handNo == handNo && t.handID == 0 {
			t.handID = id
			t.version++
		}
		return nil
	})
}

// phh writes the hand in play as PHH with its key and seed commitment.
func (t *Table) phh(names []string) (string, error) {
	p, err := history.FromHand(t.handCfg, t.hand, history.Info{Hand: t.handNo, Table: t.cfg.Name, Players: names, Time: t.handStart})
	if err != nil {
		return "", err
	}
	p.HandKey, p.SeedSHA256 = t.handKey, t.seedHash
	b, err := p.Marshal()
	return string(b), err
}

// firstRound returns the seats that put chips in voluntarily (called, bet or
// raised) in the hand's first betting round (before the flop; stud's first
// round), and those that bet or raised in it: the VPIP and PFR of statistics.
func firstRound(events []engine.Event) (vpip, pfr engine.SeatSet) {
	for _, e := range events {
		if e.Street != engine.Preflop && e.Street != engine.StudOne {
			continue
		}
		switch e.Kind {
		case engine.EvCall:
			vpip |= 1 << e.Seat
		case engine.EvBet, engine.EvRaise:
			if !e.Forced {
				vpip |= 1 << e.Seat
				pfr |= 1 << e.Seat
			}
		}
	}
	return vpip, pfr
}

// cashOut frees seat i and returns its stack to its player's credits (or, for a
// bot, to the house): the ledger worker books it and then tells the player.
//
// Its departure is kept in the house's store too (keeper), unless the house
// closes the seat itself (closeTable) while its player has not asked to
// leave: a card room that closes gives its players their chips with no
// obligation to bring them back (docs/rules.md).
func (t *Table) cashOut(i int, code string) {
	st := t.seats[i]
	st.stack += st.topUp // a top-up waiting for the hand's end goes back too
	t.depart(i, &st, code == "busted", time.Now())
	var kept *store.Departure
	if !t.closing || st.left || st.leaving {
		kept = t.kept(st.p.ID)
	}
	t.seats[i] = seat{}
	t.version++
	t.chipsOut += st.stack
	if st.bot != nil {
		return
	}
	text := fmt.Sprintf("%d chips returned to your credits", st.stack)
	if code == "busted" {
		text = "out of chips: you left the seat"
	}
	t.ledger.add(cashOutOp{user: st.p.ID, amount: st.stack, code: code, text: text, dep: kept})
}

// closeTable cancels a hand in play (every seat gets back the stack it was dealt
// in with), cashes everyone out and ends the goroutine.
func (t *Table) closeTable(reason string) {
	t.endThought()
	if !t.tourney() && t.logged(func(ctx context.Context, l HandLog) error { return l.Closed(ctx) }) != nil {
		return // the table is another node's now (abandon): it pays nobody
	}
	if t.handLive {
		t.log.Info("hand cancelled", "hand", t.handNo, "reason", reason)
		t.handLive = false
		t.clockSeat = -1
	}
	t.closing = true
	for i := range t.seats {
		t.seats[i].inHand = false
		if t.seats[i].occupied && !t.tourney() {
			t.cashOut(i, "cashed_out")
		}
	}
	if t.tourney() {
		t.clearTourney()
	}
	for _, w := range t.watchers {
		if b, err := json.Marshal(NoticeMsg{Type: "notice", Table: t.cfg.Name, Code: "table_closed", Text: reason}); err == nil {
			w.sink.Send(b)
		}
	}
	t.closed = true
	t.version++
	t.log.Info("table closed", "reason", reason, "hands", t.handNo)
}

// sitOut deals the seat out from the next hand, from now.
func (st *seat) sitOut(now time.Time) {
	if !st.sittingOut {
		st.sittingOut, st.sitOutSince = true, now
	}
}

// checkSittingOut stands up the players who have sat out longer than
// Config.SitOutLimit: their stacks go back to their credits.
func (t *Table) checkSittingOut(now time.Time) {
	if t.tourney() {
		return
	}
	for i := range t.seats {
		st := &t.seats[i]
		if st.occupied && st.bot == nil && st.sittingOut && !st.inHand && !st.left && !st.leaving &&
			!now.Before(st.sitOutSince.Add(t.cfg.SitOutLimit)) {
			t.log.Info("sat out too long: stood up", "seat", i, "player", st.p.Name)
			t.notice(st.p.ID, NoticeMsg{Code: "stood_up", Text: fmt.Sprintf("stood up after sitting out for %v; your chips are back in your credits", t.cfg.SitOutLimit)})
			t.leaveSeat(i)
		}
	}
}

func (t *Table) checkGrace(now time.Time) {
	for i := range t.seats {
		st := &t.seats[i]
		if st.occupied && st.away && !st.left && !now.Before(st.awaySince.Add(t.cfg.Grace)) {
			if t.tourney() {
				// A tournament's seat stays, and is blinded out.
				if !st.sittingOut {
					t.log.Info("grace expired: sitting out", "seat", i, "player", st.p.Name)
					st.sitOut(now)
					t.version++
				}
				continue
			}
			t.log.Info("grace expired", "seat", i, "player", st.p.Name)
			t.leaveSeat(i)
		}
	}
}

func (t *Table) checkIdle(now time.Time) {
	if t.cfg.Permanent || t.handLive || t.tourney() {
		t.emptySince = time.Time{}
		return
	}
	if t.cfg.HeadsUp && t.hadHuman && !t.humanSeated() {
		t.closeTable("the heads-up match is over")
		return
	}
	if t.present() {
		t.emptySince = time.Time{}
		return
	}
	if t.emptySince.IsZero() {
		t.emptySince = now
	}
	if !now.Before(t.emptySince.Add(t.cfg.IdleClose)) {
		t.closeTable("nobody left at the table")
	}
}

// leaveSeat takes seat i out at once: folded if in the hand (and cashed out when
// the hand ends), cashed out now otherwise.
func (t *Table) leaveSeat(i int) {
	st := &t.seats[i]
	if t.handLive && st.inHand {
		if !st.left {
			st.left = true
			// An error means the seat had already folded, or the table has
			// moved (abandon).
			_ = t.apply(engine.Action{Seat: i, Kind: engine.Leave})
			if t.closed {
				return
			}
			if t.hand.ToAct() != t.clockSeat {
				t.clockSeat = -1
			}
			t.version++
		}
		return
	}
	t.cashOut(i, "cashed_out")
}

func (t *Table) seatOf(id int64) int {
	if id == 0 {
		return -1
	}
	for i := range t.seats {
		if t.seats[i].occupied && t.seats[i].bot == nil && t.seats[i].p.ID == id {
			return i
		}
	}
	return -1
}

func (t *Table) notice(id int64, n NoticeMsg) {
	n.Type, n.Table = "notice", t.cfg.Name
	b, err := json.Marshal(n)
	if err != nil {
		return
	}
	for _, w := range t.watchers {
		if w.p.ID == id {
			w.sink.Send(b)
		}
	}
}

func (t *Table) broadcast(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		t.log.Error("marshal", "err", err)
		return
	}
	for _, w := range t.watchers {
		w.sink.Send(b)
	}
}

// flush sends the new state to every watcher (built once per seat and once for
// all spectators but those back within the return window, who get their own,
// and again when the first of those windows ends: returnEnds) and the lobby
// listing if it changed.
func (t *Table) flush(now time.Time) {
	if t.version == t.sent {
		return
	}
	t.sent = t.version
	t.returnEnds = time.Time{}
	if !t.closed {
		built := make(map[int][]byte)
		for _, w := range t.watchers {
			vs := t.viewerSeat(w.p.ID)
			b, ok := built[vs]
			ret, until := t.returnInfo(vs, w.p.ID, now)
			if ret != nil && (t.returnEnds.IsZero() || until.Before(t.returnEnds)) {
				t.returnEnds = until
			}
			if !ok || ret != nil {
				s := t.state(vs, now)
				s.Return = ret
				var err error
				if b, err = json.Marshal(StateMsg{Type: "state", State: s}); err != nil {
					t.log.Error("marshal state", "err", err)
					continue
				}
				if ret == nil {
					built[vs] = b
				}
			}
			w.sink.Send(b)
		}
	}
	if info := t.info(); !t.haveInfo || !reflect.DeepEqual(info, t.lastInfo) {
		t.lastInfo, t.haveInfo = info, true
		if t.cfg.Hooks.Info != nil && !t.closed {
			t.cfg.Hooks.Info(info)
		}
	}
}

// viewerSeat returns the seat whose cards player id may see: their own seat if
// they hold one, or -1 (a spectator).
func (t *Table) viewerSeat(id int64) int { return t.seatOf(id) }

func (t *Table) info() Info {
	in := Info{
		Name: t.cfg.Name, Variant: t.cfg.Variant, Seats: len(t.seats), Players: []string{},
		SmallBlind: t.cfg.SmallBlind << t.level, BigBlind: t.cfg.BigBlind << t.level, Ante: t.cfg.Ante << t.level,
		MinBuyIn: t.cfg.MinBuyIn, MaxBuyIn: t.cfg.MaxBuyIn, Level: t.level, Schedule: t.cfg.Schedule,
		ActionSeconds: int(t.cfg.ActionTime / time.Second), Showcase: t.cfg.Permanent, HeadsUp: t.cfg.HeadsUp,
		Private: t.cfg.Private, Straddle: t.cfg.Straddle, RunItTwice: t.cfg.RunItTwice,
	}
	if t.tourney() {
		in.SmallBlind, in.BigBlind, in.Ante, in.Tournament = t.tSmall, t.tBig, t.tAnte, t.cfg.Tourney.ID
	}
	if t.cfg.Lock != nil {
		in.Locked = t.cfg.Lock.Kind
	}
	in.Waiting = len(t.waiting)
	for i := range t.seats {
		if t.seats[i].occupied {
			in.Taken++
			// A player who has left is gone for the lobby, though their seat
			// stays taken until the hand they left ends.
			if !t.seats[i].left {
				in.Players = append(in.Players, t.seats[i].p.Name)
			}
		}
	}
	for _, w := range t.watchers {
		if t.seatOf(w.p.ID) < 0 {
			in.Spectators++
		}
	}
	return in
}

func (t *Table) status(i int) string {
	st := &t.seats[i]
	switch {
	case !st.occupied:
		return StatusEmpty
	case st.leaving || st.left:
		return StatusLeaving
	case st.away:
		return StatusAway
	case st.sittingOut:
		return StatusSittingOut
	case t.handLive && !st.inHand:
		return StatusWaiting
	}
	return StatusPlaying
}

// state builds the table as seen from seat vs (-1: a spectator).
func (t *Table) state(vs int, now time.Time) *State {
	s := &State{Table: t.cfg.Name, Info: t.info(), Seats: make([]SeatInfo, len(t.seats))}
	s.Spectators = s.Info.Spectators
	for _, w := range t.waiting {
		s.Waitlist = append(s.Waitlist, w.Name)
	}
	if o := t.offer; o != nil {
		s.Offer = &Offer{Seat: o.seat, Name: o.p.Name, RemainingMS: max(0, o.until.Sub(now).Milliseconds())}
	}
	if vs >= 0 {
		st := &t.seats[vs]
		s.You = &You{Seat: vs, Status: t.status(vs), TimeBankMS: st.bank.Milliseconds(), SittingOut: st.sittingOut, Leaving: st.leaving || st.left,
			Straddle: st.straddle, RunTwice: st.runTwice, WaitBigBlind: st.owesBB && !t.tourney()}
	}
	// The hand shown (in play, or the last one) is seen from vs only if the
	// player in seat vs was dealt that hand; a newcomer to the seat sees it as a
	// spectator does.
	var v engine.View
	if t.hand != nil {
		if vs >= 0 && t.handPlayers[vs].ID == t.seats[vs].p.ID && t.handPlayers[vs].ID != 0 {
			v = t.hand.View(vs)
		} else {
			v = t.hand.SpectatorView()
			vs = -1
		}
	}
	for i := range t.seats {
		st := &t.seats[i]
		si := SeatInfo{Seat: i, Status: t.status(i)}
		if st.occupied {
			si.Name, si.Bot, si.Stack = st.p.Name, st.bot != nil, st.stack
			si.Connected = st.bot != nil || !st.away
		}
		if t.hand != nil && st.occupied && t.handPlayers[i] == st.p && i < len(v.Seats) && v.Seats[i].InHand {
			sv := v.Seats[i]
			if t.handLive {
				si.Stack = sv.Stack
			}
			si.InHand, si.Folded, si.AllIn, si.Bet, si.Total = true, sv.Folded || sv.Left, sv.AllIn, sv.Bet, sv.Total
			si.Cards = cardsText(sv.Cards[:sv.NCards])
			si.Button = v.Button == i
		}
		s.Seats[i] = si
	}
	if t.hand == nil {
		return s
	}
	s.Hand = t.handState(&v, vs, now)
	return s
}

// handState builds the hand shown in a state, as view v of seat vs (-1: a
// spectator) shows it.
func (t *Table) handState(v *engine.View, vs int, now time.Time) *HandState {
	// The hand is over for its watchers once the table has finished it, so that the
	// first state of a hand that its forced bets alone decide still shows it live,
	// with its seed commitment. The seed itself is never sent: it would deal every
	// card of the hand, folded ones too (docs/protocol.md, "Hand privacy and provable
	// fairness"); the stored hand carries it.
	over := v.Over && !t.handLive
	h := &HandState{
		Number: t.handNo, Street: streetText(v.Street), Button: v.Button,
		SmallBlindSeat: v.SmallBlind, BigBlindSeat: v.BigBlind,
		SmallBlind: t.handCfg.SmallBlind, BigBlind: t.handCfg.BigBlind, Ante: t.handCfg.Ante,
		Board: cardsText(v.Board), Pot: v.Pot, Pots: []PotInfo{}, ToAct: v.ToAct,
		HandKey: t.handKey, SeedSHA256: t.seedHash, Over: over, ID: t.handID, Events: []EventInfo{},
	}
	if t.handCfg.Variant == engine.StudThree {
		h.SmallBlind, h.BigBlind = 0, 0
	}
	if b := t.hand.SecondBoard(); b != nil {
		h.SecondBoard = cardsText(b)
	}
	for _, p := range v.Pots {
		h.Pots = append(h.Pots, PotInfo{Amount: p.Amount, Seats: p.Eligible.Seats()})
	}
	if t.handLive && vs >= 0 && v.ToAct == vs {
		h.Legal = legalInfo(v.Legal)
	}
	if t.handLive && t.clockSeat >= 0 && t.seats[t.clockSeat].bot == nil {
		bank := t.seats[t.clockSeat].bank
		left := t.deadline().Sub(now)
		h.Clock = &Clock{Seat: t.clockSeat, RemainingMS: max(0, left.Milliseconds()), BankMS: min(bank, max(0, left)).Milliseconds()}
	}
	names := map[int]string{}
	if over {
		r := t.hand.Result()
		h.Result = resultInfo(r, t.handCfg.Variant)
		for _, sh := range r.Shown {
			names[sh.Seat] = sh.Name
		}
	}
	for _, e := range v.Events {
		if ei, ok := eventInfo(e, names); ok {
			h.Events = append(h.Events, ei)
		}
	}
	return h
}
