package live

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
)

// saveTimeout bounds one write of a tournament's state.
const saveTimeout = 30 * time.Second

// saveJob is one step of a tournament to store.
type saveJob struct {
	ref     string
	rec     store.Tournament
	entries []store.TournamentEntry
}

// saver writes the tournaments' steps in the order they happened, off the
// tables' goroutines: each step is one transaction (House.SaveTournament), so
// the store always holds the state after some completed hand at every table.
type saver struct {
	h   *house.House
	log *slog.Logger
	// fenced is told of each write's error (Director.fenced).
	fenced func(error) error

	mu      sync.Mutex
	dropped bool // abandon: nothing more is written
	queue   []saveJob
	running bool
	idle    chan struct{} // closed when the queue empties; nil while idle
}

func newSaver(h *house.House, log *slog.Logger, fenced func(error) error) *saver {
	return &saver{h: h, log: log, fenced: fenced}
}

// abandon drops what is queued and every later step: another director writes
// the tournaments now.
func (s *saver) abandon() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropped, s.queue = true, nil
}

// save queues a step; it never blocks.
func (s *saver) save(ref string, rec store.Tournament, entries []store.TournamentEntry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dropped {
		return
	}
	s.queue = append(s.queue, saveJob{ref: ref, rec: rec, entries: entries})
	if !s.running {
		s.running = true
		s.idle = make(chan struct{})
		go s.run()
	}
}

func (s *saver) run() {
	for {
		s.mu.Lock()
		if len(s.queue) == 0 {
			s.running = false
			close(s.idle)
			s.mu.Unlock()
			return
		}
		j := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), saveTimeout)
		if err := s.h.SaveTournament(ctx, j.ref, j.rec, j.entries); err != nil {
			err = s.fenced(err)
			s.log.Error("store a tournament's step", "tournament", j.rec.ID, "err", err)
		}
		cancel()
	}
}

// flush waits until everything queued so far is written.
func (s *saver) flush(ctx context.Context) error {
	s.mu.Lock()
	idle, running := s.idle, s.running
	s.mu.Unlock()
	if !running {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
