package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestServe starts the house on a free port with a fresh data directory, checks
// that it is ready with its default tables, and shuts it down.
func TestServe(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	c := serveCmd{Addr: "127.0.0.1:0", Data: dir, Announce: "off"}
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- c.run(ctx, slog.New(slog.DiscardHandler), func(a string) { addr <- a }) }()
	var base string
	select {
	case a := <-addr:
		base = a
	case err := <-done:
		t.Fatal(err)
	case <-time.After(20 * time.Second):
		t.Fatal("the house did not open")
	}
	resp, err := http.Get(base + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatal("healthz:", err, resp)
	}
	resp.Body.Close()
	// Each table lists itself from its own goroutine once it runs, so the lobby
	// may show the default tables a moment after the house answers: wait for them.
	want := len(defaultHouseConfig().Tables)
	var b []byte
	for deadline := time.Now().Add(20 * time.Second); ; {
		resp, err := http.Get(base + "/api/tables")
		if err != nil {
			t.Fatal(err)
		}
		b, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		var ts struct {
			Tables []struct {
				Name  string `json:"name"`
				Taken int    `json:"taken"`
			} `json:"tables"`
		}
		if err := json.Unmarshal(b, &ts); err != nil {
			t.Fatalf("tables: %v: %s", err, b)
		}
		ready := len(ts.Tables) == want
		for _, tb := range ts.Tables {
			ready = ready && tb.Taken >= 2
		}
		if ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("want %d tables with two bots each, got %s", want, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "felt.db")); err != nil {
		t.Fatal("no database in the data directory:", err)
	}
}

// startServe runs c in this process and returns the house's URL; the house
// stops when the test ends.
func startServe(t *testing.T, c serveCmd) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	url := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- c.run(ctx, slog.New(slog.DiscardHandler), func(u string) { url <- u }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the house stopped with: %v", err)
		}
	})
	select {
	case u := <-url:
		return u
	case err := <-done:
		done <- nil
		t.Fatal(err)
	case <-time.After(30 * time.Second):
		t.Fatal("the house did not open")
	}
	return ""
}

// TestServeTwiceRefuses starts a second "felt serve" on the data directory of a
// running one while a player has chips at a table, once on the same port and
// once on another: both refuse to start, and the player's credits do not move
// (issue 12: the second start recovered the live tables' stacks, then failed
// to bind the port, and the running house paid them again).
func TestServeTwiceRefuses(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "house.toml")
	if err := os.WriteFile(cfg, []byte(`[[tables]]
name = "Main"
variant = "nlhe"
seats = 3
small_blind = 10
big_blind = 20
min_buy_in = 400
max_buy_in = 2000
action_seconds = 60
bots = ["call", "call"]
`), 0o600); err != nil {
		t.Fatal(err)
	}
	first := serveCmd{Addr: "127.0.0.1:0", Data: dir, Config: cfg, Announce: "off"}
	base := startServe(t, first)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	me := getJSON(t, c, "POST", base+"/api/register", map[string]any{"username": "sitter", "password": "correct horse", "adult": true})
	start := me["credits"].(float64)

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws", &websocket.DialOptions{HTTPClient: c})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"sit","table":"Main","buy_in":2000,"id":1}`)); err != nil {
		t.Fatal(err)
	}
	go func() { // read, so that the house does not drop a slow client
		for {
			if _, _, err := ws.Read(ctx); err != nil {
				return
			}
		}
	}()
	credits := func() float64 { return getJSON(t, c, "GET", base+"/api/me", nil)["credits"].(float64) }
	for credits() != start-2000 {
		if ctx.Err() != nil {
			t.Fatal("the player did not sit down")
		}
		time.Sleep(20 * time.Millisecond)
	}

	sameAddr := strings.TrimPrefix(base, "http://")
	for _, addr := range []string{sameAddr, "127.0.0.1:0"} {
		second := serveCmd{Addr: addr, Data: dir, Config: cfg, Announce: "off"}
		sctx, stop := context.WithCancel(context.Background())
		err := second.run(sctx, slog.New(slog.DiscardHandler), func(string) {
			stop()
			t.Errorf("a second house opened on %s beside the first", addr)
		})
		stop()
		if err == nil {
			t.Errorf("second serve on %s: no error", addr)
		} else if addr != sameAddr && !strings.Contains(err.Error(), "another felt house is using this database") {
			t.Errorf("second serve on %s: %v, want \"another felt house is using this database\"", addr, err)
		}
		if got := credits(); got != start-2000 {
			t.Fatalf("after a second serve on %s: %v credits, want %v: the second house paid out the table's stacks", addr, got, start-2000)
		}
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key to dir and returns
// their paths and a pool trusting the certificate.
func selfSigned(t *testing.T, dir string) (cert, key string, pool *x509.CertPool) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "felt test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	c, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(c)
	return cert, key, pool
}

// TestServeTLS serves HTTPS with --tls-cert and --tls-key: the session cookie is
// Secure and responses carry HSTS. One of the two flags alone is refused.
func TestServeTLS(t *testing.T) {
	dir := t.TempDir()
	cert, key, pool := selfSigned(t, dir)
	if _, err := (&serveCmd{TLSCert: cert}).tlsConfig(); err == nil {
		t.Fatal("--tls-cert without --tls-key accepted")
	}
	base := startServe(t, serveCmd{Addr: "127.0.0.1:0", Data: dir, NoBots: true, Announce: "off", TLSCert: cert, TLSKey: key})
	if !strings.HasPrefix(base, "https://") {
		t.Fatalf("the house says it is open at %s", base)
	}
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := c.Post(base+"/api/guest", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if cs := resp.Cookies(); resp.StatusCode != 201 || len(cs) != 1 || !cs[0].Secure {
		t.Fatalf("guest over HTTPS: %d, cookies %v, want one Secure cookie", resp.StatusCode, cs)
	}
	if resp.Header.Get("Strict-Transport-Security") == "" {
		t.Fatal("no HSTS over HTTPS")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "wss"+strings.TrimPrefix(base, "https")+"/ws", &websocket.DialOptions{HTTPClient: c})
	if err != nil {
		t.Fatalf("WebSocket over TLS: %v", err)
	}
	defer ws.CloseNow()
	if _, b, err := ws.Read(ctx); err != nil || !strings.Contains(string(b), "welcome") {
		t.Fatalf("WebSocket over TLS: %s %v", b, err)
	}
}

func TestParseTrustedProxies(t *testing.T) {
	got, err := parseTrustedProxies([]string{"10.0.0.0/8", "192.0.2.7", "2001:db8::/32", "::ffff:198.51.100.1"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"10.0.0.0/8", "192.0.2.7/32", "2001:db8::/32", "198.51.100.1/32"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for _, bad := range []string{"proxy.example", "10.0.0.0/33", ""} {
		if _, err := parseTrustedProxies([]string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
