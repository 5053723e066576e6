package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --check-config says what is wrong with the flags or the config file (exit 2)
// or that all is well, opening nothing: no database file appears.
func TestCheckConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.toml", "name = \"Club\"\n")
	var out bytes.Buffer
	c := serveCmd{Addr: "127.0.0.1:8080", Data: dir, Config: good, CheckConfig: true}
	if err := c.checkConfig(&out); err != nil || !strings.Contains(out.String(), `configuration ok: house "Club"`) {
		t.Fatalf("a good config: %v, %q", err, out.String())
	}
	for _, bad := range []serveCmd{
		{Addr: "127.0.0.1:8080", Config: write("bots.toml", "[[tables]]\nname = \"X\"\nvariant = \"nlhe\"\nseats = 6\nsmall_blind = 1\nbig_blind = 2\nmin_buy_in = 40\nmax_buy_in = 200\nbots = [\"nosuch\"]\n")},
		{Addr: "127.0.0.1:8080", Config: write("idle.toml", "sit_out_limit = \"5s\"\n")},
		{Addr: "no port"},
		{Addr: "127.0.0.1:8080", TrustedProxy: []string{"not an address"}},
		{Addr: "127.0.0.1:8080", TLSCert: good},
	} {
		err := bad.checkConfig(&out)
		var e *exitError
		if !errors.As(err, &e) || e.code != 2 {
			t.Errorf("%+v: %v, want a usage error", bad, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 { // the three config files
		t.Errorf("the check created files: %v", entries)
	}
}

// --log-format json writes one JSON object a line; --log-level drops what is
// less important.
func TestServeLogger(t *testing.T) {
	var buf bytes.Buffer
	log := (&serveCmd{LogLevel: "warn", LogFormat: "json"}).logger(&buf)
	log.Info("dropped")
	log.Warn("kept", "table", "Main")
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil || line["msg"] != "kept" || line["table"] != "Main" || line["level"] != "WARN" {
		t.Fatalf("log %q: %v", buf.String(), err)
	}
	buf.Reset()
	(&serveCmd{LogLevel: "debug", LogFormat: "text"}).logger(&buf).Debug("shown")
	if !strings.Contains(buf.String(), "level=DEBUG msg=shown") {
		t.Fatalf("text log %q", buf.String())
	}
}
