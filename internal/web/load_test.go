package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	pprofhttp "net/http/pprof"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
)

// The load test: a house in a process of its own (this test binary run again as
// TestLoadServer) and bots over real WebSocket connections on loopback in this
// one, each process under its own limit of open files. It is off unless
// FELT_LOADTEST is set, e.g.
//
//	FELT_LOADTEST=clients=10000,tables=1000,seated=3,think=1s,duration=60s \
//	  go test -run TestLoad$ -v -timeout 30m ./internal/web
//
// FELT_LOADTEST_CPUPROFILE=FILE writes a CPU profile of the house process.
//
// Each table has `seated` players (guests, who act `think` after their turn
// comes: check or call, sometimes a raise) and clients/tables - seated anonymous
// spectators. It reports the clients connected, the tables live, the hands
// played and the delay from an action sent to each client's receipt of the state
// showing it (p50, p99, max), measured over `duration` after everyone is in.
// docs/performance.md, "House", has the figures.

type loadSpec struct {
	clients, tables, seated int
	think, duration         time.Duration
}

func parseLoadSpec(s string) (loadSpec, error) {
	l := loadSpec{clients: 10_000, tables: 1_000, seated: 3, think: time.Second, duration: time.Minute}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue // "1" and the like: the defaults
		}
		var err error
		switch k {
		case "clients":
			l.clients, err = strconv.Atoi(v)
		case "tables":
			l.tables, err = strconv.Atoi(v)
		case "seated":
			l.seated, err = strconv.Atoi(v)
		case "think":
			l.think, err = time.ParseDuration(v)
		case "duration":
			l.duration, err = time.ParseDuration(v)
		default:
			err = fmt.Errorf("unknown key")
		}
		if err != nil {
			return l, fmt.Errorf("FELT_LOADTEST %s: %v", kv, err)
		}
	}
	if l.tables < 1 || l.seated < 2 || l.seated > 10 || l.clients < l.tables*l.seated {
		return l, fmt.Errorf("FELT_LOADTEST: need tables >= 1, seated 2..10, clients >= tables*seated")
	}
	return l, nil
}

// TestLoadServer is the house of the load test; it runs only as the child
// process TestLoad starts, and serves until its standard input closes.
func TestLoadServer(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FELT_LOADTEST_SERVE"))
	if n == 0 {
		t.Skip("the house of TestLoad, run by it")
	}
	if path := os.Getenv("FELT_LOADTEST_CPUPROFILE"); path != "" {
		// A CPU profile of the house under load, written when it stops.
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			t.Fatal(err)
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	st := storetest.SQLite(t)
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
		if _, err := srv.Lobby().Open(srv.TableDefaults(table.Config{Name: fmt.Sprintf("L%d", i), Variant: table.NoLimit, Seats: 6,
			SmallBlind: 10, BigBlind: 20, MinBuyIn: 400, MaxBuyIn: 2000, ActionTime: 60 * time.Second, Permanent: true})); err != nil {
			t.Fatal(err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	handler := srv.Handler()
	if os.Getenv("FELT_LOADTEST_PPROF") != "" {
		// /debug/pprof/ on the house's address, for a look while it runs.
		mux := http.NewServeMux()
		mux.HandleFunc("/debug/pprof/", pprofhttp.Index)
		mux.Handle("/", handler)
		handler = mux
	}
	hs := &http.Server{Handler: handler}
	go hs.Serve(ln)
	srv.SetReady()
	fmt.Printf("ADDR %s\n", ln.Addr())
	_, _ = io.Copy(io.Discard, os.Stdin)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = srv.Shutdown(ctx)
	_ = hs.Shutdown(ctx)
}

// latencies is a histogram of delays in 100-µs buckets up to 10 s.
type latencies struct {
	buckets [100_000]atomic.Int64
	n       atomic.Int64
	max     atomic.Int64
}

func (l *latencies) add(d time.Duration) {
	i := min(int(d/(100*time.Microsecond)), len(l.buckets)-1)
	l.buckets[i].Add(1)
	l.n.Add(1)
	for m := l.max.Load(); int64(d) > m && !l.max.CompareAndSwap(m, int64(d)); m = l.max.Load() {
	}
}

func (l *latencies) quantile(q float64) time.Duration {
	want, seen := int64(q*float64(l.n.Load())), int64(0)
	for i := range l.buckets {
		if seen += l.buckets[i].Load(); seen > want {
			return time.Duration(i+1) * 100 * time.Microsecond
		}
	}
	return time.Duration(l.max.Load())
}

// loadTable is what the clients of one table share: when its last action was sent.
type loadTable struct {
	mu     sync.Mutex
	sentAt time.Time
	hand   int64
	events int // the hand's events before the action
}

// loadState is the part of a state message a load client reads.
type loadState struct {
	Type  string `json:"type"`
	State *struct {
		You  *struct{ Seat int } `json:"you"`
		Hand *struct {
			Number int64             `json:"number"`
			Over   bool              `json:"over"`
			ToAct  int               `json:"to_act"`
			Events []json.RawMessage `json:"events"`
			Legal  *table.LegalInfo  `json:"legal"`
		} `json:"hand"`
	} `json:"state"`
	Code  string `json:"code"`
	Error *struct {
		Code string `json:"code"`
	} `json:"error"`
}

func TestLoad(t *testing.T) {
	specText := os.Getenv("FELT_LOADTEST")
	if specText == "" {
		t.Skip("set FELT_LOADTEST (e.g. clients=10000,tables=1000) to run the load test")
	}
	spec, err := parseLoadSpec(specText)
	if err != nil {
		t.Fatal(err)
	}
	server := exec.Command(os.Args[0], "-test.run=^TestLoadServer$", "-test.v")
	server.Env = append(os.Environ(), "FELT_LOADTEST_SERVE="+strconv.Itoa(spec.tables), "FELT_LOADTEST=")
	server.Stderr = os.Stderr
	stdin, _ := server.StdinPipe()
	stdout, _ := server.StdoutPipe()
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); _ = server.Wait() }()
	var addr string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if a, ok := strings.CutPrefix(sc.Text(), "ADDR "); ok {
			addr = a
			break
		}
	}
	if addr == "" {
		t.Fatal("the house did not start")
	}
	go io.Copy(io.Discard, stdout)
	base := "http://" + addr
	t.Logf("house at %s with %d tables", base, spec.tables)

	var (
		lat       latencies
		actions   atomic.Int64
		connected atomic.Int64
		failures  atomic.Int64
		tables    = make([]*loadTable, spec.tables)
		ctx, stop = context.WithCancel(context.Background())
		wg        sync.WaitGroup
		errMu     sync.Mutex
		errCodes  = map[string]int{} // error replies by code
	)
	defer stop()
	for i := range tables {
		tables[i] = &loadTable{}
	}
	transport := &http.Transport{MaxIdleConnsPerHost: 64}
	client := func(i int) {
		defer wg.Done()
		ti, seated := i%spec.tables, i/spec.tables < spec.seated
		name, lt := fmt.Sprintf("L%d", ti), tables[ti]
		jar, _ := cookiejar.New(nil)
		hc := &http.Client{Jar: jar, Transport: transport, Timeout: 60 * time.Second}
		if seated {
			resp, err := hc.Post(base+"/api/guest", "application/json", nil)
			if err != nil || resp.StatusCode != 201 {
				failures.Add(1)
				return
			}
			resp.Body.Close()
		}
		c, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", &websocket.DialOptions{HTTPClient: hc})
		if err != nil {
			failures.Add(1)
			return
		}
		defer c.CloseNow()
		c.SetReadLimit(1 << 22)
		connected.Add(1)
		send := func(v string) { _ = c.Write(ctx, websocket.MessageText, []byte(v)) }
		if seated {
			send(fmt.Sprintf(`{"type":"sit","table":%q,"buy_in":2000}`, name))
		} else {
			send(fmt.Sprintf(`{"type":"watch","table":%q}`, name))
		}
		var (
			seenHand   int64 = -1
			seenEvents       = -1
			acted      string
			first      = true
		)
		for {
			_, b, err := c.Read(ctx)
			if err != nil {
				return
			}
			now := time.Now()
			var m loadState
			if json.Unmarshal(b, &m) != nil {
				continue
			}
			if m.Type == "error" && m.Error != nil {
				errMu.Lock()
				errCodes[m.Error.Code]++
				errMu.Unlock()
				continue
			}
			if m.Type == "notice" && m.Code == "busted" {
				send(fmt.Sprintf(`{"type":"sit","table":%q,"buy_in":2000}`, name))
				continue
			}
			if m.Type != "state" || m.State.Hand == nil {
				continue
			}
			h := m.State.Hand
			lt.mu.Lock()
			if first {
				// The state a client gets when it starts watching shows the table's
				// last action, however long ago it was sent: not a delay.
				first = false
				seenHand, seenEvents = lt.hand, lt.events
			}
			if !lt.sentAt.IsZero() && h.Number == lt.hand && len(h.Events) > lt.events && (seenHand != lt.hand || seenEvents != lt.events) {
				lat.add(now.Sub(lt.sentAt))
				if d := now.Sub(lt.sentAt); d > 3*time.Second && os.Getenv("FELT_LOADTEST_DEBUG") != "" && seated {
					fmt.Printf("SLOW %s client %d hand %d events %d->%d delay %s last %s\n", name, i, h.Number, lt.events, len(h.Events), d, h.Events[len(h.Events)-1])
				}
				seenHand, seenEvents = lt.hand, lt.events
			}
			lt.mu.Unlock()
			if h.Legal == nil || h.Over {
				continue
			}
			key := fmt.Sprintf("%d/%d", h.Number, len(h.Events))
			if key == acted {
				continue
			}
			acted = key
			action := `"action":"check"`
			switch l := h.Legal; {
			case slices.Contains(l.Actions, "raise") && (h.Number+int64(len(h.Events)))%7 == 0:
				action = fmt.Sprintf(`"action":"raise","amount":%d`, l.MinTo)
			case slices.Contains(l.Actions, "call"):
				action = `"action":"call"`
			case !slices.Contains(l.Actions, "check"):
				action = `"action":"fold"`
			}
			number, events := h.Number, len(h.Events)
			go func() {
				select {
				case <-time.After(spec.think/2 + time.Duration(int64(spec.think)*int64(i%100)/100)):
				case <-ctx.Done():
					return
				}
				lt.mu.Lock()
				lt.sentAt, lt.hand, lt.events = time.Now(), number, events
				lt.mu.Unlock()
				actions.Add(1)
				send(fmt.Sprintf(`{"type":"act","table":%q,%s}`, name, action))
			}()
		}
	}
	start := time.Now()
	for i := range spec.clients {
		// At most 100 dials in flight.
		for int64(i)-connected.Load()-failures.Load() >= 100 {
			time.Sleep(time.Millisecond)
		}
		wg.Add(1)
		go client(i)
	}
	for connected.Load()+failures.Load() < int64(spec.clients) && time.Since(start) < 10*time.Minute {
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("%d clients connected (%d failed) in %s", connected.Load(), failures.Load(), time.Since(start).Round(time.Millisecond))
	time.Sleep(5 * time.Second) // the first hands start
	lat = latencies{}
	hands0, cpu0 := scrape(t, base)
	actions.Store(0)
	measure := time.Now()
	time.Sleep(spec.duration)
	el := time.Since(measure)
	hands1, cpu1 := scrape(t, base)
	open, live := gauge(t, base, "felt_ws_connections"), gauge(t, base, "felt_tables")
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("RESULT clients=%d (server sees %.0f connections) tables=%.0f seated/table=%d think=%s over %s:",
		connected.Load(), open, live, spec.seated, spec.think, el.Round(time.Second))
	t.Logf("RESULT hands=%.0f (%.1f/s) actions=%d (%.0f/s) deliveries=%d (%.0f/s) server CPU %.2f cores",
		hands1-hands0, (hands1-hands0)/el.Seconds(), actions.Load(), float64(actions.Load())/el.Seconds(),
		lat.n.Load(), float64(lat.n.Load())/el.Seconds(), (cpu1-cpu0)/el.Seconds())
	t.Logf("RESULT action -> broadcast delay p50=%s p90=%s p99=%s p99.9=%s max=%s",
		lat.quantile(0.5), lat.quantile(0.9), lat.quantile(0.99), lat.quantile(0.999), time.Duration(lat.max.Load()).Round(time.Millisecond))
	errMu.Lock()
	t.Logf("RESULT error replies (whole run) %v", errCodes)
	errMu.Unlock()
	stop()
	wg.Wait()
}

// scrape returns felt_hands_total and process_cpu_seconds_total of the house.
func scrape(t *testing.T, base string) (hands, cpu float64) {
	return gauge(t, base, "felt_hands_total"), gauge(t, base, "process_cpu_seconds_total")
}

func gauge(t *testing.T, base, name string) float64 {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`(?m)^` + name + ` (\S+)$`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no %s in /metrics", name)
	}
	v, _ := strconv.ParseFloat(string(m[1]), 64)
	return v
}
