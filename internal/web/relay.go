package web

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/coder/websocket"

	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/lobby"
	"github.com/felt-poker/felt/internal/table"

	"github.com/felt-poker/felt/protocol"
)

// A house on several nodes runs each table on one node, and a player's
// WebSocket may be open on any: a message for a table this node does not run
// goes through the Relay to the node that runs it, which handles it with a
// shadow of the connection (HandleRemote): the same code, the same checks, its
// messages for the player sent back through the relay. docs/scaling.md.

// Relay carries a connection's messages for tables of other nodes.
type Relay interface {
	// Forward hands msg, from player p on the connection named conn, to the
	// node that runs its table; what that node sends the connection comes
	// back through sink. Its error is the other node's answer (a
	// *RemoteError), or why it could not be asked.
	Forward(ctx context.Context, conn string, p table.Player, sink table.Sink, msg []byte) error
	// Closed says the connection has closed: the other nodes drop its shadows.
	Closed(conn string)
	// AwaitOpen waits while the table named table is being opened on this
	// node (taken over: its lease is this node's, the table not open yet),
	// and reports whether it waited and the table's lookup is worth doing
	// again.
	AwaitOpen(ctx context.Context, table string) bool
}

// RemoteError is the refusal of a message by the node that runs its table, as
// that node classified it.
type RemoteError = protocol.RemoteError

// forward relays m to the node running its table, when the house has one.
func (c *conn) forward(ctx context.Context, m *protocol.ClientMsg) error {
	relayed := *m
	relayed.From = c.ip
	b, err := json.Marshal(relayed)
	if err != nil {
		return err
	}
	return c.s.cfg.Relay.Forward(ctx, c.id, c.p, c, b)
}

// table returns the table named name on this node, waiting for it if it is
// being opened here (a takeover in progress): a message for it is never
// answered "no such table" in that moment.
func (c *conn) table(ctx context.Context, name string) (*table.Table, error) {
	t, err := c.s.lobby.Table(name)
	if errors.Is(err, lobby.ErrNoTable) && c.s.cfg.Relay != nil && c.s.cfg.Relay.AwaitOpen(ctx, name) {
		t, err = c.s.lobby.Table(name)
	}
	return t, err
}

// relayed reports whether a message for a table this node lacks (err) goes to
// another node.
func (c *conn) relayed(err error) bool {
	return c.s.cfg.Relay != nil && c.ws != nil && errors.Is(err, lobby.ErrNoTable)
}

// HandleRemote handles msg, relayed from another node, on the shadow of the
// connection named shadow there (made at its first message), as player p; the
// shadow's messages go to sink. It returns the refusal, or nil.
func (s *Server) HandleRemote(ctx context.Context, shadow string, p table.Player, sink table.Sink, msg []byte) *RemoteError {
	c := s.shadow(shadow, p, sink)
	c.shadowMu.Lock()
	defer c.shadowMu.Unlock()
	m, err := decodeMsg(websocket.MessageText, msg)
	if err == nil {
		// The client's address, as the node it is connected to saw it: the
		// shadow's guesses count against it (conn.admit).
		var from struct {
			From string `json:"_from"`
		}
		_ = json.Unmarshal(msg, &from)
		c.ip = cmp.Or(from.From, "relayed:"+shadow)
		err = c.handle(&m)
	}
	if err == nil {
		return nil
	}
	status, e := s.classify(err)
	return &RemoteError{Status: status, Code: e.Code, Field: e.Field, Message: e.Message, RetryAfter: e.RetryAfter}
}

// shadow returns the shadow connection named name, made for p if new.
func (s *Server) shadow(name string, p table.Player, sink table.Sink) *conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.shadows[name]; ok && c.p == p {
		return c
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &conn{s: s, p: p, out: make(chan []byte, wsQueue), ctx: ctx, cancel: cancel,
		watches: map[string]watch{}, limiter: chat.NewLimiter[int64](wsRateN, wsRateWindow)}
	if old, ok := s.shadows[name]; ok {
		go s.dropShadow(old)
	}
	s.shadows[name] = c
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case b := <-c.out:
				sink.Send(b)
			}
		}
	}()
	return c
}

// DropRemote drops the shadow named name: its connection has closed.
func (s *Server) DropRemote(name string) {
	s.mu.Lock()
	c, ok := s.shadows[name]
	delete(s.shadows, name)
	s.mu.Unlock()
	if ok {
		s.dropShadow(c)
	}
}

// dropShadow stops watching every table the shadow watched.
func (s *Server) dropShadow(c *conn) {
	c.shadowMu.Lock()
	defer c.shadowMu.Unlock()
	c.cancel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, wt := range c.watches {
		_ = wt.t.Unwatch(ctx, wt.id)
	}
	c.watches = map[string]watch{}
}
