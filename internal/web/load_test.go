package web

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	pprofhttp "net/http/pprof"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/loadtest"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

// The load test of one node: a house in a process of its own (this test
// binary run again as TestLoadServer) and the load generator
// (internal/loadtest) in this one, so that each process stays under its own
// limit of open files and the house's CPU time is its own. It is off unless
// FELT_LOADTEST is set, e.g.
//
//	FELT_LOADTEST=clients=10000,tables=1000,seated=3,think=1s,duration=60s,db=sqlite \
//	  go test -run TestLoad$ -v -timeout 30m ./internal/web
//
// db=postgres puts the house in a fresh schema of FELT_TEST_POSTGRES's
// database. FELT_LOADTEST_CPUPROFILE=FILE writes a CPU profile of the house
// process; FELT_LOADTEST_PPROF=1 serves /debug/pprof/ on it, with the mutex
// and block profiles on. The house's Go runtime figures (GC pauses,
// scheduling latencies) over the measurement are reported too. Several
// nodes: tools/loadgen. docs/performance.md, "House", has the figures.

// TestLoadServer is the house of the load test; it runs only as the child
// process TestLoad starts, and serves until its standard input closes.
func TestLoadServer(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FELT_LOADTEST_SERVE"))
	if n == 0 {
		t.Skip("the house of TestLoad, run by it")
	}
	if path := os.Getenv("FELT_LOADTEST_CPUPROFILE"); path != "" {
		stop := cpuProfile(t, path)
		defer stop()
	}
	var st store.Store
	if os.Getenv("FELT_LOADTEST_DB") == "postgres" {
		st = storetest.Postgres(t)
	} else {
		st = storetest.SQLite(t)
	}
	srv := loadHouse(t, st, n)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/debug/loadstats", loadtest.RuntimeHandler())
	if os.Getenv("FELT_LOADTEST_PPROF") != "" {
		runtime.SetMutexProfileFraction(100)
		runtime.SetBlockProfileRate(int(time.Millisecond))
		mux.HandleFunc("/debug/pprof/", pprofhttp.Index)
		mux.HandleFunc("/debug/pprof/profile", pprofhttp.Profile)
	}
	mux.Handle("/", srv.Handler())
	hs := &http.Server{Handler: mux}
	go hs.Serve(ln)
	srv.SetReady()
	fmt.Printf("ADDR %s\n", ln.Addr())
	_, _ = io.Copy(io.Discard, os.Stdin)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = srv.Shutdown(ctx)
	_ = hs.Shutdown(ctx)
}

// cpuProfile starts a CPU profile written to path; the function returned stops it.
func cpuProfile(t *testing.T, path string) func() {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		t.Fatal(err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}

// loadHouse is the house of the load test on st, with n tables of 6 seats
// (loadtest.TableName), no-limit 10/20.
func loadHouse(t *testing.T, st store.Store, n int) *Server {
	hc := house.DefaultConfig()
	hc.GuestCredits = 100_000_000   // rebuys for the whole run
	hc.Limits.Guests = house.Rate{} // every client is a guest from 127.0.0.1
	h, err := house.New(st, hc)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{House: h, Log: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := srv.Lobby().Open(srv.TableDefaults(table.Config{Name: loadtest.TableName(i), Variant: table.NoLimit, Seats: 6,
			SmallBlind: 10, BigBlind: 20, MinBuyIn: 400, MaxBuyIn: 2000, ActionTime: 60 * time.Second, Permanent: true})); err != nil {
			t.Fatal(err)
		}
	}
	return srv
}

func TestLoad(t *testing.T) {
	specText := os.Getenv("FELT_LOADTEST")
	if specText == "" {
		t.Skip("set FELT_LOADTEST (e.g. clients=10000,tables=1000) to run the load test")
	}
	spec, err := loadtest.ParseSpec(specText)
	if err != nil {
		t.Fatal(err)
	}
	base := startLoadHouse(t, spec)
	t.Logf("house at %s with %d tables, %s", base, spec.Tables, spec.DB)
	res, err := loadtest.Run(context.Background(), loadtest.Config{Spec: spec, Nodes: []string{base},
		Runtime: base + "/debug/loadstats", Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	res.Report(&b)
	t.Log("\n" + b.String())
}

// startLoadHouse runs TestLoadServer in a child process and returns its base URL.
func startLoadHouse(t *testing.T, spec loadtest.Spec) string {
	server := exec.Command(os.Args[0], "-test.run=^TestLoadServer$", "-test.v")
	server.Env = append(os.Environ(), "FELT_LOADTEST_SERVE="+strconv.Itoa(spec.Tables), "FELT_LOADTEST_DB="+spec.DB, "FELT_LOADTEST=")
	server.Stderr = os.Stderr
	stdin, _ := server.StdinPipe()
	stdout, _ := server.StdoutPipe()
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = server.Wait() })
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if a, ok := strings.CutPrefix(sc.Text(), "ADDR "); ok {
			go io.Copy(io.Discard, stdout)
			return "http://" + a
		}
	}
	t.Fatal("the house did not start")
	return ""
}
