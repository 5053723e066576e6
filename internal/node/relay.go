package node

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/felt-poker/felt/internal/cluster"
	"github.com/felt-poker/felt/internal/lobby"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/web"

	"github.com/felt-poker/felt/protocol"
)

// Relay is web.Relay over NATS: a player's message for a table of another
// node is a request to that node ("<prefix>.node.<node>.relay"), which handles
// it on a shadow of the player's connection and answers with its refusal or
// nothing; the shadow's messages for the player come back on the connection's
// subject ("<prefix>.conn.<node>.<connection>"). A node sweeps the shadows of
// nodes that no longer answer.
type Relay struct {
	n   *cluster.Node
	log *slog.Logger

	mu    sync.Mutex
	conns map[string]*relayedConn // this node's connections relayed elsewhere
	// Shadows of other nodes' connections on this node: a queue each, so
	// that one connection's messages are handled in order and none waits for
	// another's.
	queues map[string]chan relayReq
	origin map[string]string // shadow -> its node
	srv    *web.Server
	// backs are the tables this node's connections were told moved, by
	// name, with those connections (by id): told table_back once a node
	// takes the table's lease (awaitBack).
	backs map[string]map[string]table.Sink
	ctx   context.Context // Serve's
}

// relayedConn is one of this node's connections with messages relayed.
type relayedConn struct {
	sub  *nats.Subscription
	sink table.Sink
	// owners are the nodes it has shadows on, with the tables relayed there.
	owners map[string]map[string]bool
}

// relayReq is a request another node sent (protocol.RelayRequest) and the
// NATS message to answer.
type relayReq struct {
	protocol.RelayRequest
	reply *nats.Msg
}

// relayTimeout bounds a relayed message's answer, as a local one (web's
// handle) is bounded.
const relayTimeout = 15 * time.Second

// NewRelay returns the relay of node n; Serve starts its side of it.
func NewRelay(n *cluster.Node, log *slog.Logger) *Relay {
	return &Relay{n: n, log: log, conns: map[string]*relayedConn{}, queues: map[string]chan relayReq{}, origin: map[string]string{},
		backs: map[string]map[string]table.Sink{}, ctx: context.Background()}
}

func (r *Relay) subject(node string) string { return r.n.Subject("node", node, "relay") }

// Serve handles the messages other nodes relay to srv's tables, until ctx is
// done.
func (r *Relay) Serve(ctx context.Context, srv *web.Server) error {
	r.mu.Lock()
	r.srv, r.ctx = srv, ctx
	r.mu.Unlock()
	sub, err := r.n.Conn().Subscribe(r.subject(r.n.Name()), r.receive)
	if err != nil {
		return fmt.Errorf("relay: %w", err)
	}
	go func() {
		tick := time.NewTicker(r.n.LeaseTTL())
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				_ = sub.Unsubscribe()
				return
			case <-tick.C:
				r.sweep(ctx)
				r.checkOwners(ctx)
			}
		}
	}()
	return nil
}

// receive queues a request for its shadow's worker (pings are answered here).
func (r *Relay) receive(m *nats.Msg) {
	var q relayReq
	if err := json.Unmarshal(m.Data, &q); err != nil || (q.Conn == "" && !q.Ping) {
		return
	}
	q.reply = m
	if q.Ping {
		_ = m.Respond([]byte(`{}`))
		return
	}
	if q.Bye {
		r.bye(q.Conn)
		return
	}
	r.mu.Lock()
	ch, ok := r.queues[q.Conn]
	if !ok {
		ch = make(chan relayReq, 64)
		r.queues[q.Conn], r.origin[q.Conn] = ch, q.Origin
		go r.work(q.Conn, ch)
	}
	queued := true
	select { // under the lock, so that bye never closes ch during the send
	case ch <- q:
	default:
		queued = false
	}
	r.mu.Unlock()
	if !queued {
		r.respond(q, &protocol.RemoteError{Status: 429, Code: "rate_limited", Message: "too many messages at once"})
	}
}

// bye ends the shadow conn: its worker drops it once its queue is done.
func (r *Relay) bye(conn string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ch, ok := r.queues[conn]; ok {
		close(ch)
		delete(r.queues, conn)
		delete(r.origin, conn)
	}
}

// work handles one shadow's messages in order, and drops the shadow at the end.
func (r *Relay) work(conn string, ch chan relayReq) {
	for q := range ch {
		ctx, cancel := context.WithTimeout(context.Background(), relayTimeout)
		sink := natsSink{nc: r.n.Conn(), subject: q.Events}
		r.respond(q, r.server().HandleRemote(ctx, conn, table.Player(q.Player), sink, q.Msg))
		cancel()
	}
	r.server().DropRemote(conn)
}

func (r *Relay) server() *web.Server {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.srv
}

func (r *Relay) respond(q relayReq, e *protocol.RemoteError) {
	b, _ := json.Marshal(protocol.RelayReply{Error: e})
	_ = q.reply.Respond(b)
}

// sweep drops the shadows of nodes that no longer answer (lost).
func (r *Relay) sweep(ctx context.Context) {
	r.mu.Lock()
	origins := map[string][]string{}
	for conn, o := range r.origin {
		origins[o] = append(origins[o], conn)
	}
	r.mu.Unlock()
	for o, conns := range origins {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := r.n.Conn().RequestWithContext(pctx, r.subject(o), []byte(`{"ping":true}`))
		cancel()
		if !errors.Is(err, nats.ErrNoResponders) {
			continue
		}
		r.log.Info("a lost node's players leave the watchers", "node", o, "connections", len(conns))
		for _, c := range conns {
			r.bye(c)
		}
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// natsSink sends a shadow's messages to its connection's node.
type natsSink struct {
	nc      *nats.Conn
	subject string
}

func (s natsSink) Send(b []byte) { _ = s.nc.Publish(s.subject, b) }

// Forward relays msg of connection conn to the node that runs its table.
func (r *Relay) Forward(ctx context.Context, conn string, p table.Player, sink table.Sink, msg []byte) error {
	var m struct {
		Table string `json:"table"`
	}
	_ = json.Unmarshal(msg, &m)
	owner, err := r.owner(ctx, m.Table)
	if err != nil {
		return err
	}
	if owner == "" || owner == r.n.Name() {
		return r.moved(ctx, conn, m.Table, owner, sink)
	}
	events, err := r.relaying(conn, owner, m.Table, sink)
	if err != nil {
		return err
	}
	q := protocol.RelayRequest{Conn: r.n.Name() + "/" + conn, Origin: r.n.Name(), Events: events, Player: protocol.Player(p), Msg: msg}
	ctx, cancel := context.WithTimeout(ctx, relayTimeout)
	defer cancel()
	reply, err := r.n.Conn().RequestWithContext(ctx, r.subject(owner), mustJSON(q))
	if errors.Is(err, nats.ErrNoResponders) { // its node is lost
		return r.moved(ctx, conn, m.Table, owner, sink)
	}
	if err != nil {
		return fmt.Errorf("relay to node %s: %w", owner, err)
	}
	var rr protocol.RelayReply
	if err := json.Unmarshal(reply.Data, &rr); err != nil {
		return fmt.Errorf("relay to node %s: %w", owner, err)
	}
	if rr.Error != nil && rr.Error.Code == "not_found" {
		// The owner has not opened the table yet (a new director opening its
		// tournament's tables) or no longer has it: a table of the house
		// moves, any other name is not found.
		return r.noOwner(ctx, m.Table)
	}
	if rr.Error != nil {
		return rr.Error
	}
	return nil
}

// owner returns the node that runs the table named name, or "": the holder
// of its lease, or, for a table registered under a role (a tournament's,
// which runs on the director's node), the holder of the role's lease.
func (r *Relay) owner(ctx context.Context, name string) (string, error) {
	owner, err := r.n.Holder(ctx, name)
	if err != nil || owner != "" {
		return owner, err
	}
	reg, ok, err := r.n.Lookup(ctx, name)
	if err != nil || !ok || reg.Role == "" {
		return "", err
	}
	return r.n.RoleHolder(ctx, reg.Role)
}

// noOwner is the error for a table that no live node runs: table.ErrMoved
// ("try again") for a table of the house, whose lease is about to be taken
// over (its node lost, or stopping it), lobby.ErrNoTable for any other name.
func (r *Relay) noOwner(ctx context.Context, name string) error {
	if ok, err := r.n.IsRegistered(ctx, name); err != nil || ok {
		return fmt.Errorf("table %q has no node for now: %w", name, table.ErrMoved)
	}
	return fmt.Errorf("%w %q", lobby.ErrNoTable, name)
}

// moved is noOwner for a message of connection conn (its sink) for the
// table name, which no live node runs (lost: the node named in its lease,
// if any): a table of the house is answered table.ErrMoved ("try again")
// and the connection is told table_back as soon as a node other than lost
// takes its lease (awaitBack), rather than finding it at its next try.
func (r *Relay) moved(ctx context.Context, conn, name, lost string, sink table.Sink) error {
	err := r.noOwner(ctx, name)
	if errors.Is(err, table.ErrMoved) {
		r.awaitBack(conn, name, lost, sink)
	}
	return err
}

// backWait bounds the wait for a moved table's next node: a lease expires
// within a TTL of its node's loss, and the survivors adopt its tables within
// seconds (docs/scaling.md, "Takeover after kill -9").
func (r *Relay) backWait() time.Duration { return max(3*r.n.LeaseTTL(), time.Minute) }

// awaitBack tells connection conn (sink) table_back once a node other than
// lost holds the lease of the table name, or after backWait if none does:
// the connection watches it again then, rather than at its next try. One
// wait per table, whatever the connections told.
func (r *Relay) awaitBack(conn, name, lost string, sink table.Sink) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.awaitBackLocked(conn, name, lost, sink)
}

// awaitBackLocked is awaitBack. r.mu should be held on entry.
func (r *Relay) awaitBackLocked(conn, name, lost string, sink table.Sink) {
	if sinks, ok := r.backs[name]; ok {
		sinks[conn] = sink
		return
	}
	r.backs[name] = map[string]table.Sink{conn: sink}
	ctx := r.ctx
	go func() {
		ctx, cancel := context.WithTimeout(ctx, r.backWait())
		defer cancel()
		owner := r.n.AwaitHolder(ctx, name, lost)
		r.mu.Lock()
		sinks := r.backs[name]
		delete(r.backs, name)
		r.mu.Unlock()
		if owner == "" {
			return // the connections try again by themselves
		}
		b := mustJSON(protocol.NoticeMsg{Type: "notice", Table: name, Code: "table_back", Text: "the table is open again on another node of the house: watch it again"})
		for _, s := range sinks {
			s.Send(b)
		}
	}()
}

// relaying subscribes connection conn to its shadows' messages, once, and
// notes that owner has one, for tableName; it returns the subject.
func (r *Relay) relaying(conn, owner, tableName string, sink table.Sink) (string, error) {
	subject := r.n.Subject("conn", r.n.Name(), conn)
	r.mu.Lock()
	defer r.mu.Unlock()
	rc, ok := r.conns[conn]
	if !ok {
		sub, err := r.n.Conn().Subscribe(subject, func(m *nats.Msg) {
			sink.Send(m.Data)
			r.movedNotice(conn, m.Data, sink)
		})
		if err != nil {
			return "", fmt.Errorf("relay: %w", err)
		}
		rc = &relayedConn{sub: sub, sink: sink, owners: map[string]map[string]bool{}}
		r.conns[conn] = rc
	}
	if rc.owners[owner] == nil {
		rc.owners[owner] = map[string]bool{}
	}
	rc.owners[owner][tableName] = true
	return subject, nil
}

// movedNotice awaits the next node of a table whose node told connection
// conn (sink) it moved (b, a message from a shadow: a table handed over or
// whose lease was lost), as for one this node found lost (awaitBack).
func (r *Relay) movedNotice(conn string, b []byte, sink table.Sink) {
	if !bytes.HasPrefix(b, []byte(`{"type":"notice"`)) {
		return
	}
	var n protocol.NoticeMsg
	if json.Unmarshal(b, &n) != nil || n.Code != "table_moved" || n.Table == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	lost := ""
	if rc, ok := r.conns[conn]; ok {
		for o, tables := range rc.owners {
			if tables[n.Table] {
				lost = o
			}
		}
	}
	r.awaitBackLocked(conn, n.Table, lost, sink)
}

// AwaitOpen waits while the table named name is being opened on this node
// (cluster.Node.AwaitOpen).
func (r *Relay) AwaitOpen(ctx context.Context, name string) bool { return r.n.AwaitOpen(ctx, name) }

// Closed tells the nodes that had shadows of conn that it has closed.
func (r *Relay) Closed(conn string) {
	r.mu.Lock()
	rc, ok := r.conns[conn]
	delete(r.conns, conn)
	for _, sinks := range r.backs {
		delete(sinks, conn)
	}
	r.mu.Unlock()
	if !ok {
		return
	}
	_ = rc.sub.Unsubscribe()
	for owner := range rc.owners {
		_ = r.n.Conn().Publish(r.subject(owner), mustJSON(protocol.RelayRequest{Conn: r.n.Name() + "/" + conn, Bye: true}))
	}
}

// checkOwners pings the nodes this node's connections have shadows on, and
// tells each connection whose tables' node no longer answers (lost) that those
// tables moved: their new node has the player's seat, and a new watch finds it.
func (r *Relay) checkOwners(ctx context.Context) {
	r.mu.Lock()
	owners := map[string]bool{}
	for _, rc := range r.conns {
		for o := range rc.owners {
			owners[o] = true
		}
	}
	r.mu.Unlock()
	for o := range owners {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := r.n.Conn().RequestWithContext(pctx, r.subject(o), []byte(`{"ping":true}`))
		cancel()
		if errors.Is(err, nats.ErrNoResponders) {
			r.ownerLost(o)
		}
	}
}

// ownerLost sends table_moved to every connection with tables on node owner,
// and forgets them.
func (r *Relay) ownerLost(owner string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, rc := range r.conns {
		for name := range rc.owners[owner] {
			rc.sink.Send(mustJSON(protocol.NoticeMsg{Type: "notice", Table: name, Code: "table_moved", Text: table.ErrMoved.Error()}))
			r.awaitBackLocked(id, name, owner, rc.sink)
		}
		delete(rc.owners, owner)
	}
}
