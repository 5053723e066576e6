package table

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/bot"
)

// Learning bots save their models after every hand, from their own goroutine
// (botrun.go). A modelSaver stands between them and Config.BotModels so that a
// bot never waits for the store: a save only queues the model, newest wins per
// (bot, opponent), and one goroutine writes the queue, each write with its own
// deadline. A load (once per bot and opponent in a table's life) runs on the
// bot's goroutine, bounded by modelLoadTimeout.

const (
	// modelSaveTimeout bounds one model's write.
	modelSaveTimeout = 5 * time.Second
	// modelLoadTimeout bounds one model's read.
	modelLoadTimeout = time.Second
	// maxPendingModels bounds the models waiting to be written; a save beyond it
	// is dropped (the bot keeps the model in memory, and saves it again next hand).
	maxPendingModels = 1024
	// modelFlushTimeout bounds the final writes once the table has closed.
	modelFlushTimeout = 10 * time.Second
)

type modelKey struct{ bot, opponent string }

type modelSaver struct {
	store bot.ModelStore
	log   *slog.Logger

	mu      sync.Mutex
	pending map[modelKey][]byte
	order   []modelKey // pending keys, oldest first
	// unread are models whose load failed (not "no model"): this table's bots
	// learn them afresh, and their saves are dropped so that the stored model,
	// which knows more, is kept.
	unread  map[modelKey]bool
	dropped bool // a save was dropped for a full queue (logged once)
	closing bool

	wake chan struct{}
	done chan struct{}
}

var _ bot.ModelStore = (*modelSaver)(nil)

// newModelSaver starts the writer of store's models.
func newModelSaver(store bot.ModelStore, log *slog.Logger) *modelSaver {
	m := &modelSaver{store: store, log: log, pending: map[modelKey][]byte{}, unread: map[modelKey]bool{},
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	go m.run()
	return m
}

// LoadModel reads a model: the one waiting to be written if there is one, else
// the store's, within modelLoadTimeout.
func (m *modelSaver) LoadModel(ctx context.Context, b, opponent string) ([]byte, error) {
	k := modelKey{b, opponent}
	m.mu.Lock()
	data, ok := m.pending[k]
	m.mu.Unlock()
	if ok {
		return data, nil
	}
	ctx, cancel := context.WithTimeout(ctx, modelLoadTimeout)
	defer cancel()
	data, err := m.store.LoadModel(ctx, b, opponent)
	if err != nil && !errors.Is(err, bot.ErrNoModel) {
		m.mu.Lock()
		m.unread[k] = true
		m.mu.Unlock()
	}
	return data, err
}

// SaveModel queues model to be written and returns at once.
func (m *modelSaver) SaveModel(_ context.Context, b, opponent string, model []byte) error {
	k := modelKey{b, opponent}
	m.mu.Lock()
	defer m.mu.Unlock()
	switch _, queued := m.pending[k]; {
	case m.unread[k] || m.closing:
		return nil
	case queued:
	case len(m.order) >= maxPendingModels:
		if !m.dropped {
			m.dropped = true
			m.log.Warn("bot models are saved slower than they change: some saves dropped", "pending", len(m.order))
		}
		return nil
	default:
		m.order = append(m.order, k)
	}
	m.pending[k] = model
	select {
	case m.wake <- struct{}{}:
	default:
	}
	return nil
}

// next takes the oldest model waiting; ok is false when there is none.
func (m *modelSaver) next() (k modelKey, data []byte, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.order) == 0 {
		return k, nil, false
	}
	k, m.order = m.order[0], m.order[1:]
	data = m.pending[k]
	delete(m.pending, k)
	return k, data, true
}

func (m *modelSaver) run() {
	defer close(m.done)
	for {
		k, data, ok := m.next()
		if !ok {
			m.mu.Lock()
			closing := m.closing
			m.mu.Unlock()
			if closing {
				return
			}
			<-m.wake
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), modelSaveTimeout)
		if err := m.store.SaveModel(ctx, k.bot, k.opponent, data); err != nil {
			m.log.Warn("bot model not saved", "bot", k.bot, "opponent", k.opponent, "err", err)
		}
		cancel()
	}
}

// close writes what is queued (within modelFlushTimeout: what is left then is
// dropped) and ends the writer.
func (m *modelSaver) close() {
	m.mu.Lock()
	m.closing = true
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
	select {
	case <-m.done:
	case <-time.After(modelFlushTimeout):
		m.mu.Lock()
		n := len(m.order)
		m.order, m.pending = nil, map[modelKey][]byte{}
		m.mu.Unlock()
		m.log.Warn("bot models not saved: the store is too slow", "dropped", n)
	}
}
