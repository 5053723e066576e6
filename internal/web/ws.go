package web

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/table"

	"github.com/felt-poker/felt/protocol"
)

type watch struct {
	t  *table.Table
	id int
}

// conn is one WebSocket client. Its reader goroutine handles the client's
// messages one at a time; its writer goroutine drains out.
type conn struct {
	s     *Server
	ws    *websocket.Conn
	p     table.Player
	guest bool
	// session is the session token the connection was opened with ("" for
	// nobody logged in), so that ending a session ends its connections.
	session string
	// ip is the client's address (clientIP), for the limits on guesses.
	ip     string
	out    chan []byte
	ctx    context.Context
	cancel context.CancelFunc

	closeOnce sync.Once
	// id names the connection to the other nodes of a house on several nodes
	// (Relay); a shadow (HandleRemote) has no ws and handles one message at a
	// time under shadowMu.
	id       string
	shadowMu sync.Mutex

	// Owned by the reader goroutine.
	watches map[string]watch
	limiter *chat.Limiter[int64]
}

// Send queues msg for the client; a client too slow to take its messages is
// disconnected (it reconnects and gets the whole state again).
func (c *conn) Send(msg []byte) {
	select {
	case c.out <- msg:
	default:
		c.close(websocket.StatusPolicyViolation, "too slow: messages dropped")
	}
}

func (c *conn) close(code websocket.StatusCode, reason string) {
	c.closeOnce.Do(func() {
		if c.ws != nil {
			go func() { _ = c.ws.Close(code, reason) }()
		}
		c.cancel()
	})
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	var p table.Player
	guest, session := false, ""
	u, err := s.playerOf(r)
	if _, bot := bearer(r); bot && err != nil {
		s.writeError(w, err) // a bad token is refused, not taken as nobody
		return
	}
	if err == nil {
		p, guest = table.Player{ID: u.ID, Name: u.Username}, u.Guest
		if ck, err := r.Cookie(CookieName); err == nil {
			session = ck.Value
		}
	}
	if !s.ready.Load() {
		http.Error(w, "the house is not open", http.StatusServiceUnavailable)
		return
	}
	ip := clientIP(r)
	if !s.wsPerIP.Take(ip) {
		s.writeError(w, fmt.Errorf("%w: at most %d connections from one address", errTooManyConns, s.cfg.MaxConnsPerIP))
		return
	}
	defer s.wsPerIP.Release(ip)
	ws, err := websocket.Accept(w, r, nil) // checks that Origin is this host
	if err != nil {
		return
	}
	ws.SetReadLimit(maxWSMessage)
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	c := &conn{s: s, ws: ws, p: p, guest: guest, session: session, ip: ip, out: make(chan []byte, wsQueue), ctx: ctx, cancel: cancel,
		watches: map[string]watch{}, limiter: chat.NewLimiter[int64](wsRateN, wsRateWindow), id: rand.Text()}
	s.mu.Lock()
	s.conns[c] = struct{}{}
	s.wg.Add(1)
	s.mu.Unlock()
	s.mConns.Inc()
	defer func() {
		s.mConns.Dec()
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		s.wg.Done()
	}()

	var wu *protocol.User
	if p.ID != 0 {
		wu = &protocol.User{ID: p.ID, Name: p.Name, Guest: guest}
	}
	c.sendJSON(protocol.Welcome{Type: "welcome", User: wu})
	sub := s.lobby.Subscribe(p, c) // sends the lobby snapshot first

	done := make(chan struct{})
	go func() { defer close(done); c.write() }()
	c.read()
	c.close(websocket.StatusNormalClosure, "")
	<-done
	bg, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	for _, wt := range c.watches {
		_ = wt.t.Unwatch(bg, wt.id)
	}
	if s.cfg.Relay != nil {
		s.cfg.Relay.Closed(c.id)
	}
	s.lobby.Unsubscribe(p, sub)
}

// closeSessionsOf closes the WebSocket connections of player id opened with any
// session but keep (all of them when keep is ""), once those sessions have
// ended: a changed password or a deleted account leaves no socket open.
func (s *Server) closeSessionsOf(id int64, keep, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		if c.p.ID == id && (keep == "" || c.session != keep) {
			c.close(websocket.StatusPolicyViolation, reason)
		}
	}
}

func (c *conn) sendJSON(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		c.s.log.Error("marshal", "err", err)
		return
	}
	c.Send(b)
}

// wsWriteTimeout bounds the write of one message to a client (a variable
// for the tests).
var wsWriteTimeout = 10 * time.Second

// write sends the queued messages until the connection closes. A message
// not written within wsWriteTimeout (a client that takes nothing) closes the
// connection. The bound is one timer per connection, armed around each write,
// and the write gets a context that is never done: a context with a deadline
// per message cost a timer, a context and its registration with the parent
// (and websocket's own registration, context.AfterFunc, for any context that
// can be done), 7% of the house's CPU under load (docs/performance.md, House).
func (c *conn) write() {
	stuck := time.AfterFunc(time.Hour, func() {
		c.close(websocket.StatusGoingAway, "write timed out")
		_ = c.ws.CloseNow() // the write under way fails at once
	})
	stuck.Stop()
	defer stuck.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case b := <-c.out:
			stuck.Reset(wsWriteTimeout)
			err := c.ws.Write(context.Background(), websocket.MessageText, b)
			stuck.Stop()
			if err != nil {
				c.close(websocket.StatusGoingAway, "write failed")
				return
			}
			c.s.mMessages.WithLabelValues("out").Inc()
		}
	}
}

func (c *conn) read() {
	for {
		typ, data, err := c.ws.Read(c.ctx)
		if err != nil {
			return
		}
		c.s.mMessages.WithLabelValues("in").Inc()
		// A message is decoded even when over the rate, so that its refusal
		// carries its id: a client waiting for that reply gets it.
		m, derr := decodeMsg(typ, data)
		switch {
		case !c.limiter.Allow(0, time.Now()):
			err = fmt.Errorf("%w: at most %d messages in %s", chat.ErrRateLimited, wsRateN, wsRateWindow)
		case derr != nil:
			err = derr
		default:
			err = c.handle(&m)
		}
		if err != nil {
			_, e := c.s.classify(err)
			c.sendJSON(protocol.Reply{Type: "error", ID: m.ID, Error: &e})
		} else if m.Type == "ping" {
			c.sendJSON(protocol.Reply{Type: "pong", ID: m.ID})
		} else if len(m.ID) > 0 {
			c.sendJSON(protocol.Reply{Type: "ok", ID: m.ID})
		}
	}
}

// decodeMsg reads one client message from a WebSocket frame.
func decodeMsg(typ websocket.MessageType, data []byte) (protocol.ClientMsg, error) {
	var m protocol.ClientMsg
	if typ != websocket.MessageText {
		return m, fmt.Errorf("%w: text frames only", errBadJSON)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return protocol.ClientMsg{}, fmt.Errorf("%w: %v", errBadJSON, err)
	}
	m.From = "" // only a node relaying the message says where it came from
	return m, nil
}

// handle applies one client message.
func (c *conn) handle(m *protocol.ClientMsg) error {
	ctx, cancel := context.WithTimeout(c.ctx, 15*time.Second)
	defer cancel()
	switch m.Type {
	case "ping":
		return nil
	case "chat":
		if m.Table == "" {
			return c.s.lobby.Chat(c.p, c.ip, m.Text)
		}
		t, err := c.table(ctx, m.Table)
		if c.relayed(err) {
			return c.forward(ctx, m)
		}
		if err != nil {
			return err
		}
		return t.Chat(ctx, c.p, house.AddressKey(c.ip), m.Text)
	}
	if m.Table == "" {
		switch m.Type {
		case "watch", "unwatch", "sit", "sit_out", "sit_in", "stand", "leave", "act", "top_up", "options", "wait", "unwait":
			return &house.FieldError{Field: "table", Message: "table: is required", Err: house.ErrInvalid}
		}
		return &house.FieldError{Field: "type", Message: fmt.Sprintf("type: unknown message type %q", m.Type), Err: house.ErrInvalid}
	}
	t, err := c.table(ctx, m.Table)
	if c.relayed(err) {
		return c.forward(ctx, m)
	}
	if err != nil {
		if _, ok := c.watches[m.Table]; ok && m.Type == "unwatch" { // the table has closed
			delete(c.watches, m.Table)
			return nil
		}
		return err
	}
	if m.Key != "" && (m.Type == "watch" || m.Type == "sit" || m.Type == "wait") {
		if err := c.admit(ctx, t, m.Key); err != nil {
			return err
		}
	}
	switch m.Type {
	case "watch":
		return c.watch(ctx, t)
	case "unwatch":
		if wt, ok := c.watches[t.Name()]; ok {
			delete(c.watches, t.Name())
			return wt.t.Unwatch(ctx, wt.id)
		}
		return nil
	}
	if c.p.ID == 0 {
		return errLogin
	}
	return c.play(ctx, t, m)
}

// play carries out a logged-in player's message at table t.
func (c *conn) play(ctx context.Context, t *table.Table, m *protocol.ClientMsg) error {
	switch m.Type {
	case "sit":
		seat := -1
		if m.Seat != nil {
			seat = *m.Seat
		}
		if err := c.watch(ctx, t); err != nil {
			return err
		}
		return t.Sit(ctx, c.p, seat, m.BuyIn)
	case "sit_out":
		return t.SitOut(ctx, c.p)
	case "sit_in":
		return t.SitIn(ctx, c.p)
	case "stand":
		return t.Stand(ctx, c.p)
	case "top_up":
		return t.TopUp(ctx, c.p, m.Amount)
	case "wait":
		if err := c.watch(ctx, t); err != nil {
			return err
		}
		_, err := t.JoinWaitlist(ctx, c.p, house.AddressKey(c.ip))
		return err
	case "unwait":
		return t.LeaveWaitlist(ctx, c.p)
	case "options":
		return t.SetOptions(ctx, c.p, table.Options{Straddle: m.Straddle, RunTwice: m.RunTwice})
	case "leave":
		if err := t.Leave(ctx, c.p); err != nil && !errors.Is(err, table.ErrNotSeated) {
			return err
		}
		if wt, ok := c.watches[t.Name()]; ok {
			delete(c.watches, t.Name())
			// A table the player leaves may close (a heads-up game does):
			// leaving it is done all the same.
			if err := wt.t.Unwatch(ctx, wt.id); err != nil && !errors.Is(err, table.ErrClosed) {
				return err
			}
		}
		return nil
	case "act":
		kind, ok := table.ParseAction(m.Action)
		if !ok {
			return &house.FieldError{Field: "action", Message: fmt.Sprintf("action: %q is not fold, check, call, bet or raise", m.Action), Err: house.ErrInvalid}
		}
		return t.Act(ctx, c.p, kind, m.Amount)
	}
	return &house.FieldError{Field: "type", Message: fmt.Sprintf("type: unknown message type %q", m.Type), Err: house.ErrInvalid}
}

// watch starts receiving t, unless this connection already does.
func (c *conn) watch(ctx context.Context, t *table.Table) error {
	if wt, ok := c.watches[t.Name()]; ok && wt.t == t {
		return nil
	}
	id, err := t.Watch(ctx, c.p, c)
	if err != nil {
		return err
	}
	c.watches[t.Name()] = watch{t: t, id: id}
	return nil
}

// admit gives t the key of a locked table, a guess counted against the
// client's address as failed logins are (house.Guess).
func (c *conn) admit(ctx context.Context, t *table.Table, key string) error {
	return c.s.house.Guess("table:"+strings.ToLower(t.Name()), c.ip, table.ErrLocked, func() error {
		return t.Admit(ctx, c.p, key)
	})
}
