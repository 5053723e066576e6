package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// houseProc is a "felt serve" process started by a test.
type houseProc struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:port
}

// startHouse runs the felt binary bin as "felt serve" on a free loopback port
// with data directory dir and waits until it answers.
func startHouse(t *testing.T, bin, dir string, args ...string) *houseProc {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--data", dir}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`open at (http://127\.0\.0\.1:\d+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case a := <-addr:
		return &houseProc{cmd: cmd, base: a}
	case <-time.After(60 * time.Second):
		t.Fatal("felt serve did not open")
	}
	return nil
}

// buildFelt builds the felt command into a temporary directory.
func buildFelt(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "felt")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func getJSON(t *testing.T, c *http.Client, method, url string, body any) map[string]any {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		t.Fatalf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	_ = json.Unmarshal(b, &out)
	return out
}

// TestKillNineLosesNoCredits starts a real house, sits a player at a table,
// kills the process with SIGKILL while the player is in a hand, restarts it on
// the same data directory and checks that every credit came back. It also
// lists the house with "felt houses" from its beacon on loopback.
func TestKillNineLosesNoCredits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the felt binary")
	}
	bin := buildFelt(t)
	dir := t.TempDir()
	// A free loopback UDP port for the beacon: the only address beacons go to.
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	beacons := pc.LocalAddr().String()
	pc.Close()
	cfg := filepath.Join(dir, "house.toml")
	if err := os.WriteFile(cfg, []byte(`name = "Crash Club"
announce = "`+beacons+`"
[[tables]]
name = "Main"
variant = "nlhe"
seats = 3
small_blind = 10
big_blind = 20
min_buy_in = 400
max_buy_in = 2000
action_seconds = 60
bots = ["call", "random"]
`), 0o600); err != nil {
		t.Fatal(err)
	}
	h := startHouse(t, bin, dir, "--config", cfg)

	out, err := exec.Command(bin, "houses", "--listen", beacons, "--wait", "1500ms", "--json").Output()
	if err != nil {
		t.Fatalf("felt houses: %v", err)
	}
	var heard []struct {
		Name   string `json:"name"`
		URL    string `json:"url"`
		Tables int    `json:"tables"`
	}
	if err := json.Unmarshal(out, &heard); err != nil || len(heard) != 1 || heard[0].Name != "Crash Club" || heard[0].URL != h.base || heard[0].Tables != 1 {
		t.Fatalf("felt houses: %s (%v)", out, err)
	}

	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	me := getJSON(t, c, "POST", h.base+"/api/register", map[string]any{"username": "survivor", "password": "correct horse", "adult": true})
	start := me["credits"].(float64)

	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(h.base, "http")+"/ws", &websocket.DialOptions{HTTPClient: c})
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(1 << 22)
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"sit","table":"Main","buy_in":2000,"id":1}`)); err != nil {
		t.Fatal(err)
	}
	// Wait until the player is in a hand in play (the clock gives a minute to act).
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatal("no hand dealt to the player:", err)
		}
		var m struct {
			Type  string `json:"type"`
			Error any    `json:"error"`
			State *struct {
				You  *struct{ Seat int } `json:"you"`
				Hand *struct {
					Over bool `json:"over"`
				} `json:"hand"`
				Seats []struct {
					InHand bool `json:"in_hand"`
				} `json:"seats"`
			} `json:"state"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type == "error" {
			t.Fatalf("sit: %s", b)
		}
		if s := m.State; m.Type == "state" && s.You != nil && s.Hand != nil && !s.Hand.Over && s.Seats[s.You.Seat].InHand {
			break
		}
	}
	if me := getJSON(t, c, "GET", h.base+"/api/me", nil); me["credits"].(float64) != start-2000 {
		t.Fatalf("credits during the hand: %v", me)
	}
	if err := h.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = h.cmd.Wait()
	ws.CloseNow()

	h = startHouse(t, bin, dir, "--config", cfg, "--announce", "off")
	me = getJSON(t, c, "GET", h.base+"/api/me", nil) // the session survived in the database
	p := getJSON(t, c, "GET", h.base+"/api/players/survivor", nil)
	if got, want := me["credits"].(float64), start+p["net_won"].(float64); got != want {
		t.Fatalf("after kill -9 and a restart: %v credits, want %v (start %v + net won in hands finished %v)", got, want, start, p["net_won"])
	}
	if tables, _ := me["tables"].([]any); len(tables) != 0 {
		t.Fatalf("still seated after the restart: %v", me)
	}
}
