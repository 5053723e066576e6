package lobby

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/table"
)

// bank is a table.Bank that moves no money.
type bank struct{}

func (bank) BuyIn(_ context.Context, _ int64, _ string, amount int64) (int64, error) {
	return amount, nil
}
func (bank) CashOut(_ context.Context, _ int64, _ string, amount int64) (int64, error) {
	return amount, nil
}
func (bank) RecordHand(context.Context, store.Hand) (int64, error) { return 0, nil }

// slowModels is a bot.ModelStore whose loads wait until release is closed.
type slowModels struct{ entered, release chan struct{} }

func (m slowModels) LoadModel(context.Context, string, string) ([]byte, error) {
	select {
	case m.entered <- struct{}{}:
	default:
	}
	<-m.release
	return nil, bot.ErrNoModel
}
func (m slowModels) SaveModel(context.Context, string, string, []byte) error { return nil }

func config(name string, models bot.ModelStore) table.Config {
	return table.Config{Name: name, Variant: table.NoLimit, Seats: 6, SmallBlind: 1, BigBlind: 2, MinBuyIn: 40, MaxBuyIn: 200,
		ActionTime: 10 * time.Second, Bots: []string{"adaptive"}, BotModels: models, Bank: bank{}}
}

// A table whose bots are slow to make (a model loaded from a slow database)
// does not hold the lobby: other tables open, the listing answers, and the
// name stays reserved until the slow table is in.
func TestOpenOutsideTheLock(t *testing.T) {
	l := New(nil, nil)
	t.Cleanup(func() { l.Shutdown(context.Background()) })
	m := slowModels{entered: make(chan struct{}, 1), release: make(chan struct{})}
	opened := make(chan error, 1)
	go func() { _, err := l.Open(config("Slow", m)); opened <- err }()
	<-m.entered
	answered := make(chan error, 1)
	go func() {
		l.Tables()
		_, err := l.Open(config("Fast", nil))
		if err == nil {
			_, err = l.Open(config("slow", nil))
			if !errors.Is(err, ErrNameTaken) {
				err = errors.New("the name being opened was not reserved")
			} else {
				err = nil
			}
		}
		answered <- err
	}()
	select {
	case err := <-answered:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		close(m.release)
		t.Fatal("the lobby waited for a slow table")
	}
	close(m.release)
	if err := <-opened; err != nil {
		t.Fatal(err)
	}
	if _, err := l.Table("SLOW"); err != nil {
		t.Fatal(err)
	}
}

// A player's tables are bounded; the house's are not, and a closed table frees
// its place.
func TestOpenByBounded(t *testing.T) {
	l := New(nil, nil)
	t.Cleanup(func() { l.Shutdown(context.Background()) })
	if _, err := l.OpenBy(context.Background(), 7, 1, config("A", nil)); err != nil {
		t.Fatal(err)
	}
	if _, err := l.OpenBy(context.Background(), 7, 1, config("B", nil)); !errors.Is(err, ErrTooManyTables) {
		t.Fatalf("second table: %v", err)
	}
	if _, err := l.OpenBy(context.Background(), 8, 1, config("B", nil)); err != nil {
		t.Fatal(err)
	}
	a, _ := l.Table("A")
	if err := a.Close(context.Background(), "test"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := l.OpenBy(context.Background(), 7, 1, config("C", nil))
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a closed table still counts:", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A table another node hands over (or loses) stays listed while this node
// takes it over: the former node's listing going away while the table is
// being opened here, or open but not yet reported, leaves the listing until
// the table's own replaces it.
func TestMovingTableStaysListed(t *testing.T) {
	l := New(nil, nil)
	t.Cleanup(func() { l.Shutdown(context.Background()) })
	listed := func() bool {
		for _, in := range l.Tables() {
			if in.Name == "Moved" {
				return true
			}
		}
		return false
	}
	l.SetRemote(table.Info{Name: "Moved", Seats: 6})
	m := slowModels{entered: make(chan struct{}, 1), release: make(chan struct{})}
	opened := make(chan error, 1)
	go func() { _, err := l.Open(config("Moved", m)); opened <- err }()
	<-m.entered
	l.RemoveRemote("Moved") // the former node's listing is deleted
	if !listed() {
		t.Fatal("a table being taken over here left the lobby")
	}
	if n := l.Seated(); n != 0 {
		t.Errorf("%d seats counted here from the former node's listing", n)
	}
	close(m.release)
	if err := <-opened; err != nil {
		t.Fatal(err)
	}
	if !listed() {
		t.Fatal("a table open here left the lobby")
	}
	if _, err := l.Table("Moved"); err != nil {
		t.Fatal(err)
	}
}
