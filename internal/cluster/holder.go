package cluster

import (
	"context"
	"sync"
	"time"
)

// leaseWaits are the waiters of AwaitHolder, by lease key: each is woken
// when the keeper's watch of the lease bucket (Run) sees the key written.
type leaseWaits struct {
	mu sync.Mutex
	m  map[string][]chan struct{}
}

// add returns a channel woken when key is written; drop it once done.
func (w *leaseWaits) add(key string) chan struct{} {
	ch := make(chan struct{}, 1)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.m == nil {
		w.m = map[string][]chan struct{}{}
	}
	w.m[key] = append(w.m[key], ch)
	return ch
}

// drop forgets the waiter ch of key.
func (w *leaseWaits) drop(key string, ch chan struct{}) {
	w.mu.Lock()
	defer w.mu.Unlock()
	chs := w.m[key]
	for i, c := range chs {
		if c == ch {
			chs = append(chs[:i], chs[i+1:]...)
			break
		}
	}
	if len(chs) == 0 {
		delete(w.m, key)
	} else {
		w.m[key] = chs
	}
}

// wake wakes the waiters of key.
func (w *leaseWaits) wake(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, ch := range w.m[key] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// AwaitHolder waits until a node other than not holds the lease of table
// (not "": any node) and returns its name, or "" if ctx ends first. The
// keeper's watch of the leases (Run) wakes it as the lease is written; it
// also reads the lease every TTL/4, for a node whose keeper does not run.
func (n *Node) AwaitHolder(ctx context.Context, table, not string) string {
	key := TableKey(table)
	wake := n.leaseWaits.add(key)
	defer n.leaseWaits.drop(key, wake)
	tick := time.NewTicker(n.cfg.LeaseTTL / 4)
	defer tick.Stop()
	for {
		if h, err := n.Holder(ctx, table); err == nil && h != "" && h != not {
			return h
		}
		select {
		case <-ctx.Done():
			return ""
		case <-wake:
		case <-tick.C:
		}
	}
}
