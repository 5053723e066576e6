// Package feltclient plays at a felt house from a program: a bot of your own
// (docs/house.md, "Bring your own bot"). It speaks the house's WebSocket
// protocol (docs/protocol.md) with a bot account's API token, which a player
// makes on their profile page or with POST /api/me/bots.
//
// A bot is a function from the table as it sees it to an action:
//
//	c, err := feltclient.Dial(ctx, "http://localhost:8080", token)
//	if err != nil { ... }
//	defer c.Close()
//	err = c.Play(ctx, feltclient.PlayOptions{Table: "Main", BuyIn: 2000, Hands: 10}, feltclient.CheckOrCall)
//
// The messages and their fields are those of docs/protocol.md; this package
// decodes them with package protocol's types (State) and keeps every message's raw JSON
// (Message.Raw) for the rest. A Client is safe for one goroutine calling Play
// or Next and Request at a time.
package feltclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/coder/websocket"

	"github.com/felt-poker/felt/protocol"
)

// Message is one message from the house: its type and, for those a bot needs,
// the decoded fields. Raw is the whole message as sent.
type Message struct {
	Type  string          `json:"type"`
	ID    int64           `json:"id,omitempty"`
	Table string          `json:"table,omitempty"`
	Code  string          `json:"code,omitempty"` // a notice's code
	Text  string          `json:"text,omitempty"` // a notice's or chat line's text
	From  string          `json:"from,omitempty"` // a chat line's author
	User  *User           `json:"user,omitempty"` // welcome
	State *State          `json:"state,omitempty"`
	Error *Error          `json:"error,omitempty"`
	Raw   json.RawMessage `json:"-"`
}

// Error is an error the house answered (docs/protocol.md, "Errors"): the
// fields of a protocol.Error, as a Go error, and the HTTP status of a refused
// connection. Code is the machine-readable kind ("not_your_turn",
// "unauthorized", ...).
type Error struct {
	Code       string `json:"code"`
	Field      string `json:"field,omitempty"`
	Message    string `json:"message"`
	RetryAfter int64  `json:"retry_after,omitempty"`
	// Status is the HTTP status of a refused connection (0 on the WebSocket).
	Status int `json:"-"`
}

func (e *Error) Error() string { return "felt: " + e.Code + ": " + e.Message }

// The messages of a table, as package protocol defines them for the house and
// its clients.
type (
	// State is a table as the bot sees it (the "state" message).
	State = protocol.State
	// You is the bot's own seat; nil while it has none.
	You = protocol.You
	// Seat is one seat of the table.
	Seat = protocol.SeatInfo
	// Hand is the hand in play, or the last one once over.
	Hand = protocol.HandState
	// Event is one step of the hand (docs/protocol.md, "Event kinds").
	Event = protocol.EventInfo
	// Result is how a finished hand ended.
	Result = protocol.ResultInfo
	// Legal is what the bot may do, present when it is to act.
	Legal = protocol.LegalInfo
	// User is the account the connection plays as (the welcome message).
	User = protocol.User
)

// Action is what a bot does: Kind is "fold", "check", "call", "bet" or
// "raise"; Amount is the total a bet or raise brings the bet to ("raise to",
// Legal.MinTo to Legal.MaxTo), 0 otherwise.
type Action struct {
	Kind   string
	Amount int64
}

// Client is a connection to a house.
type Client struct {
	ws *websocket.Conn
	// User is the account this connection plays as.
	User User

	mu      sync.Mutex
	queue   []Message // received, not yet taken by Next
	waiting map[int64]chan Message
	more    chan struct{} // signalled when queue grows
	err     error         // why reading stopped
	nextID  int64
	done    chan struct{}
}

// Dial connects to the house at base ("http://host:8080" or "https://...")
// with a bot's API token, and waits for the house's welcome. A bad token is an
// *Error with Code "unauthorized" (or "rate_limited" after too many).
func Dial(ctx context.Context, base, token string) (*Client, error) {
	url := "ws" + strings.TrimPrefix(strings.TrimSuffix(base, "/"), "http") + "/ws"
	if !strings.HasPrefix(base, "http") {
		return nil, fmt.Errorf("feltclient: %q is not an http:// or https:// address", base)
	}
	h := http.Header{}
	h.Set("Authorization", "Bearer "+token)
	ws, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		if resp != nil && resp.StatusCode >= 400 {
			return nil, refused(resp)
		}
		return nil, fmt.Errorf("feltclient: dial %s: %w", url, err)
	}
	ws.SetReadLimit(4 << 20)
	c := &Client{ws: ws, waiting: map[int64]chan Message{}, more: make(chan struct{}, 1), done: make(chan struct{})}
	go c.read()
	m, err := c.Next(ctx)
	if err != nil {
		c.Close()
		return nil, err
	}
	if m.Type != "welcome" || m.User == nil {
		c.Close()
		return nil, fmt.Errorf("feltclient: the house's first message was %q, not a welcome with a user", m.Type)
	}
	c.User = *m.User
	return c, nil
}

// refused is the error of a connection the house answered with an HTTP error.
func refused(resp *http.Response) error {
	var body struct {
		Error *Error `json:"error"`
	}
	if resp.Body != nil {
		_ = json.NewDecoder(resp.Body).Decode(&body)
	}
	if body.Error == nil {
		body.Error = &Error{Code: "http", Message: resp.Status}
	}
	body.Error.Status = resp.StatusCode
	return body.Error
}

// Close closes the connection.
func (c *Client) Close() error { return c.ws.Close(websocket.StatusNormalClosure, "") }

// read takes every message off the connection: replies go to the Request
// waiting for them, the rest to the queue Next reads.
func (c *Client) read() {
	defer close(c.done)
	for {
		_, data, err := c.ws.Read(context.Background())
		if err != nil {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
			c.signal()
			return
		}
		var m Message
		if err := json.Unmarshal(data, &m); err != nil {
			continue // not a message of the protocol: skip it
		}
		m.Raw = data
		c.mu.Lock()
		if ch, ok := c.waiting[m.ID]; ok && m.ID != 0 && (m.Type == "ok" || m.Type == "error" || m.Type == "pong") {
			delete(c.waiting, m.ID)
			ch <- m
		} else {
			c.queue = append(c.queue, m)
		}
		c.mu.Unlock()
		c.signal()
	}
}

func (c *Client) signal() {
	select {
	case c.more <- struct{}{}:
	default:
	}
}

// Next returns the next message from the house (replies to Request excepted),
// waiting for one.
func (c *Client) Next(ctx context.Context) (Message, error) {
	for {
		c.mu.Lock()
		if len(c.queue) > 0 {
			m := c.queue[0]
			c.queue = c.queue[1:]
			c.mu.Unlock()
			return m, nil
		}
		err := c.err
		c.mu.Unlock()
		if err != nil {
			return Message{}, fmt.Errorf("feltclient: connection closed: %w", err)
		}
		select {
		case <-c.more:
		case <-ctx.Done():
			return Message{}, ctx.Err()
		}
	}
}

// Request sends msg (a client message of docs/protocol.md, such as
// {"type": "sit", "table": "Main", "buy_in": 2000}) with an id, and waits for
// the house's answer: nil for "ok", an *Error for "error".
func (c *Client) Request(ctx context.Context, msg map[string]any) error {
	ch := make(chan Message, 1)
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.waiting[id] = ch
	c.mu.Unlock()
	out := make(map[string]any, len(msg)+1)
	for k, v := range msg {
		out[k] = v
	}
	out["id"] = id
	b, err := json.Marshal(out)
	if err == nil {
		err = c.ws.Write(ctx, websocket.MessageText, b)
	}
	if err != nil {
		c.forget(id)
		return fmt.Errorf("feltclient: send: %w", err)
	}
	select {
	case m := <-ch:
		if m.Type == "error" && m.Error != nil {
			return m.Error
		}
		return nil
	case <-c.done:
		c.forget(id)
		return errors.New("feltclient: connection closed before the answer")
	case <-ctx.Done():
		c.forget(id)
		return ctx.Err()
	}
}

func (c *Client) forget(id int64) {
	c.mu.Lock()
	delete(c.waiting, id)
	c.mu.Unlock()
}

// Sit takes a seat at table (seat < 0: any free seat) with buyIn chips from the
// bot's credits.
func (c *Client) Sit(ctx context.Context, table string, seat int, buyIn int64) error {
	m := map[string]any{"type": "sit", "table": table, "buy_in": buyIn}
	if seat >= 0 {
		m["seat"] = seat
	}
	return c.Request(ctx, m)
}

// Act does a at table.
func (c *Client) Act(ctx context.Context, table string, a Action) error {
	m := map[string]any{"type": "act", "table": table, "action": a.Kind}
	if a.Kind == "bet" || a.Kind == "raise" {
		m["amount"] = a.Amount
	}
	return c.Request(ctx, m)
}

// Leave leaves table: the stack returns to the bot's credits once the hand in
// play is over.
func (c *Client) Leave(ctx context.Context, table string) error {
	return c.Request(ctx, map[string]any{"type": "leave", "table": table})
}
