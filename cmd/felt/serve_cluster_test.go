package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// --nats needs PostgreSQL and a NATS URL: --check-config (and felt serve) say
// so before opening anything.
func TestCheckConfigCluster(t *testing.T) {
	pg := "postgres://felt:felt@127.0.0.1/felt"
	ok := clusterFlags{NATS: "nats://127.0.0.1:4222", LeaseTTL: 10 * time.Second}
	var out bytes.Buffer
	c := serveCmd{Addr: "127.0.0.1:8080", DB: pg, clusterFlags: ok}
	if err := c.checkConfig(&out); err != nil || !strings.Contains(out.String(), "configuration ok") {
		t.Fatalf("a good cluster config: %v, %q", err, out.String())
	}
	for _, bad := range []struct {
		db    string
		flags clusterFlags
		want  string
	}{
		{"", ok, "--nats needs --db postgres://"},
		{"/var/lib/felt/felt.db", ok, "--nats needs --db postgres://"},
		{pg, clusterFlags{NATS: "127.0.0.1:4222", LeaseTTL: time.Second}, "want nats://host:port"},
		{pg, clusterFlags{NATS: "nats://a:4222,http://b", LeaseTTL: time.Second}, "want nats://host:port"},
		{pg, clusterFlags{NATS: "nats://a:4222", LeaseTTL: 10 * time.Millisecond}, "--lease-ttl"},
		{pg, clusterFlags{NATS: "nats://a:4222", LeaseTTL: time.Second, Node: strings.Repeat("x", 3)}, ""},
		{"", clusterFlags{Node: "n1"}, "--node goes with --nats"},
	} {
		c := serveCmd{Addr: "127.0.0.1:8080", DB: bad.db, clusterFlags: bad.flags}
		err := c.checkConfig(&out)
		var e *exitError
		if bad.want == "" {
			if err != nil {
				t.Errorf("%+v: %v", bad, err)
			}
			continue
		}
		if !errors.As(err, &e) || e.code != 2 || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: %v, want a usage error saying %q", bad, err, bad.want)
		}
	}
}
