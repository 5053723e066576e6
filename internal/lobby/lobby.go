// Package lobby is the house's lobby: the open tables and their listings, the
// players online and the lobby chat, pushed live to every subscriber. On a
// house of several nodes, it also lists the other nodes' tables (remote.go),
// their players online and their chat lines (shared.go), which internal/node
// carries over NATS.
package lobby

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/table"

	"github.com/felt-poker/felt/protocol"
)

// MaxName is the longest table name.
const MaxName = 15

// Lobby chat limits: lines kept for newcomers, and the rates per player and
// per address.
const (
	chatHistory = 50
	chatLines   = 5
	chatWindow  = 10 * time.Second
	// addrChatLines bounds the lines said from one address (house.AddressKey)
	// in chatWindow, whoever says them: accounts are cheap (20 guests at once
	// from one address), and each player's own rate alone let one address
	// say 5 lines in 10 s per account it made.
	addrChatLines = 10
)

// ErrNoTable reports a table name that is not open.
var ErrNoTable = errors.New("no such table")

// Snapshot is the {"type":"lobby"} message: everything a newcomer needs.
type Snapshot = protocol.Lobby

// snapshotAge bounds how old the listings in a newcomer's snapshot may be (their
// spectator counts: every other change is pushed to the newcomer after it).
const snapshotAge = time.Second

// FlushInterval is how long the lobby gathers changes (table listings, players
// coming and going) before it pushes them to its subscribers in one message of
// each kind.
const FlushInterval = 250 * time.Millisecond

type presence struct {
	name  string
	conns int
}

// Lobby holds the open tables. It is safe for concurrent use.
type Lobby struct {
	log *slog.Logger

	mu       sync.Mutex
	tables   map[string]*table.Table // by lower-case name
	infos    map[string]table.Info
	online   map[int64]*presence
	chatLog  *chat.Log
	limiter  *chat.Limiter[int64]  // by player
	addrs    *chat.Limiter[string] // by address
	subs     map[int]table.Sink
	nextSub  int
	closing  bool
	handDone func()
	// shut is closed when closing is set (Shutdown): it ends the wait of a
	// table opening for the closed table of its name (awaitPrevious).
	shut chan struct{}
	// opening holds the names of tables being made outside mu, and owners the
	// player who opened each table that is a player's (both by key, under mu).
	opening map[string]bool
	owners  map[string]int64
	onClose func(key string)
	// draining holds, by key, the tables that closed and have not finished
	// (Table.Done: their ledger's last cash-outs and departures, their bots'
	// models), under mu; reopenWait bounds how long a table of the same name
	// waits for one before it opens (awaitPrevious).
	draining   map[string]*table.Table
	reopenWait time.Duration
	// remote marks the listings in infos of tables that run on other nodes of
	// the house (remote.go), by key, under mu.
	remote map[string]bool
	// peers are the house's other nodes, nil on a single node; remoteOnline
	// their players online, by node and ID (shared.go), under mu.
	peers        Peers
	remoteOnline map[string]map[int64]string

	// Changes waiting for the next push (under mu): listings by key, the names
	// of closed public tables, and players whose presence changed (by ID).
	dirty     map[string]bool
	closed    map[string]string
	presence  map[int64]string
	scheduled bool

	// The snapshot's lists, marshalled once and shared by newcomers (under mu).
	// Either is dropped when a push of its kind goes out: until then, every change
	// since it was built is still waiting for that push, which newcomers get too.
	snapTables   []byte
	snapTablesAt time.Time
	snapPlayers  []byte

	// sendMu orders what subscribers receive: a push, a chat line and a
	// newcomer's snapshot are sent under it (never under mu, so a table never
	// waits on the sends).
	sendMu sync.Mutex
}

// New returns an empty lobby. handDone, if not nil, is called after every hand
// at every table (metrics).
func New(log *slog.Logger, handDone func()) *Lobby {
	if log == nil {
		log = slog.Default()
	}
	return &Lobby{
		log: log, tables: map[string]*table.Table{}, infos: map[string]table.Info{},
		online: map[int64]*presence{}, chatLog: chat.NewLog(chatHistory),
		limiter: chat.NewLimiter[int64](chatLines, chatWindow), addrs: chat.NewLimiter[string](addrChatLines, chatWindow), subs: map[int]table.Sink{}, handDone: handDone,
		dirty: map[string]bool{}, closed: map[string]string{}, presence: map[int64]string{},
		opening: map[string]bool{}, owners: map[string]int64{}, remote: map[string]bool{},
		remoteOnline: map[string]map[int64]string{}, draining: map[string]*table.Table{}, reopenWait: ReopenWait,
		shut: make(chan struct{}),
	}
}

// ReopenWait bounds how long a table's opening waits for the table of its name
// that closed before it to finish: its ledger's final flush retries for 30 s at
// most, besides a write in flight (10 s at most).
const ReopenWait = 45 * time.Second

func invalid(field, format string, args ...any) error {
	return &house.FieldError{Field: field, Message: field + ": " + fmt.Sprintf(format, args...), Err: house.ErrInvalid}
}

// ErrNameTaken is wrapped by Open for a name an open table has.
var ErrNameTaken = errors.New("table name taken")

// NameTaken returns the error that refuses a table called name: one of that
// name is open (here, or on another node of the house).
func NameTaken(name string) error {
	return &house.FieldError{Field: "name", Message: fmt.Sprintf("name: a table called %q is open", name), Err: ErrNameTaken}
}

// ValidName checks a table name: 1 to MaxName letters, digits, '_' or '-', and
// not "Lobby" in any case.
func ValidName(name string) error {
	if name == "" {
		return invalid("name", "is required")
	}
	if len(name) > MaxName {
		return invalid("name", "at most %d characters", MaxName)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return invalid("name", "letters, digits, _ and - only (no spaces)")
		}
	}
	if strings.EqualFold(name, "lobby") {
		return invalid("name", "%q is reserved", name)
	}
	return nil
}

// houseNameRE matches the names the house gives its tournaments' tables
// (package live: "t<tournament>-<table>", a letter after it when a player's
// table has the name).
var houseNameRE = regexp.MustCompile(`(?i)^t[0-9]+-[0-9]+[a-z]?$`)

// ValidPlayerName checks the name a player chooses for a new table: ValidName,
// and not a name the house gives its tournaments' tables. Tournament IDs are
// sequential and shown before they start, so a player who took the names of
// the next tournament's table (with its fallback letters) would keep that
// table from opening and its entrants' buy-ins from ever being paid out.
func ValidPlayerName(name string) error {
	if err := ValidName(name); err != nil {
		return err
	}
	if houseNameRE.MatchString(name) {
		return invalid("name", "%q is the house's (names like t12-3 are its tournaments' tables)", name)
	}
	return nil
}

// ErrTooManyTables is wrapped by OpenBy when a player already has as many
// tables open as they may.
var ErrTooManyTables = errors.New("too many tables open")

// Open opens a table of the house's own (its default tables, the operator's).
func (l *Lobby) Open(cfg table.Config) (*table.Table, error) {
	return l.OpenBy(context.Background(), 0, 0, cfg)
}

// OpenBy opens a table for the player whose ID is owner, who may have at most
// maxOwned tables open at once (0: no bound; owner 0 is the house). The table,
// and its bots with whatever files or models they load, is made outside the
// lobby's lock: only the name is reserved under it. A table of the name that
// closed and has not finished is waited for (awaitPrevious); ctx bounds that
// wait: when it ends first, no table opens and its error is returned (a
// player who hung up, a node whose lease of the table is not renewed yet).
func (l *Lobby) OpenBy(ctx context.Context, owner int64, maxOwned int, cfg table.Config) (*table.Table, error) {
	if err := ValidName(cfg.Name); err != nil {
		return nil, err
	}
	key := strings.ToLower(cfg.Name)
	cfg.Log = l.log
	cfg.Hooks = table.Hooks{
		Info:     func(in table.Info) { l.tableChanged(key, in) },
		Closed:   func(string) { l.tableClosed(key, false) },
		Moved:    func(string) { l.tableClosed(key, true) },
		HandDone: l.handDone,
	}
	if err := l.reserve(key, cfg.Name, owner, maxOwned); err != nil {
		return nil, err
	}
	var t *table.Table
	err := l.awaitPrevious(ctx, key, cfg.Name)
	if err == nil {
		t, err = table.New(cfg)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.opening, key)
	if err != nil {
		delete(l.owners, key)
		return nil, err
	}
	if l.closing {
		delete(l.owners, key)
		go t.Close(context.Background(), "the house is shutting down")
		return nil, table.ErrClosed
	}
	l.tables[key] = t
	return t, nil
}

// reserve holds the name key for a table being opened by owner, refusing a name
// in use and an owner at their bound.
func (l *Lobby) reserve(key, name string, owner int64, maxOwned int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closing {
		return table.ErrClosed
	}
	if _, ok := l.tables[key]; ok || l.opening[key] {
		return NameTaken(name)
	}
	if owner != 0 && maxOwned > 0 {
		n := 0
		for _, o := range l.owners {
			if o == owner {
				n++
			}
		}
		if n >= maxOwned {
			return &house.FieldError{Field: "name", Message: fmt.Sprintf("you have %d tables open, the most a player may: close one first", n), Err: ErrTooManyTables}
		}
	}
	l.opening[key] = true
	if owner != 0 {
		l.owners[key] = owner
	}
	return nil
}

// awaitPrevious waits, the name key reserved, until the table of that name
// that closed before (if any) has finished, so that the table opening reads
// every departure the other wrote to the store (and the models its bots saved):
// a table closed idle and opened again at once read the store while the old
// one's ledger was still writing, and let a player who had left with a stack
// back with less. A wait past reopenWait is logged, and the table opens. The
// table is not to open when the lobby shuts down meanwhile (table.ErrClosed,
// at once: before, its opening waited on through the shutdown, then read the
// store as it closed) or when ctx ends first (ctx.Err()).
func (l *Lobby) awaitPrevious(ctx context.Context, key, name string) error {
	l.mu.Lock()
	prev, wait := l.draining[key], l.reopenWait
	l.mu.Unlock()
	if prev == nil {
		return nil
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-prev.Done():
	case <-l.shut:
		return table.ErrClosed
	case <-ctx.Done():
		return fmt.Errorf("table %s waits for the table of its name that closed to finish: %w", name, ctx.Err())
	case <-timer.C:
		l.log.Error("table opens before the table of its name that closed has finished writing: departures it still writes are not read",
			"table", name, "waited", wait)
	}
	return nil
}

// drained forgets t, a table that closed under key, once it has finished.
func (l *Lobby) drained(key string, t *table.Table) {
	<-t.Done()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.draining[key] == t {
		delete(l.draining, key)
	}
}

// OnClose sets f to be called with the lower-case name of every table that
// closes by itself (not those the lobby's Shutdown closes, nor those that move
// to another node of the house). f is called from the
// table's goroutine under the lobby's lock: it must return at once, without
// calling the lobby. Set it before opening tables.
func (l *Lobby) OnClose(f func(key string)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.onClose = f
}

// Table returns the open table called name (any case).
func (l *Lobby) Table(name string) (*table.Table, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t, ok := l.tables[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrNoTable, name)
	}
	return t, nil
}

// Info returns the listing of the table called name, if it is open and has
// reported one.
func (l *Lobby) Info(name string) (table.Info, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	in, ok := l.infos[strings.ToLower(name)]
	return in, ok
}

// tableChanged records a table's new listing (called from the table's
// goroutine: it never waits for a send). A change of the spectator count alone is
// not pushed; the count rides along with the table's next pushed change.
func (l *Lobby) tableChanged(key string, in table.Info) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.tables[key]; !ok && !l.opening[key] {
		return
	}
	old, had := l.infos[key]
	delete(l.remote, key) // the table runs here now
	l.infos[key] = in
	if in.Private {
		return
	}
	if had {
		old.Spectators = in.Spectators
		if reflect.DeepEqual(old, in) {
			return
		}
	}
	l.dirty[key] = true
	delete(l.closed, key)
	l.scheduleLocked()
}

// tableClosed takes off a table that closed, or moved to another node.
func (l *Lobby) tableClosed(key string, moved bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.onClose != nil && !l.closing && !moved {
		l.onClose(key)
	}
	if t := l.tables[key]; t != nil && !moved {
		l.draining[key] = t
		go l.drained(key, t)
	}
	in, listed := l.infos[key]
	delete(l.tables, key)
	delete(l.infos, key)
	delete(l.remote, key) // a listing kept from its former node (RemoveRemote)
	delete(l.dirty, key)
	delete(l.owners, key)
	if listed && !in.Private {
		l.closed[key] = in.Name
		l.scheduleLocked()
	}
}

// scheduleLocked arranges a push FlushInterval from now if none is due; l.mu
// is held.
func (l *Lobby) scheduleLocked() {
	if !l.scheduled {
		l.scheduled = true
		time.AfterFunc(FlushInterval, l.flush)
	}
}

// flush pushes the changes gathered since the last push: one "tables" message
// and one "online" message at most, each marshalled once, sent outside l.mu.
func (l *Lobby) flush() {
	l.sendMu.Lock()
	defer l.sendMu.Unlock()
	l.mu.Lock()
	l.scheduled = false
	var msgs [][]byte
	if len(l.dirty) > 0 || len(l.closed) > 0 {
		m := protocol.TablesMsg{Type: "tables", Tables: []table.Info{}, Closed: []string{}}
		for key := range l.dirty {
			if in, ok := l.infos[key]; ok && !in.Private {
				m.Tables = append(m.Tables, in)
			}
		}
		for _, name := range l.closed {
			m.Closed = append(m.Closed, name)
		}
		slices.SortFunc(m.Tables, func(a, b table.Info) int { return strings.Compare(a.Name, b.Name) })
		slices.Sort(m.Closed)
		clear(l.dirty)
		clear(l.closed)
		l.snapTables = nil
		msgs = append(msgs, l.marshal(m))
	}
	if len(l.presence) > 0 {
		m := protocol.OnlineMsg{Type: "online", Joined: []string{}, Left: []string{}}
		for id, name := range l.presence {
			if l.isOnlineLocked(id) {
				m.Joined = append(m.Joined, name)
			} else {
				m.Left = append(m.Left, name)
			}
		}
		slices.Sort(m.Joined)
		slices.Sort(m.Left)
		clear(l.presence)
		l.snapPlayers = nil
		msgs = append(msgs, l.marshal(m))
	}
	subs := l.subsLocked()
	l.mu.Unlock()
	for _, b := range msgs {
		if b == nil {
			continue
		}
		for _, s := range subs {
			s.Send(b)
		}
	}
}

func (l *Lobby) marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		l.log.Error("marshal", "err", err)
		return nil
	}
	return b
}

// subsLocked returns the subscribers' sinks; l.mu is held.
func (l *Lobby) subsLocked() []table.Sink {
	subs := make([]table.Sink, 0, len(l.subs))
	for _, s := range l.subs {
		subs = append(subs, s)
	}
	return subs
}

// Tables lists the open public tables by name.
func (l *Lobby) Tables() []table.Info {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.tablesLocked()
}

func (l *Lobby) tablesLocked() []table.Info {
	keys := make([]string, 0, len(l.infos))
	for key, in := range l.infos {
		if !in.Private {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys) // the lower-case names
	out := make([]table.Info, len(keys))
	for i, key := range keys {
		out[i] = l.infos[key]
	}
	return out
}

// SeatedAt lists the tables (public or not) where a player called name sits.
func (l *Lobby) SeatedAt(name string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := []string{}
	for _, in := range l.infos {
		if slices.Contains(in.Players, name) {
			out = append(out, in.Name)
		}
	}
	slices.Sort(out)
	return out
}

// playersLocked returns the names of the players online on every node.
func (l *Lobby) playersLocked() []string {
	names := map[int64]string{}
	for _, ps := range l.remoteOnline {
		maps.Copy(names, ps)
	}
	for id, p := range l.online {
		names[id] = p.name
	}
	out := slices.Sorted(maps.Values(names))
	if out == nil {
		out = []string{}
	}
	return out
}

// Subscribe sends sink the lobby's snapshot (a {"type":"lobby"} message), then
// makes it receive the lobby's live messages, and returns the id Unsubscribe
// takes. A player (ID not 0) is counted online while they have a subscription.
func (l *Lobby) Subscribe(p table.Player, sink table.Sink) int {
	l.sendMu.Lock() // no push between the snapshot and the subscription
	defer l.sendMu.Unlock()
	l.mu.Lock()
	id := l.nextSub
	l.nextSub++
	l.subs[id] = sink
	if p.ID != 0 {
		pr := l.online[p.ID]
		if pr == nil {
			pr = &presence{name: p.Name}
			l.changePresenceLocked(map[int64]string{p.ID: p.Name}, func() { l.online[p.ID] = pr })
			l.localPresenceLocked()
		}
		pr.conns++
	}
	now := time.Now()
	if l.snapTables == nil || now.Sub(l.snapTablesAt) > snapshotAge {
		l.snapTables, l.snapTablesAt = l.marshal(l.tablesLocked()), now
	}
	if l.snapPlayers == nil {
		l.snapPlayers = l.marshal(l.playersLocked())
	}
	tables, players, lines := l.snapTables, l.snapPlayers, l.chatLog.Lines()
	l.mu.Unlock()
	// Snapshot by hand: json.Marshal would re-validate the shared lists each time.
	if chatJSON := l.marshal(lines); tables != nil && players != nil && chatJSON != nil {
		b := make([]byte, 0, len(tables)+len(players)+len(chatJSON)+64)
		b = append(b, `{"type":"lobby","tables":`...)
		b = append(b, tables...)
		b = append(b, `,"players":`...)
		b = append(b, players...)
		b = append(b, `,"chat":`...)
		b = append(b, chatJSON...)
		b = append(b, '}')
		sink.Send(b)
	}
	return id
}

// Unsubscribe ends a subscription of player p.
func (l *Lobby) Unsubscribe(p table.Player, id int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.subs, id)
	if pr := l.online[p.ID]; p.ID != 0 && pr != nil {
		if pr.conns--; pr.conns == 0 {
			l.changePresenceLocked(map[int64]string{p.ID: pr.name}, func() { delete(l.online, p.ID) })
			l.localPresenceLocked()
		}
	}
}

// localPresenceLocked tells the peers that this node's players online
// changed; l.mu is held.
func (l *Lobby) localPresenceLocked() {
	if l.peers != nil {
		l.peers.PresenceChanged()
	}
}

// Online returns the number of players online on this node (with a
// connection open here).
func (l *Lobby) Online() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.online)
}

// Chat says text in the lobby for p, connected from address from (the
// client's; "" when not known).
func (l *Lobby) Chat(p table.Player, from, text string) error {
	if p.ID == 0 {
		return table.ErrAnonymous
	}
	text, err := chat.Clean(text)
	if err != nil {
		return &house.FieldError{Field: "text", Message: err.Error(), Err: house.ErrInvalid}
	}
	now := time.Now()
	if err := l.allowChat(p.ID, from, now); err != nil {
		return err
	}
	l.sendMu.Lock()
	defer l.sendMu.Unlock()
	l.mu.Lock()
	line := chat.NewLine("", p.Name, text, now)
	l.chatLog.Add(line)
	subs, peers := l.subsLocked(), l.peers
	l.mu.Unlock()
	if b := l.marshal(line); b != nil {
		for _, s := range subs {
			s.Send(b)
		}
	}
	if peers != nil { // under sendMu: the peers get the lines in order
		peers.Chat(line)
	}
	return nil
}

// allowChat counts a lobby line of player id, said from address from ("":
// not known), against the rates per player and per address: on this node
// first (a flood is cut here), then across the house (Peers.AllowChat). A
// count the house cannot make refuses the line: the chat fails closed.
func (l *Lobby) allowChat(id int64, from string, now time.Time) error {
	addr := ""
	if from != "" {
		addr = house.AddressKey(from)
	}
	l.mu.Lock()
	ok := l.limiter.Allow(id, now) && (addr == "" || l.addrs.Allow(addr, now))
	peers := l.peers
	l.mu.Unlock()
	if ok && peers != nil {
		var err error
		ok, err = peers.AllowChat(strconv.FormatInt(id, 10), chatLines, chatWindow, now)
		if ok && err == nil && addr != "" {
			ok, err = peers.AllowChat("addr."+hex.EncodeToString([]byte(addr)), addrChatLines, chatWindow, now)
		}
		if err != nil {
			return &house.PlayerError{Message: "the lobby chat is busy: try again in a moment", RetryAfter: time.Second, Err: fmt.Errorf("%w: %w", house.ErrBusy, err)}
		}
	}
	if !ok {
		return fmt.Errorf("%w: at most %d lines in %s, %d from one address", chat.ErrRateLimited, chatLines, chatWindow, addrChatLines)
	}
	return nil
}

// Count returns the number of open tables.
func (l *Lobby) Count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.tables)
}

// Seated returns the number of seats taken at all tables.
func (l *Lobby) Seated() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for key, in := range l.infos {
		if !l.remote[key] {
			n += in.Taken
		}
	}
	return n
}

// Shutdown closes every table (hands in play are cancelled and every stack goes
// back to its player's credits) and refuses new ones; a table opening that
// waits for the closed table of its name is refused at once. It returns when
// every table it closed, and every table that had closed by itself, has
// finished (Table.Done: its ledger's last cash-outs and departures written),
// or when ctx ends. Before, a table closed idle just before the shutdown was
// not waited for, and the store could close under its last departures.
func (l *Lobby) Shutdown(ctx context.Context) error {
	l.mu.Lock()
	if !l.closing {
		l.closing = true
		close(l.shut)
	}
	tables := make([]*table.Table, 0, len(l.tables))
	for _, t := range l.tables {
		tables = append(tables, t)
	}
	l.mu.Unlock()
	var errs []error
	for _, t := range tables {
		if err := t.Close(ctx, "the house is shutting down"); err != nil {
			errs = append(errs, fmt.Errorf("close %s: %w", t.Name(), err))
		}
	}
	l.mu.Lock()
	draining := slices.Collect(maps.Values(l.draining))
	l.mu.Unlock()
	for _, t := range draining {
		select {
		case <-t.Done():
		case <-ctx.Done():
			errs = append(errs, fmt.Errorf("%s closed and has not finished writing: %w", t.Name(), ctx.Err()))
		}
	}
	return errors.Join(errs...)
}
