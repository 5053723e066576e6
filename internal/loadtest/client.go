package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/felt-poker/felt/protocol"
)

// tableTrack is what the clients of one table share: when its last action was
// sent, and how far any client has seen its play go.
type tableTrack struct {
	mu     sync.Mutex
	sentAt time.Time
	hand   int64
	events int // the hand's events before the action

	seenHand   int64
	seenEvents int
	progressAt time.Time // when a client first saw (seenHand, seenEvents)
}

// progress notes that a client saw hand number at its events-th event at now.
// Lock should be held on entry.
func (lt *tableTrack) progress(number int64, events int, now time.Time) {
	if number > lt.seenHand || number == lt.seenHand && events > lt.seenEvents {
		lt.seenHand, lt.seenEvents, lt.progressAt = number, events, now
	}
}

// loadState is the part of a message a load client reads.
type loadState struct {
	Type  string          `json:"type"`
	ID    json.RawMessage `json:"id"`
	State *struct {
		Hand *struct {
			Number int64               `json:"number"`
			Over   bool                `json:"over"`
			Events []json.RawMessage   `json:"events"`
			Legal  *protocol.LegalInfo `json:"legal"`
		} `json:"hand"`
	} `json:"state"`
	Code  string          `json:"code"`
	Error *protocol.Error `json:"error"`
}

// joinID tags a client's sit or watch, so that a refusal of it (the table
// between two nodes) is told from a refusal of an action.
const joinID = `"join"`

// client is one WebSocket client of the load: seated at or watching one table,
// connected to node `node`, and to the next one when its node is lost.
type client struct {
	g      *Generator
	i      int
	table  string
	lt     *tableTrack
	seated bool
	node   int
	http   *http.Client

	// Of the current connection.
	joined     bool // the first state since the join came
	seenHand   int64
	seenEvents int
	acted      string
}

func (g *Generator) newClient(i int) *client {
	ti := i % g.spec.Tables
	jar, _ := cookiejar.New(nil) // cookies go to every port of a host: every local node
	return &client{g: g, i: i, table: TableName(ti), lt: g.tables[ti], seated: i/g.spec.Tables < g.spec.Seated,
		node: (ti + i/g.spec.Tables) % len(g.cfg.Nodes),
		http: &http.Client{Jar: jar, Transport: g.transport, Timeout: 60 * time.Second}}
}

// run connects, joins the table and plays or watches until ctx is done; when
// its connection is lost it connects to the next node and joins again.
func (c *client) run(ctx context.Context) {
	defer c.g.wg.Done()
	if c.seated && !c.signUp() {
		c.g.failures.Add(1)
		return
	}
	for first := true; ctx.Err() == nil; first = false {
		conn, err := c.dial(ctx)
		if err != nil {
			if first {
				c.g.failures.Add(1)
				return
			}
			c.g.redials.Add(1)
			c.node = (c.node + 1) % len(c.g.cfg.Nodes)
			time.Sleep(100 * time.Millisecond)
			continue
		}
		if first {
			c.g.connected.Add(1)
		} else {
			c.g.reconnected.Add(1)
		}
		c.serve(ctx, conn, first)
		conn.CloseNow()
		c.node = (c.node + 1) % len(c.g.cfg.Nodes)
	}
}

func (c *client) base() string { return c.g.cfg.Nodes[c.node] }

// signUp makes the client a guest of the house.
func (c *client) signUp() bool {
	resp, err := c.http.Post(c.base()+"/api/guest", "application/json", nil)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusCreated
}

func (c *client) dial(ctx context.Context) (*websocket.Conn, error) {
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(c.base(), "http")+"/ws", &websocket.DialOptions{HTTPClient: c.http})
	if err != nil {
		return nil, err
	}
	conn.SetReadLimit(1 << 22)
	return conn, nil
}

// serve joins the table on conn (sits the first time, watches after a
// reconnection: the seat is kept) and reads until conn fails.
func (c *client) serve(ctx context.Context, conn *websocket.Conn, first bool) {
	c.joined, c.acted = false, ""
	verb := "watch"
	if c.seated && first {
		verb = "sit"
	}
	c.join(ctx, conn, verb)
	// A join refused while the table is between two nodes is sent again
	// after 250 ms, then twice as long each time up to 4 s, as a browser
	// would: thousands of clients asking four times a second would load
	// the nodes taking the tables over.
	// A table_back notice (a node has the table again) sends it at once.
	backoff := 250 * time.Millisecond
	var pending *time.Timer
	retry := func() {
		pending = time.AfterFunc(backoff, func() { c.join(ctx, conn, "watch") })
		backoff = min(2*backoff, 4*time.Second)
	}
	for {
		_, b, err := conn.Read(ctx)
		if err != nil {
			return
		}
		now := time.Now()
		if !wanted(b) {
			continue // the lobby's pushes and the like: not decoded
		}
		var m loadState
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		switch {
		case m.Type == "error" && m.Error != nil:
			c.g.errorReply(m.Error.Code)
			if string(m.ID) == joinID && !c.joined { // the table between two nodes: again
				retry()
			}
		case m.Type == "notice" && m.Code == "busted":
			c.send(ctx, conn, fmt.Sprintf(`{"type":"sit","table":%q,"buy_in":2000}`, c.table))
		case m.Type == "notice" && m.Code == "table_moved":
			// The action sent last may have died with the table's node.
			c.joined, c.acted = false, ""
			retry()
		case m.Type == "notice" && m.Code == "table_back":
			if !c.joined && pending != nil && pending.Stop() {
				c.join(ctx, conn, "watch")
			}
		case m.Type == "state" && m.State != nil && m.State.Hand != nil:
			backoff = 250 * time.Millisecond
			c.state(ctx, conn, m.State.Hand.Number, len(m.State.Hand.Events), m.State.Hand.Over, m.State.Hand.Legal, now)
		}
	}
}

// join sits at the client's table or watches it ("sit" or "watch").
func (c *client) join(ctx context.Context, conn *websocket.Conn, verb string) {
	c.send(ctx, conn, fmt.Sprintf(`{"type":%q,"table":%q,"buy_in":2000,"id":%s}`, verb, c.table, joinID))
}

// wanted reports whether a message is one a client reads: the house writes
// "type" first, so the others (the lobby's pushes, chat) are skipped without
// decoding them, which would cost the generator more than the house spends
// sending them.
func wanted(b []byte) bool {
	for _, p := range [...]string{`{"type":"state"`, `{"type":"error"`, `{"type":"notice"`} {
		if bytes.HasPrefix(b, []byte(p)) {
			return true
		}
	}
	return !bytes.HasPrefix(b, []byte(`{"type":"`)) // another shape: decode it
}

func (c *client) send(ctx context.Context, conn *websocket.Conn, v string) {
	_ = conn.Write(ctx, websocket.MessageText, []byte(v))
}

// state measures a table state received at now and acts when it is the
// client's turn.
func (c *client) state(ctx context.Context, conn *websocket.Conn, number int64, events int, over bool, legal *protocol.LegalInfo, now time.Time) {
	c.measure(number, events, now)
	if legal == nil || over {
		return
	}
	key := fmt.Sprintf("%d/%d", number, events)
	if key == c.acted {
		return
	}
	c.acted = key
	action := `"action":"check"`
	switch {
	case slices.Contains(legal.Actions, "raise") && (number+int64(events))%7 == 0:
		action = fmt.Sprintf(`"action":"raise","amount":%d`, legal.MinTo)
	case slices.Contains(legal.Actions, "call"):
		action = `"action":"call"`
	case !slices.Contains(legal.Actions, "check"):
		action = `"action":"fold"`
	}
	think := c.g.spec.Think/2 + time.Duration(int64(c.g.spec.Think)*int64(c.i%100)/100)
	time.AfterFunc(think, func() {
		if ctx.Err() != nil {
			return
		}
		c.lt.mu.Lock()
		c.lt.sentAt, c.lt.hand, c.lt.events = time.Now(), number, events
		c.lt.mu.Unlock()
		c.g.actions.Add(1)
		c.send(ctx, conn, fmt.Sprintf(`{"type":"act","table":%q,%s}`, c.table, action))
	})
}

// measure counts the delay since the table's last action if this state is the
// first this client sees that shows it.
func (c *client) measure(number int64, events int, now time.Time) {
	lt := c.lt
	lt.mu.Lock()
	defer lt.mu.Unlock()
	lt.progress(number, events, now)
	if !c.joined {
		// The state a client gets when it starts watching shows the table's
		// last action, however long ago it was sent: not a delay.
		c.joined = true
		c.seenHand, c.seenEvents = lt.hand, lt.events
	}
	if !lt.sentAt.IsZero() && number == lt.hand && events > lt.events && (c.seenHand != lt.hand || c.seenEvents != lt.events) {
		c.g.lat.Add(now.Sub(lt.sentAt))
		c.seenHand, c.seenEvents = lt.hand, lt.events
	}
}
