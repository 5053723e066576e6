// Command loadgen is felt's load generator in a process of its own, against
// any number of running `felt serve` nodes (one house: a cluster started by
// tools/cluster.sh, or a single node):
//
//	go run ./tools/loadgen -nodes http://127.0.0.1:8081,http://127.0.0.1:8082 \
//	  -spec clients=6000,tables=600,seated=3,think=1s,duration=30s \
//	  [-kill-pid PID -kill-tables 0-199]
//
// The house must run the tables L0, L1... (tools/cluster.sh writes them) with
// guests allowed from one address. Client i watches or plays at table i mod
// tables and connects to node (table + i/tables) mod nodes, so that with n
// nodes n-1 in n of each table's clients are on a node other than the one
// running it. -kill-pid kills that node (SIGKILL) after the measurement and
// reports how long the tables it ran (-kill-tables, indexes) took to go on
// elsewhere. -nats-mon and -pg add nats-server's messages and the rows
// PostgreSQL wrote over the measurement. It prints the RESULT lines of
// internal/loadtest.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/felt-poker/felt/internal/loadtest"
)

func main() {
	nodes := flag.String("nodes", "http://127.0.0.1:8081", "the house's nodes, comma-separated base URLs")
	specText := flag.String("spec", "clients=6000,tables=600,seated=3,think=1s,duration=30s", "the load (internal/loadtest.ParseSpec)")
	killPID := flag.Int("kill-pid", 0, "a node's process to kill with SIGKILL after the measurement")
	killTables := flag.String("kill-tables", "", "the indexes of the tables that node runs: lo-hi (inclusive) or a list")
	wait := flag.Duration("kill-wait", time.Minute, "how long to wait for the killed node's tables to go on")
	natsMon := flag.String("nats-mon", "", "nats-server's monitoring URL: its messages over the measurement")
	pgDSN := flag.String("pg", "", "the house's PostgreSQL URL, with -pg-schema: the rows written over the measurement")
	pgSchema := flag.String("pg-schema", "", "the house's PostgreSQL schema")
	flag.Parse()
	log.SetFlags(log.LstdFlags | log.Lmicroseconds) // the kill's time, to set beside the nodes' logs
	spec, err := loadtest.ParseSpec(*specText)
	if err != nil {
		log.Fatal(err)
	}
	cfg := loadtest.Config{Spec: spec, Nodes: strings.Split(*nodes, ","), Logf: func(f string, a ...any) { log.Printf(f, a...) }}
	var probes []func(map[string]float64)
	if *natsMon != "" {
		probes = append(probes, natsProbe(*natsMon))
	}
	if *pgDSN != "" {
		probes = append(probes, pgProbe(*pgDSN, *pgSchema))
	}
	cfg.Probe = func() map[string]float64 {
		m := map[string]float64{}
		for _, p := range probes {
			p(m)
		}
		return m
	}
	if *killPID != 0 {
		tables, err := parseIndexes(*killTables)
		if err != nil {
			log.Fatal(err)
		}
		cfg.Kill = &loadtest.Kill{PID: *killPID, Tables: tables, Wait: *wait}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := loadtest.Run(ctx, cfg)
	if err != nil {
		log.Fatal(err)
	}
	res.Report(os.Stdout)
}

// parseIndexes reads "0-199" or "3,5,8".
func parseIndexes(s string) ([]int, error) {
	if lo, hi, ok := strings.Cut(s, "-"); ok {
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || a > b {
			return nil, fmt.Errorf("-kill-tables %q: want lo-hi", s)
		}
		out := make([]int, 0, b-a+1)
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
		return out, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		i, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("-kill-tables %q: %v", s, err)
		}
		out = append(out, i)
	}
	return out, nil
}
