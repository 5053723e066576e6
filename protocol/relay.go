package protocol

// The messages between the nodes of a house on several nodes (docs/scaling.md):
// a player's message for a table of another node goes to that node as a
// RelayRequest, which answers with a RelayReply; the messages for the player
// come back as the WebSocket messages above.

// Player is who a relayed message is from: a registered or guest account (ID
// 0: an anonymous spectator). Its JSON names are those nodes have always sent.
type Player struct {
	ID   int64  `json:"ID"`
	Name string `json:"Name"`
}

// RelayRequest is a relayed message, a connection's goodbye, or a ping.
type RelayRequest struct {
	Conn   string `json:"conn,omitempty"`   // the shadow's name: node and connection
	Origin string `json:"origin,omitempty"` // the connection's node
	Events string `json:"events,omitempty"` // the subject of the shadow's messages
	Player Player `json:"player"`
	Msg    []byte `json:"msg,omitempty"` // the client's message, a ClientMsg
	Bye    bool   `json:"bye,omitempty"`
	Ping   bool   `json:"ping,omitempty"`
}

// RelayReply answers a RelayRequest: the refusal of the message, or nothing.
type RelayReply struct {
	Error *RemoteError `json:"error,omitempty"`
}

// RemoteError is the refusal of a message by the node that runs its table, as
// that node classified it: the HTTP status and the Error.
type RemoteError struct {
	Status     int    `json:"status"`
	Code       string `json:"code"`
	Field      string `json:"field,omitempty"`
	Message    string `json:"message"`
	RetryAfter int64  `json:"retry_after,omitempty"`
}

func (e *RemoteError) Error() string { return e.Message }

// LobbyChat is a lobby chat line said on one node, for the others: published
// on "<prefix>.chat.lobby", the last lines kept for nodes that start later.
// The node it was said on checked it (its text, its sender's rate).
type LobbyChat struct {
	Origin string   `json:"origin"` // the lobby that said it (and sent it to its own subscribers)
	Line   ChatLine `json:"line"`
}

// NodeOnline is the players online on one node: its entry in the house's
// bucket of players online, which expires a lease TTL after its last write.
type NodeOnline struct {
	Node    string   `json:"node"`
	Players []Player `json:"players"`
}
