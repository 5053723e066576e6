package node

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"

	"github.com/nats-io/nats.go"

	"github.com/felt-poker/felt/internal/web"
	"github.com/felt-poker/felt/protocol"
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
// tournaments (any more) answers status 0.
func (r *TournamentsRelay) answer(m *nats.Msg, h http.Handler) {
	var q protocol.TournamentRequest
	if err := json.Unmarshal(m.Data, &q); err != nil {
		return
	}
	var rep protocol.TournamentReply
	if r.d.Directing() {
		ctx, cancel := context.WithTimeout(context.Background(), relayTimeout)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, q.Method, q.Path, bytes.NewReader(q.Body))
		if err != nil {
			return
		}
		req.Header, req.RemoteAddr = http.Header(q.Header), q.Remote
		rec := &recorder{header: http.Header{}}
		h.ServeHTTP(rec, req)
		rep = protocol.TournamentReply{Status: rec.status, ContentType: rec.header.Get("Content-Type"), Body: rec.body.Bytes()}
	}
	b, err := json.Marshal(rep)
	if err == nil {
		err = m.Respond(b)
	}
	if err != nil {
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
	data, err := json.Marshal(protocol.TournamentRequest{Method: req.Method, Path: req.URL.RequestURI(), Header: req.Header,
		Body: body, Remote: req.RemoteAddr})
	if err != nil {
		return false, err
	}
	ctx, cancel := context.WithTimeout(req.Context(), relayTimeout)
	defer cancel()
	m, err := c.Conn().RequestWithContext(ctx, r.subject(holder), data)
	if err != nil {
		return false, fmt.Errorf("%w: node %s: %w", web.ErrNoDirector, holder, err)
	}
	var rep protocol.TournamentReply
	if err := json.Unmarshal(m.Data, &rep); err != nil {
		return false, fmt.Errorf("tournaments relay: node %s: %w", holder, err)
	}
	if rep.Status == 0 {
		return false, fmt.Errorf("%w: node %s no longer directs them", web.ErrNoDirector, holder)
	}
	if rep.ContentType != "" {
		w.Header().Set("Content-Type", rep.ContentType)
	}
	w.WriteHeader(rep.Status)
	_, _ = w.Write(rep.Body)
	return true, nil
}

// recorder is the http.ResponseWriter of a forwarded request.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}
