package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/felt-poker/felt/internal/web"
	"github.com/felt-poker/felt/protocol"
)

// Players' new tables are spread over the house's nodes (web.TablePlacer):
// a request to open one goes to the live node that runs the fewest tables,
// when the node it reached runs at least placeMargin more, and that node
// opens it (ServePlacement, with the web's PlacedHandler); the player plays
// it from their node through the relay. A node's load is the number of tables
// it lists in the house's lobby (its own: the tables it owns), plus those
// placed there and not listed yet; the live nodes are those with an entry of
// players online. The request goes as the player sent it
// (protocol.TournamentRequest, on "<prefix>.node.<node>.place").

// placeMargin is how many more tables than the least loaded live node a node
// runs before it places a player's new table there: a table opened where its
// creator's request arrived spares them the relay, and a house whose nodes
// differ by one table is even.
const placeMargin = 2

var _ web.TablePlacer = (*Tables)(nil)

// load is what a node knows of the other nodes' tables.
type load struct {
	mu     sync.Mutex
	live   map[string]string // online entry's key -> the node's name
	listed map[string]string // table key -> the node that lists it
	// pending holds, for each node, when each table placed there and not
	// listed yet was placed, oldest first. A placement counts for
	// pendingLife at most: an answer that never came (a timeout) or a
	// table that closed before its listing leaves no load behind.
	pending     map[string][]time.Time
	pendingLife time.Duration
}

// newLoad returns an empty load whose placements count for pendingLife at
// most (a table's listing is written within a third of it).
func newLoad(pendingLife time.Duration) load {
	return load{live: map[string]string{}, listed: map[string]string{}, pending: map[string][]time.Time{}, pendingLife: pendingLife}
}

// list notes that node lists the table of key.
func (ld *load) list(key, node string) {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	if p := ld.pending[node]; ld.listed[key] != node && len(p) > 0 {
		ld.pending[node] = p[1:]
	}
	ld.listed[key] = node
}

// unlist notes that the table of key is listed no more.
func (ld *load) unlist(key string) {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	delete(ld.listed, key)
}

// least returns the live node other than self with the fewest tables (by
// name among equals) and its count, or "" when no other node is live.
func (ld *load) least(self string) (string, int) {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	count := map[string]int{}
	for _, node := range ld.live {
		if node != self {
			count[node] = len(ld.pendingLocked(node, time.Now()))
		}
	}
	for _, node := range ld.listed {
		if _, ok := count[node]; ok {
			count[node]++
		}
	}
	best, fewest := "", 0
	for node, n := range count {
		if best == "" || n < fewest || n == fewest && node < best {
			best, fewest = node, n
		}
	}
	return best, fewest
}

// placed counts a table placed on node at now, until node lists it or for
// pendingLife at most.
func (ld *load) placed(node string, now time.Time) {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	ld.pending[node] = append(ld.pendingLocked(node, now), now)
}

// unplaced takes back the newest table counted as placed on node: it did
// not open there (refused, or declined).
func (ld *load) unplaced(node string) {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	if p := ld.pending[node]; len(p) > 0 {
		ld.pending[node] = p[:len(p)-1]
	}
}

// pendingLocked drops node's placements older than pendingLife at now and
// returns those left. ld.mu is held.
func (ld *load) pendingLocked(node string, now time.Time) []time.Time {
	p := ld.pending[node]
	i := 0
	for i < len(p) && now.Sub(p[i]) >= ld.pendingLife {
		i++
	}
	if i == len(p) {
		delete(ld.pending, node)
		return nil
	}
	ld.pending[node] = p[i:]
	return p[i:]
}

// watchNodes keeps the set of live nodes (their entries of players online)
// until ctx is done.
func (ts *Tables) watchNodes(ctx context.Context) {
	for ctx.Err() == nil {
		err := ts.cfg.Cluster.WatchOnline(ctx, func(key string, v []byte) {
			var m protocol.NodeOnline
			if json.Unmarshal(v, &m) == nil && m.Node != "" {
				ts.load.mu.Lock()
				ts.load.live[key] = m.Node
				ts.load.mu.Unlock()
			}
		}, func(key string) {
			ts.load.mu.Lock()
			delete(ts.load.live, key)
			ts.load.mu.Unlock()
		})
		again(ctx, ts.cfg.Log, ts.cfg.Cluster.LeaseTTL(), "the house's nodes are not known: players' tables open where asked", err)
	}
}

// placeOn returns the node where a player's new table opens: another live
// node that runs at least placeMargin fewer tables than this one, or "" for
// this one.
func (ts *Tables) placeOn() string {
	node, n := ts.load.least(ts.cfg.Cluster.Name())
	if node == "" || len(ts.ownedTables())-n < placeMargin {
		return ""
	}
	return node
}

func (ts *Tables) placeSubject(node string) string {
	return ts.cfg.Cluster.Subject("node", node, "place")
}

// Place answers r, a request to open a player's table, from the node placeOn
// chooses (web.TablePlacer). A node that does not answer (gone, leaving)
// leaves the table to this node; one whose answer does not come in time is
// an error (it may have opened the table: the player tries again).
func (ts *Tables) Place(w http.ResponseWriter, r *http.Request, body []byte) (bool, error) {
	node := ts.placeOn()
	if node == "" {
		return false, nil
	}
	ts.load.placed(node, time.Now()) // before its listing can come
	rep, err := forwardHTTP(r.Context(), ts.cfg.Cluster.Conn(), ts.placeSubject(node), r, body)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) {
		return false, fmt.Errorf("a table placed on node %s: %w", node, context.DeadlineExceeded)
	}
	if err != nil || rep.Status/100 != 2 {
		// Refused there (a name taken, settings out of bounds, the player
		// at their bound), declined or not reached: no table opened there,
		// so none counts.
		ts.load.unplaced(node)
	}
	if err != nil || rep.Status == 0 {
		ts.cfg.Log.Warn("a player's table not placed on another node: it opens here", "node", node, "err", err)
		return false, nil
	}
	writeForwarded(w, rep)
	return true, nil
}

// ServePlacement opens with h (web.Server.PlacedHandler) the players' tables
// other nodes place here, until ctx is done. A node leaving the house
// declines them (status 0): they open where they were asked.
func (ts *Tables) ServePlacement(ctx context.Context, h http.Handler) error {
	sub, err := ts.cfg.Cluster.Conn().Subscribe(ts.placeSubject(ts.cfg.Cluster.Name()), func(m *nats.Msg) { go ts.answerPlace(m, h) })
	if err != nil {
		return fmt.Errorf("placement: %w", err)
	}
	go func() {
		<-ctx.Done()
		_ = sub.Unsubscribe()
	}()
	return nil
}

// answerPlace opens the table of one placed request with h, unless this
// node is leaving the house.
func (ts *Tables) answerPlace(m *nats.Msg, h http.Handler) {
	ts.mu.Lock()
	if ts.leaving {
		h = nil
	}
	ts.mu.Unlock()
	if err := answerForwarded(m, h); err != nil {
		ts.cfg.Log.Warn("a placed table's request not answered", "err", err)
	}
}
