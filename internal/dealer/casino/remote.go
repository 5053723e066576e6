package casino

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"
)

// Reasons a player goes out, as sent in done:<reason> and shown in the standings.
const (
	ReasonNoChips      = "no chips"
	ReasonTooSlow      = "too slow"
	ReasonDisconnected = "disconnected"
	ReasonIllegal      = "illegal reply"
	ReasonGameOver     = "game over"
	ReasonStarted      = "game already started"
	ReasonDuplicate    = "id already logged in"
	ReasonFull         = "game full"
	ReasonAddressFull  = "too many players from one address"
	ReasonShutdown     = "dealer shutting down"
)

// queueLen bounds the messages waiting to be written to one player. A player whose
// queue is full is not reading and is put out as too slow.
const queueLen = 8

// remote is one network player's connection. Its own goroutine (run) writes every
// message and waits for every reply under a deadline, so that the goroutine that
// owns a hand never blocks on a socket: it hands messages over without blocking
// and waits for a reply at most a bounded time. A second goroutine (read) reads
// frames all the time, so that a player who hangs up, or sends a frame nobody
// asked for, while it waits in the lobby or between its turns is noticed at once:
// run then closes lost.
type remote struct {
	conn    net.Conn
	timeout time.Duration
	jobs    chan job
	in      chan answer   // every frame read, then the read error; from read
	quit    chan struct{} // closed when run returns
	lost    chan struct{} // closed by run when the player is gone while nothing was asked
	lostErr error         // why; written before lost is closed
	drop    chan struct{} // closed (once, by bye) when the connection is closed without a goodbye
	dropped sync.Once
}

// job is one message to write; reply, when not nil, receives the answer.
type job struct {
	msg   string
	reply chan answer
	close bool // close the connection after writing msg
}

// answer is a player's reply or why there is none.
type answer struct {
	text string
	err  error
}

func newRemote(conn net.Conn, timeout time.Duration) *remote {
	p := &remote{conn: conn, timeout: timeout, jobs: make(chan job, queueLen), in: make(chan answer),
		quit: make(chan struct{}), lost: make(chan struct{}), drop: make(chan struct{})}
	go p.read()
	go p.run()
	return p
}

// read hands every frame to run until the connection fails or closes, and then
// the error.
func (p *remote) read() {
	for {
		text, err := readFrame(p.conn, p.timeout)
		select {
		case p.in <- answer{text: text, err: err}:
		case <-p.quit:
			return
		}
		if err != nil {
			return
		}
	}
}

// readFrame reads one frame from c. It waits as long as it takes for the
// frame's first byte (a player waits silently in the lobby and between its
// turns), and then at most d for the rest: a legal reply comes whole within d
// of its question, so a player that starts a frame and stalls is too slow
// (os.ErrDeadlineExceeded) exactly as one that does not answer in time, and
// does not hold its frame's buffer.
func readFrame(c net.Conn, d time.Duration) (string, error) {
	var first [1]byte
	if _, err := io.ReadFull(c, first[:]); err != nil {
		return "", err
	}
	if err := c.SetReadDeadline(time.Now().Add(d)); err != nil {
		return "", err
	}
	text, err := ReadUTF(io.MultiReader(bytes.NewReader(first[:]), c))
	if err == nil {
		err = c.SetReadDeadline(time.Time{})
	}
	return text, err
}

// run serves the jobs in order until one closes the connection, or bye drops it.
// Between jobs it watches the reader: a read error, or a frame when no question is
// pending (not a legal reply, RULES.md), closes lost. After a failed write or read
// every later job fails with the same error, except that a player that is too slow
// or broke a rule, and so is still connected, is sent its done message.
func (p *remote) run() {
	defer close(p.quit)
	var broken error
	for {
		in := p.in
		if broken != nil {
			in = nil
		}
		var j job
		select {
		case j = <-p.jobs:
		case <-p.drop:
			return
		case a := <-in:
			if a.err != nil {
				broken = classify(a.err)
			} else {
				broken = fmt.Errorf("%w: %q when nothing was asked", errIllegal, clip(a.text))
			}
			p.lostErr = broken
			close(p.lost)
			continue
		}
		switch {
		case broken == nil:
			broken = p.serve(j)
		case j.close && (errors.Is(broken, errTooSlow) || errors.Is(broken, errIllegal)):
			p.serve(j) // the player is still there to be told it is out
		case j.reply != nil:
			j.reply <- answer{err: broken}
		}
		if j.close {
			p.conn.Close()
			return
		}
	}
}

// serve writes one message and, when asked, waits for the reply, both within the
// timeout from the moment the message is written.
func (p *remote) serve(j job) error {
	deadline := time.Now().Add(p.timeout)
	if err := p.conn.SetWriteDeadline(deadline); err != nil {
		return p.fail(j, err)
	}
	if err := WriteUTF(p.conn, j.msg); err != nil {
		return p.fail(j, err)
	}
	if j.reply == nil {
		return nil
	}
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case a := <-p.in:
		if a.err != nil {
			return p.fail(j, a.err)
		}
		j.reply <- answer{text: a.text}
		return nil
	case <-t.C:
		return p.fail(j, os.ErrDeadlineExceeded)
	}
}

func (p *remote) fail(j job, err error) error {
	err = classify(err)
	if j.reply != nil {
		j.reply <- answer{err: err}
	}
	return err
}

// errTooSlow and errGone tell a timeout from a broken connection; a malformed frame
// is ErrMalformed.
var (
	errTooSlow = errors.New(ReasonTooSlow)
	errGone    = errors.New(ReasonDisconnected)
	errIllegal = errors.New(ReasonIllegal)
)

// classify maps a socket error to the reason the player goes out.
func classify(err error) error {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("%w: %w", errTooSlow, err)
	case errors.Is(err, ErrMalformed):
		return fmt.Errorf("%w: %w", errIllegal, err)
	}
	return fmt.Errorf("%w: %w", errGone, err)
}

// reason is the short text of done:<reason> for an error from ask.
func reason(err error) string {
	switch {
	case errors.Is(err, errTooSlow):
		return ReasonTooSlow
	case errors.Is(err, errGone):
		return ReasonDisconnected
	case errors.Is(err, errIllegal), errors.Is(err, ErrMalformed), errors.Is(err, ErrBadMessage):
		return ReasonIllegal
	}
	return err.Error()
}

// guardSlack is added to ask's guard timer.
const guardSlack = 2 * time.Second

// ask writes msg and returns the reply. It returns within three timeouts and
// guardSlack even if the connection's goroutine is stuck (then it closes the
// connection).
func (p *remote) ask(msg string) (string, error) {
	reply := make(chan answer, 1)
	select {
	case p.jobs <- job{msg: msg, reply: reply}:
	default:
		return "", fmt.Errorf("%w: %d messages not read", errTooSlow, queueLen)
	}
	// A message queued before this one may take up to a timeout to fail (after a
	// failure the rest fail at once), then this one gets its own timeout; the
	// deadlines end both, so the guard only matters if the goroutine is starved,
	// and it is generous so that a busy machine does not cut a player short.
	guard := time.NewTimer(3*p.timeout + guardSlack)
	defer guard.Stop()
	select {
	case a := <-reply:
		return a.text, a.err
	case <-p.quit:
		return "", errGone
	case <-guard.C:
		p.conn.Close()
		return "", fmt.Errorf("%w: no answer", errTooSlow)
	}
}

// tell queues msg without waiting; it reports false when the player is not
// reading its messages.
func (p *remote) tell(msg string) bool {
	select {
	case p.jobs <- job{msg: msg}:
		return true
	default:
		return false
	}
}

// bye queues done:<reason> and the closing of the connection; when the queue is
// full it closes the connection at once and ends run.
func (p *remote) bye(why string) {
	select {
	case p.jobs <- job{msg: Done(why), close: true}:
	default:
		p.conn.Close()
		p.dropped.Do(func() { close(p.drop) })
	}
}

// closed reports that run has returned: every message was written or failed, and
// the connection is closed.
func (p *remote) closed() bool {
	select {
	case <-p.quit:
		return true
	default:
		return false
	}
}
