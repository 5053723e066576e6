package house

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/felt-poker/felt/internal/history"
	"github.com/felt-poker/felt/internal/store"
)

// HandFor returns a recorded hand as viewerID (0: someone not logged in) may see
// it, as a poker room shows a hand history: until Config.HandsPublicAfter has
// passed since it was played, its PHH keeps only the cards shown at showdown and,
// for a player of the hand, their own hole cards, without the seed
// (history.PHH.SeenBy); after it, the full record, which felt verify checks.
// A stored PHH that cannot be read is left out rather than shown whole.
func (h *House) HandFor(ctx context.Context, id, viewerID int64) (store.Hand, error) {
	hd, err := h.Hand(ctx, id)
	if err != nil {
		return store.Hand{}, err
	}
	if !mayView(hd, viewerID) {
		return store.Hand{}, fmt.Errorf("hand %d: %w", id, store.ErrNotFound)
	}
	if h.handPublic(hd) {
		return hd, nil
	}
	seat := -1
	for _, p := range hd.Players {
		if viewerID != 0 && p.UserID == viewerID {
			seat = p.Seat
		}
	}
	hd.PHH = seenBy(hd, seat)
	return hd, nil
}

// mayView reports whether the player viewerID (0: nobody logged in) may see hd
// at all: anyone a public table's hand, only its players a private table's.
func mayView(hd store.Hand, viewerID int64) bool {
	if !hd.Private {
		return true
	}
	for _, p := range hd.Players {
		if viewerID != 0 && p.UserID == viewerID {
			return true
		}
	}
	return false
}

// HandsOf returns the newest hands the player userID played that viewerID may
// see (mayView), newest first, at most limit (1..100).
func (h *House) HandsOf(ctx context.Context, userID, viewerID int64, limit int) ([]store.Hand, error) {
	hs, err := h.st.HandsByUser(ctx, userID, min(max(limit, 1), maxListLimit))
	if err != nil {
		return nil, err
	}
	out := hs[:0]
	for _, hd := range hs {
		if mayView(hd, viewerID) {
			out = append(out, hd)
		}
	}
	return out, nil
}

// handPublic reports whether a hand's full record is public by now
// (Config.HandsPublicAfter).
func (h *House) handPublic(hd store.Hand) bool {
	d := h.cfg.HandsPublicAfter
	return d > 0 && !h.now().Before(hd.PlayedAt.Add(d))
}

// seenBy returns the PHH of hd as seat sees it, "" when it cannot be read.
func seenBy(hd store.Hand, seat int) string {
	p, err := history.Parse([]byte(hd.PHH))
	if err == nil {
		p, err = p.SeenBy(seat)
	}
	var text []byte
	if err == nil {
		text, err = p.Marshal()
	}
	if err != nil {
		slog.Error("hand history cannot be redacted: left out", "hand", hd.ID, "err", err)
		return ""
	}
	return string(text)
}
