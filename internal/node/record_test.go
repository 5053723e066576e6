package node

import (
	"context"
	"sync"
	"testing"

	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

// dyingLog is a table's log that holds its table at one point, as if its node
// died there: right after the log's end record of the first hand (before the
// table records the hand), or at the start of the second hand (after).
type dyingLog struct {
	table.HandLog
	afterEnd bool
	stopped  chan struct{} // closed when the table reaches the point
	resume   chan struct{} // the table goes on once closed
	once     sync.Once
	hands    int
}

func (d *dyingLog) StartHand(ctx context.Context, hand int64, cfg engine.Config, state any) error {
	if d.hands++; !d.afterEnd && d.hands == 2 {
		d.stop()
	}
	return d.HandLog.StartHand(ctx, hand, cfg, state)
}

func (d *dyingLog) EndHand(ctx context.Context, state any) error {
	err := d.HandLog.EndHand(ctx, state)
	if d.afterEnd && err == nil {
		d.stop()
	}
	return err
}

func (d *dyingLog) stop() {
	d.once.Do(func() {
		close(d.stopped)
		<-d.resume
	})
}

// TestHandEndedNotRecordedIsRecordedOnce loses the node that runs a table
// right after its log's end record of a hand: before the node records the
// hand (the new owner records it from the log), or after (the new owner's
// record is a duplicate and changes nothing). Either way the hand is in the
// player's history once, their stack at the table holds its result once, and
// the lost node, woken after the takeover, records nothing.
func TestHandEndedNotRecordedIsRecordedOnce(t *testing.T) {
	for _, c := range []struct {
		name     string
		afterEnd bool
	}{{"before the record", true}, {"after the record", false}} {
		t.Run(c.name, func(t *testing.T) {
			dsn := storetest.PostgresDSN(t)
			url := natstest.Start(t).ClientURL()
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			d := &dyingLog{afterEnd: c.afterEnd, stopped: make(chan struct{}), resume: make(chan struct{})}
			var resumeOnce sync.Once
			wake := func() { resumeOnce.Do(func() { close(d.resume) }) }
			defer wake()
			a := startNodeWith(t, ctx, dsn, url, "a", nodeOptions{handLog: func(l table.HandLog) table.HandLog { d.HandLog = l; return d }})
			b := startNode(t, ctx, dsn, url, "b")
			alice, start, ta, _ := aliceToAct(t, ctx, a)
			if err := ta.Act(ctx, alice, engine.Fold, 0); err != nil {
				t.Fatal(err)
			}
			select {
			case <-d.stopped:
			case <-ctx.Done():
				t.Fatal("the table never reached the point")
			}
			ref := ta.Ref()
			a.c.Conn().Close() // a is lost there
			waitFor(t, "b takes Main over", func() bool { _, err := b.lobby.Table("Main"); return err == nil })

			check := func(when string) {
				t.Helper()
				hands, err := b.h.HandsOf(ctx, alice.ID, alice.ID, 10)
				if err != nil {
					t.Fatal(err)
				}
				tot, err := b.h.Totals(ctx, alice.ID)
				if err != nil {
					t.Fatal(err)
				}
				stacks, err := b.h.TableStacks(ctx, ref)
				if err != nil {
					t.Fatal(err)
				}
				credits, _ := b.h.Credits(ctx, alice.ID)
				if len(hands) != 1 || tot.HandsPlayed != 1 || tot.NetWon == 0 || stacks[alice.ID] != 1000+tot.NetWon || credits != start-1000 {
					t.Fatalf("%s: %d hands stored, %d played, net %d, stack at the table %d, credits %d; want the hand once, the stack 1000%+d, credits %d",
						when, len(hands), tot.HandsPlayed, tot.NetWon, stacks[alice.ID], credits, tot.NetWon, start-1000)
				}
			}
			check("after the takeover")
			wake() // the lost node goes on: its record (if it had not) is fenced
			select {
			case <-ta.Done():
			case <-ctx.Done():
				t.Fatal("a's table runs on")
			}
			check("after the lost node woke")
		})
	}
}
