package casino

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/chat"
)

// ErrBadMessage is wrapped by every error about a message that does not follow the
// protocol, in either direction.
var ErrBadMessage = errors.New("bad message")

// The message words of the protocol.
const (
	MsgLogin  = "login"
	MsgBet1   = "bet1"
	MsgBet2   = "bet2"
	MsgStatus = "status"
	MsgDone   = "done"
	MsgBet    = "bet"
	MsgFold   = "fold"
)

// MaxRaise is the most a bet may add over the amount to call (RULES.md).
const MaxRaise = 10

// FormatCard writes a card as the protocol does: rank ("2".."10", "J", "Q", "K",
// "A") then suit in capitals ("C", "D", "H", "S"): "10S", "QH".
func FormatCard(c cards.Card) string {
	r := c.Rank().String()
	if c.Rank() == cards.Ten {
		r = "10"
	}
	return r + strings.ToUpper(c.String()[1:])
}

// ParseCard reads a card in the protocol's form (and any form cards.Parse takes).
func ParseCard(s string) (cards.Card, error) {
	c, err := cards.Parse(s)
	if err != nil {
		return cards.NoCard, fmt.Errorf("%w: %w", ErrBadMessage, err)
	}
	return c, nil
}

// Bet1 is the dealer's question in the first betting round.
type Bet1 struct {
	// Stack is the player's chips not yet bet, Pot every chip in the pot, ToCall
	// what the player must add now to match the current bet.
	Stack, Pot, ToCall int64
	Hole, Up           cards.Card
	// Ups holds the up card of every player dealt in, in seat order (the player's
	// own included).
	Ups []cards.Card
}

// Bet2 is the dealer's question in the second betting round.
type Bet2 struct {
	Stack, Pot, ToCall int64
	Hole, Up1, Up2     cards.Card
	// Ups holds both up cards of every player still in the hand, in seat order (the
	// player's own included).
	Ups [][2]cards.Card
}

// Status tells a player, after a hand, whether it won chips and the three cards of
// the winning poker hand.
type Status struct {
	Win   bool
	Cards [3]cards.Card
}

// String writes the message: "bet1:<stack>:<pot>:<toCall>:<hole>:<up>:up:<ups>".
func (m Bet1) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d:%d:%s:%s:up", MsgBet1, m.Stack, m.Pot, m.ToCall, FormatCard(m.Hole), FormatCard(m.Up))
	for _, c := range m.Ups {
		b.WriteString(":" + FormatCard(c))
	}
	return b.String()
}

// String writes the message: "bet2:<stack>:<pot>:<toCall>:<hole>:<up1>:<up2>:up:<ups>".
func (m Bet2) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d:%d:%s:%s:%s:up", MsgBet2, m.Stack, m.Pot, m.ToCall, FormatCard(m.Hole), FormatCard(m.Up1), FormatCard(m.Up2))
	for _, p := range m.Ups {
		b.WriteString(":" + FormatCard(p[0]) + ":" + FormatCard(p[1]))
	}
	return b.String()
}

// String writes the message: "status:win:AS:AD:3C".
func (m Status) String() string {
	w := "lose"
	if m.Win {
		w = "win"
	}
	return fmt.Sprintf("%s:%s:%s:%s:%s", MsgStatus, w, FormatCard(m.Cards[0]), FormatCard(m.Cards[1]), FormatCard(m.Cards[2]))
}

// Done writes the message that puts a player out. A ':' in reason is replaced so
// that the message keeps two fields.
func Done(reason string) string {
	return MsgDone + ":" + strings.ReplaceAll(reason, ":", ";")
}

// Bet writes the reply that puts n chips in the pot.
func Bet(n int64) string { return MsgBet + ":" + strconv.FormatInt(n, 10) }

// Login writes the reply to login.
func Login(id, avatar string) string { return id + ":" + avatar }

// Bounds of a login's two fields (docs/casino-day.md, "Logins").
const (
	// MaxID is the longest id: GitHub's longest username.
	MaxID = 39
	// MaxAvatar is the most characters of an avatar.
	MaxAvatar = 32
)

// ParseLogin reads a reply to login: "<GitHubId>:<avatar>", both non-empty, no
// further ':', and both as CheckLogin wants them.
func ParseLogin(s string) (id, avatar string, err error) {
	id, avatar, ok := strings.Cut(s, ":")
	if !ok || id == "" || avatar == "" || strings.Contains(avatar, ":") {
		return "", "", fmt.Errorf("%w: login reply %q is not <GitHubId>:<avatar>", ErrBadMessage, clip(s))
	}
	if err := CheckLogin(id, avatar); err != nil {
		return "", "", fmt.Errorf("login reply %q: %w", clip(s), err)
	}
	return id, avatar, nil
}

// CheckLogin checks a login's fields. The id is 1 to MaxID ASCII letters, digits,
// '-', '_' or '.', the first a letter or digit (a spreadsheet reads no formula
// in it); the avatar 1 to MaxAvatar characters of one line, without
// ':', control, invisible or direction-changing characters (chat.CheckText). The
// dealer prints both on its operator's terminal and its page shows them: an id
// must not be able to write a line of the standings or move the cursor.
func CheckLogin(id, avatar string) error {
	if id == "" || len(id) > MaxID {
		return fmt.Errorf("%w: id must be 1 to %d characters", ErrBadMessage, MaxID)
	}
	for i, c := range []byte(id) {
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !alnum && (i == 0 || c != '-' && c != '_' && c != '.') {
			return fmt.Errorf("%w: id must be ASCII letters, digits, '-', '_' or '.', starting with a letter or digit", ErrBadMessage)
		}
	}
	if avatar == "" || utf8.RuneCountInString(avatar) > MaxAvatar || strings.Contains(avatar, ":") {
		return fmt.Errorf("%w: avatar must be 1 to %d characters, without ':'", ErrBadMessage, MaxAvatar)
	}
	if err := chat.CheckText(avatar, false); err != nil {
		return fmt.Errorf("%w: avatar: %w", ErrBadMessage, err)
	}
	return nil
}

// ParseReply reads a reply to bet1 or bet2: "fold" (fold is true) or "bet:<n>" with
// n written in decimal digits only. It checks the form, not the bounds.
func ParseReply(s string) (n int64, fold bool, err error) {
	if s == MsgFold {
		return 0, true, nil
	}
	num, ok := strings.CutPrefix(s, MsgBet+":")
	if !ok || num == "" || len(num) > 12 || strings.Trim(num, "0123456789") != "" {
		return 0, false, fmt.Errorf("%w: reply %q is not bet:<n> or fold", ErrBadMessage, clip(s))
	}
	n, err = strconv.ParseInt(num, 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("%w: reply %q: %w", ErrBadMessage, clip(s), err)
	}
	return n, false, nil
}

// clip shortens a client's text for error messages and logs.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// Message is any dealer-to-player message, parsed (see ParseMessage).
type Message struct {
	// Kind is MsgLogin, MsgBet1, MsgBet2, MsgStatus or MsgDone; exactly one of the
	// other fields is set for bet1, bet2 and status, Reason for done.
	Kind   string
	Bet1   *Bet1
	Bet2   *Bet2
	Status *Status
	Reason string
}

// ParseMessage reads a message from the dealer, as a client does.
func ParseMessage(s string) (Message, error) {
	f := strings.Split(s, ":")
	bad := func(why string) (Message, error) {
		return Message{}, fmt.Errorf("%w: %q: %s", ErrBadMessage, clip(s), why)
	}
	switch f[0] {
	case MsgLogin:
		if len(f) != 1 {
			return bad("login takes no fields")
		}
		return Message{Kind: MsgLogin}, nil
	case MsgDone:
		_, reason, _ := strings.Cut(s, ":")
		return Message{Kind: MsgDone, Reason: reason}, nil
	case MsgStatus:
		if len(f) != 5 || (f[1] != "win" && f[1] != "lose") {
			return bad("want status:<win|lose>:<c1>:<c2>:<c3>")
		}
		m := &Status{Win: f[1] == "win"}
		for i := range m.Cards {
			c, err := ParseCard(f[2+i])
			if err != nil {
				return Message{}, err
			}
			m.Cards[i] = c
		}
		return Message{Kind: MsgStatus, Status: m}, nil
	case MsgBet1, MsgBet2:
		nCards := 2
		if f[0] == MsgBet2 {
			nCards = 3
		}
		head := 4 + nCards // word, 3 numbers, own cards
		if len(f) < head+1 || f[head] != "up" {
			return bad("missing fields or \"up\"")
		}
		var nums [3]int64
		for i := range nums {
			n, err := strconv.ParseInt(f[1+i], 10, 64)
			if err != nil || n < 0 {
				return bad("field " + strconv.Itoa(1+i) + " is not a number of chips")
			}
			nums[i] = n
		}
		cs, err := parseCards(f[4:head])
		if err != nil {
			return Message{}, err
		}
		ups, err := parseCards(f[head+1:])
		if err != nil {
			return Message{}, err
		}
		if f[0] == MsgBet1 {
			return Message{Kind: MsgBet1, Bet1: &Bet1{Stack: nums[0], Pot: nums[1], ToCall: nums[2], Hole: cs[0], Up: cs[1], Ups: ups}}, nil
		}
		if len(ups)%2 != 0 {
			return bad("bet2 up cards are not in pairs")
		}
		m := &Bet2{Stack: nums[0], Pot: nums[1], ToCall: nums[2], Hole: cs[0], Up1: cs[1], Up2: cs[2]}
		for i := 0; i < len(ups); i += 2 {
			m.Ups = append(m.Ups, [2]cards.Card{ups[i], ups[i+1]})
		}
		return Message{Kind: MsgBet2, Bet2: m}, nil
	}
	return bad("unknown message")
}

func parseCards(f []string) ([]cards.Card, error) {
	out := make([]cards.Card, len(f))
	for i, s := range f {
		c, err := ParseCard(s)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}
