// Package loadtest drives a felt house, on one node or several, with many
// WebSocket clients and measures it: the delay from an action sent to each
// client's receipt of the state that shows it, the hands played, and the
// house's CPU time and memory from its /metrics. It is the load generator of
// internal/web's TestLoad (one node, the house in a process of its own) and
// of tools/loadgen (any number of `felt serve` nodes, e.g. a cluster started
// by tools/cluster.sh). docs/performance.md ("House") and docs/scaling.md
// have the figures.
package loadtest

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Spec is what a run does: Tables tables, each with Seated players (guests who
// act Think after their turn comes: check or call, sometimes a raise) and
// Clients/Tables - Seated anonymous spectators; the delays are measured over
// Duration once everyone is in.
type Spec struct {
	Clients, Tables, Seated int
	Think, Duration         time.Duration
	// DB is the single-node house's database, "sqlite" or "postgres" (from
	// FELT_TEST_POSTGRES); tools/loadgen ignores it (the nodes have theirs).
	DB string
}

// DefaultSpec is the figure docs/performance.md aims at.
func DefaultSpec() Spec {
	return Spec{Clients: 10_000, Tables: 1_000, Seated: 3, Think: time.Second, Duration: time.Minute, DB: "sqlite"}
}

// ParseSpec reads "clients=10000,tables=1000,seated=3,think=1s,duration=60s,db=sqlite";
// a missing key keeps DefaultSpec's value.
func ParseSpec(s string) (Spec, error) {
	l := DefaultSpec()
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue // "1" and the like: the defaults
		}
		var err error
		switch k {
		case "clients":
			l.Clients, err = strconv.Atoi(v)
		case "tables":
			l.Tables, err = strconv.Atoi(v)
		case "seated":
			l.Seated, err = strconv.Atoi(v)
		case "think":
			l.Think, err = time.ParseDuration(v)
		case "duration":
			l.Duration, err = time.ParseDuration(v)
		case "db":
			l.DB = v
		default:
			err = errors.New("unknown key")
		}
		if err != nil {
			return l, fmt.Errorf("load spec %s: %v", kv, err)
		}
	}
	return l, l.Check()
}

// Check reports a spec that cannot run.
func (l Spec) Check() error {
	switch {
	case l.Tables < 1 || l.Seated < 2 || l.Seated > 6 || l.Clients < l.Tables*l.Seated:
		return errors.New("load spec: need tables >= 1, seated 2..6, clients >= tables*seated")
	case l.Think <= 0 || l.Duration <= 0:
		return errors.New("load spec: think and duration must be positive")
	case l.DB != "sqlite" && l.DB != "postgres":
		return fmt.Errorf("load spec: db=%q: sqlite or postgres", l.DB)
	}
	return nil
}

// TableName is the name of the load's table i: L0, L1...
func TableName(i int) string { return "L" + strconv.Itoa(i) }
