package protocol

import "encoding/json"

// ClientMsg is any message a client sends on the WebSocket (docs/protocol.md,
// "Client → server"); Type says which, and each uses the fields it needs.
type ClientMsg struct {
	Type   string          `json:"type"`
	ID     json.RawMessage `json:"id,omitempty"` // echoed in the answer when present
	Table  string          `json:"table,omitempty"`
	Text   string          `json:"text,omitempty"`
	Seat   *int            `json:"seat,omitempty"`
	BuyIn  int64           `json:"buy_in,omitempty"`
	Action string          `json:"action,omitempty"`
	Amount int64           `json:"amount,omitempty"`
	// Key is a locked table's password or invitation, with "watch" or "sit".
	Key string `json:"key,omitempty"`
	// From is the client's address on a message relayed from another node
	// (the relaying node sets it; the house clears what a client sends), for
	// the limits on guesses.
	From string `json:"_from,omitempty"`
	// Straddle and RunTwice are the choices of an "options" message.
	Straddle *bool `json:"straddle,omitempty"`
	RunTwice *bool `json:"run_twice,omitempty"`
}

// Reply answers a client message that carried an id: {"type":"ok"},
// {"type":"pong"} or {"type":"error"} with Error.
type Reply struct {
	Type  string          `json:"type"`
	ID    json.RawMessage `json:"id,omitempty"`
	Error *Error          `json:"error,omitempty"`
}

// Error is the error object of a reply, on the WebSocket and in HTTP
// answers ({"error": Error}; docs/protocol.md, "Errors").
type Error struct {
	Code    string `json:"code"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
	// RetryAfter is how many seconds to wait before asking again, when known
	// (also the Retry-After header of an HTTP reply).
	RetryAfter int64 `json:"retry_after,omitempty"`
}

// Welcome is the {"type":"welcome"} message, the first on a connection.
type Welcome struct {
	Type string `json:"type"`
	User *User  `json:"user"` // nil for an anonymous connection
}

// User is the account a connection plays as.
type User struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Guest bool   `json:"guest"`
}

// Lobby is the {"type":"lobby"} message, sent after Welcome: everything a
// newcomer needs.
type Lobby struct {
	Type    string          `json:"type"`
	Tables  json.RawMessage `json:"tables"`  // []Info
	Players json.RawMessage `json:"players"` // []string, the players online
	Chat    []ChatLine      `json:"chat"`    // the last lobby lines
}

// TablesMsg is {"type":"tables"}: the listings that changed since the last
// push and the tables closed since.
type TablesMsg struct {
	Type   string   `json:"type"`
	Tables []Info   `json:"tables"`
	Closed []string `json:"closed"`
}

// OnlineMsg is {"type":"online"}: players who came online and who left since
// the last push.
type OnlineMsg struct {
	Type   string   `json:"type"`
	Joined []string `json:"joined"`
	Left   []string `json:"left"`
}

// ChatLine is one chat message as clients receive it ({"type":"chat"}).
type ChatLine struct {
	Type  string `json:"type"`            // always "chat"
	Table string `json:"table,omitempty"` // the room; empty for the lobby
	From  string `json:"from"`
	Text  string `json:"text"`
	At    int64  `json:"at"` // Unix milliseconds
}
