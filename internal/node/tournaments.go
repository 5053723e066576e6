package node

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"

	"github.com/nats-io/nats.go"

	"github.com/felt-poker/felt/internal/web"
)

// maxForwardBody bounds the body of a tournaments' API request forwarded to
// the director's node (the API's requests have none, or a few bytes).
const maxForwardBody = 64 << 10

// TournamentsRelay is web.TournamentsHost over NATS: a request of the
// tournaments' API that reaches a node which does not direct the tournaments
// goes, as a protocol.TournamentRequest, to the node that holds the director
// lease ("<prefix>.node.<node>.tournaments"), which answers it with its own
// handler (web.Server.DirectorHandler). While no node directs them, the API
// answers web.ErrNoDirector (503, "try again").
type TournamentsRelay struct {
	d   *Director
	log *slog.Logger
}

// NewTournamentsRelay returns the relay of the node whose part in directing
// the tournaments is d; Serve starts its side of it.
func NewTournamentsRelay(d *Director, log *slog.Logger) *TournamentsRelay {
	return &TournamentsRelay{d: d, log: log}
}

func (r *TournamentsRelay) subject(node string) string {
	return r.d.cfg.Cluster.Subject("node", node, "tournaments")
}

// Serve answers with h the requests other nodes forward here, until ctx is
// done.
func (r *TournamentsRelay) Serve(ctx context.Context, h http.Handler) error {
	sub, err := r.d.cfg.Cluster.Conn().Subscribe(r.subject(r.d.cfg.Cluster.Name()), func(m *nats.Msg) { go r.answer(m, h) })
	if err != nil {
		return fmt.Errorf("tournaments relay: %w", err)
	}
	go func() {
		<-ctx.Done()
		_ = sub.Unsubscribe()
	}()
	return nil
}

// answer handles one forwarded request; a node that does not direct the
// tournaments (any more) declines it.
func (r *TournamentsRelay) answer(m *nats.Msg, h http.Handler) {
	if !r.d.Directing() {
		h = nil
	}
	if err := answerForwarded(m, h); err != nil {
		r.log.Warn("a forwarded tournaments request not answered", "err", err)
	}
}

// Forward answers req from the node that directs the tournaments
// (web.TournamentsHost).
func (r *TournamentsRelay) Forward(w http.ResponseWriter, req *http.Request) (bool, error) {
	if r.d.Directing() {
		return false, nil
	}
	c := r.d.cfg.Cluster
	holder, err := c.RoleHolder(req.Context(), DirectorRole)
	switch {
	case err != nil:
		return false, fmt.Errorf("%w: %w", web.ErrNoDirector, err)
	case holder == "" || holder == c.Name(): // none, or this node before it directs
		return false, web.ErrNoDirector
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, maxForwardBody))
	if err != nil {
		return false, err
	}
	rep, err := forwardHTTP(req.Context(), c.Conn(), r.subject(holder), req, body)
	if err != nil {
		return false, fmt.Errorf("%w: node %s: %w", web.ErrNoDirector, holder, err)
	}
	if rep.Status == 0 {
		return false, fmt.Errorf("%w: node %s no longer directs them", web.ErrNoDirector, holder)
	}
	writeForwarded(w, rep)
	return true, nil
}
