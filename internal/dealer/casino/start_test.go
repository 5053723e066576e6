package casino

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestStartNeedsToken: POST /start without the start token, or with a wrong one,
// is refused with 403 and does not start the game; with the token it starts it.
// The page and the snapshots never carry the token.
func TestStartNeedsToken(t *testing.T) {
	d, err := New(Config{Players: 5, StartToken: "operator-secret-0123456789"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(d.Handler())
	defer srv.Close()
	post := func(auth string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/start", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	started := func() bool {
		select {
		case <-d.startNow:
			return true
		default:
			return false
		}
	}
	for _, auth := range []string{"", "Bearer ", "Bearer operator-secret-012345678", "Bearer operator-secret-01234567890",
		"Bearer OPERATOR-SECRET-0123456789", "operator-secret-0123456789", "Basic b3BlcmF0b3I6c2VjcmV0"} {
		if code := post(auth); code != http.StatusForbidden || started() {
			t.Fatalf("POST /start with Authorization %q: %d, started %v; want 403 and not started", auth, code, started())
		}
	}
	for _, path := range []string{"/", "/state"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || strings.Contains(string(b), d.StartToken()) {
			t.Fatalf("GET %s shows the start token (%v)", path, err)
		}
	}
	if code := post("Bearer operator-secret-0123456789"); code != http.StatusNoContent || !started() {
		t.Fatalf("POST /start with the token: %d, started %v", code, started())
	}
}

// TestStartTokenMade: without a configured token New makes a random one, a
// different one each time; a short one is refused.
func TestStartTokenMade(t *testing.T) {
	a, err1 := New(Config{})
	b, err2 := New(Config{})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if len(a.StartToken()) < MinStartToken || a.StartToken() == b.StartToken() {
		t.Errorf("made tokens %q and %q", a.StartToken(), b.StartToken())
	}
	if _, err := New(Config{StartToken: "short"}); !errors.Is(err, ErrConfig) {
		t.Errorf("short token: %v", err)
	}
}
