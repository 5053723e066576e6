package node

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/nats-io/nats.go"

	"github.com/felt-poker/felt/protocol"
)

// HTTP requests one node answers for another (the tournaments' API on the
// director's node, a player's new table on the node it is placed on): the
// request goes as the player sent it (protocol.TournamentRequest) in a NATS
// request, and the answering node's handler writes the reply
// (protocol.TournamentReply), status 0 when it declines.

// forwardHTTP sends r, whose body is body, to the node answering on subject,
// and returns its reply.
func forwardHTTP(ctx context.Context, nc *nats.Conn, subject string, r *http.Request, body []byte) (protocol.TournamentReply, error) {
	var rep protocol.TournamentReply
	data, err := json.Marshal(protocol.TournamentRequest{Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header,
		Body: body, Remote: r.RemoteAddr})
	if err != nil {
		return rep, err
	}
	ctx, cancel := context.WithTimeout(ctx, relayTimeout)
	defer cancel()
	m, err := nc.RequestWithContext(ctx, subject, data)
	if err != nil {
		return rep, err
	}
	if err := json.Unmarshal(m.Data, &rep); err != nil {
		return rep, fmt.Errorf("a forwarded request's reply: %w", err)
	}
	return rep, nil
}

// writeForwarded writes rep, a forwarded request's reply, to w.
func writeForwarded(w http.ResponseWriter, rep protocol.TournamentReply) {
	if rep.ContentType != "" {
		w.Header().Set("Content-Type", rep.ContentType)
	}
	w.WriteHeader(rep.Status)
	_, _ = w.Write(rep.Body)
}

// answerForwarded answers m, a forwarded request, with h, or with status 0
// (declined) when h is nil.
func answerForwarded(m *nats.Msg, h http.Handler) error {
	var q protocol.TournamentRequest
	if err := json.Unmarshal(m.Data, &q); err != nil {
		return err
	}
	var rep protocol.TournamentReply
	if h != nil {
		ctx, cancel := context.WithTimeout(context.Background(), relayTimeout)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, q.Method, q.Path, bytes.NewReader(q.Body))
		if err != nil {
			return err
		}
		req.Header, req.RemoteAddr = http.Header(q.Header), q.Remote
		rec := &recorder{header: http.Header{}}
		h.ServeHTTP(rec, req)
		rep = protocol.TournamentReply{Status: rec.status, ContentType: rec.header.Get("Content-Type"), Body: rec.body.Bytes()}
	}
	b, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	return m.Respond(b)
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
