package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// casTries bounds a compare-and-set's attempts: each lost attempt means
// another node wrote the key meanwhile.
const casTries = 16

// compareAndSet writes kv's key with what change makes of its value (nil: no
// entry), by a compare-and-set on the entry's revision, reading it again each
// time another node wrote first; a value change leaves as it was is not
// written. An error of change is returned as it is.
func compareAndSet(ctx context.Context, kv jetstream.KeyValue, key string, change func(v []byte) ([]byte, error)) error {
	for range casTries {
		var v []byte
		var rev uint64
		e, err := kv.Get(ctx, key)
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound):
		case err != nil:
			return fmt.Errorf("cluster: read %s %s: %w", kv.Bucket(), key, err)
		default:
			v, rev = e.Value(), e.Revision()
		}
		nv, err := change(v)
		if err != nil {
			return err
		}
		if rev != 0 && bytes.Equal(nv, v) {
			return nil
		}
		if rev == 0 {
			_, err = kv.Create(ctx, key, nv)
		} else {
			_, err = kv.Update(ctx, key, nv, rev)
		}
		switch {
		case err == nil:
			return nil
		case errors.Is(err, jetstream.ErrKeyExists) || wrongLastSequence(err):
			continue // another node wrote first: read again
		default:
			return fmt.Errorf("cluster: write %s %s: %w", kv.Bucket(), key, err)
		}
	}
	return fmt.Errorf("cluster: %s %s: written by others %d times in a row", kv.Bucket(), key, casTries)
}
