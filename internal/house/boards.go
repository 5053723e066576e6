package house

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/felt-poker/felt/internal/chat"

	"github.com/felt-poker/felt/internal/store"
)

// Message board, player and hand look-ups: thin rules over the store for the
// house's API.

// Board limits.
const (
	MaxTopicTitle = 120    // characters
	MaxPostBody   = 10_000 // characters
	maxListLimit  = 100    // rows per page
)

// ErrForbidden reports something a guest (or this player) may not do.
var ErrForbidden = errors.New("forbidden")

// ErrNotFound reports an unknown board, topic, player or hand.
var ErrNotFound = store.ErrNotFound

// defaultBoards are created by EnsureBoards in a house that has none.
var defaultBoards = []store.Board{
	{Slug: "general", Title: "General", Description: "Anything about felt and poker", Position: 1},
	{Slug: "strategy", Title: "Strategy", Description: "Hands, ranges and bots", Position: 2},
}

// EnsureBoards creates the default boards (General, Strategy) when there are none.
func (h *House) EnsureBoards(ctx context.Context) error {
	bs, err := h.st.Boards(ctx)
	if err != nil || len(bs) > 0 {
		return err
	}
	for _, b := range defaultBoards {
		b.CreatedAt = h.now()
		if _, err := h.st.CreateBoard(ctx, b); err != nil && !errors.Is(err, store.ErrDuplicate) {
			return fmt.Errorf("create board %s: %w", b.Slug, err)
		}
	}
	return nil
}

// Boards lists the boards.
func (h *House) Boards(ctx context.Context) ([]store.Board, error) { return h.st.Boards(ctx) }

// Board returns the board with slug, or ErrNotFound.
func (h *House) Board(ctx context.Context, slug string) (store.Board, error) {
	bs, err := h.st.Boards(ctx)
	if err != nil {
		return store.Board{}, err
	}
	for _, b := range bs {
		if b.Slug == slug {
			return b, nil
		}
	}
	return store.Board{}, fmt.Errorf("board %q: %w", slug, ErrNotFound)
}

// Topics lists a board's topics, most recently active first.
func (h *House) Topics(ctx context.Context, slug string, offset int) ([]store.Topic, error) {
	b, err := h.Board(ctx, slug)
	if err != nil {
		return nil, err
	}
	return h.st.Topics(ctx, b.ID, maxListLimit, max(0, offset))
}

// Topic returns a topic and its posts (the first page of them).
func (h *House) Topic(ctx context.Context, id int64, offset int) (store.Topic, []store.Post, error) {
	t, err := h.st.Topic(ctx, id)
	if err != nil {
		return store.Topic{}, nil, fmt.Errorf("topic %d: %w", id, err)
	}
	ps, err := h.st.Posts(ctx, id, maxListLimit, max(0, offset))
	return t, ps, err
}

func checkText(field string, s string, maxLen int) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", fieldError(field, "is required")
	case !utf8.ValidString(s):
		return "", fieldError(field, "is not valid UTF-8")
	case utf8.RuneCountInString(s) > maxLen:
		return "", fieldError(field, "at most %d characters", maxLen)
	}
	if err := chat.CheckText(s, field == "body"); err != nil {
		return "", fieldError(field, "%v", err)
	}
	return s, nil
}

// mayPost checks that u may post: registered players only.
func mayPost(u store.User) error {
	if u.Guest {
		return &PlayerError{Message: "guests may read the boards; register to post", Err: ErrForbidden}
	}
	return nil
}

// CreateTopic opens a topic on a board with its first post.
func (h *House) CreateTopic(ctx context.Context, u store.User, slug, title, body string) (store.Topic, error) {
	if err := mayPost(u); err != nil {
		return store.Topic{}, err
	}
	title, err := checkText("title", title, MaxTopicTitle)
	if err != nil {
		return store.Topic{}, err
	}
	if body, err = checkText("body", body, MaxPostBody); err != nil {
		return store.Topic{}, err
	}
	b, err := h.Board(ctx, slug)
	if err != nil {
		return store.Topic{}, err
	}
	t, err := h.st.CreateTopic(ctx, b.ID, u.ID, title, body, h.now())
	if err != nil {
		return store.Topic{}, err
	}
	t.Author = u.Username
	return t, nil
}

// Reply adds a post to a topic.
func (h *House) Reply(ctx context.Context, u store.User, topicID int64, body string) (store.Post, error) {
	if err := mayPost(u); err != nil {
		return store.Post{}, err
	}
	body, err := checkText("body", body, MaxPostBody)
	if err != nil {
		return store.Post{}, err
	}
	if _, err := h.st.Topic(ctx, topicID); err != nil {
		return store.Post{}, fmt.Errorf("topic %d: %w", topicID, err)
	}
	return h.st.AddPost(ctx, store.Post{TopicID: topicID, UserID: u.ID, Body: body, CreatedAt: h.now()})
}

// Player returns a player's account and running totals by name (any case).
func (h *House) Player(ctx context.Context, name string) (store.User, store.Stats, error) {
	u, err := h.st.UserByName(ctx, name)
	if err == nil && !u.DeletedAt.IsZero() {
		err = store.ErrNotFound // a deleted account has no public profile
	}
	if err != nil {
		return store.User{}, store.Stats{}, fmt.Errorf("player %q: %w", name, err)
	}
	s, err := h.st.Stats(ctx, u.ID)
	return u, s, err
}

// Hand returns a recorded hand.
func (h *House) Hand(ctx context.Context, id int64) (store.Hand, error) {
	hd, err := h.st.Hand(ctx, id)
	if err != nil {
		return store.Hand{}, fmt.Errorf("hand %d: %w", id, err)
	}
	return hd, nil
}

// Rankings lists registered players (guests are not ranked), at most limit
// (1..100) from offset: by net winnings (store.RankByNet: every player with a hand
// played) or by win rate in big blinds per 100 hands (store.RankByWinRate: players
// with at least Config.RankMinHands hands). Another order is a *FieldError on "by".
func (h *House) Rankings(ctx context.Context, by store.Rank, limit, offset int) ([]store.Ranked, error) {
	if by != store.RankByNet && by != store.RankByWinRate {
		return nil, fieldError("by", "must be %s or %s", store.RankByNet, store.RankByWinRate)
	}
	rs, err := h.st.Rankings(ctx, by, h.MinHands(by), min(max(limit, 1), maxListLimit), max(offset, 0))
	if err != nil {
		return nil, fmt.Errorf("rankings: %w", err)
	}
	return rs, nil
}

// MinHands is the fewest hands played that a ranking lists a player with.
func (h *House) MinHands(by store.Rank) int64 {
	if by == store.RankByWinRate {
		return max(h.cfg.RankMinHands, 1)
	}
	return 1
}
