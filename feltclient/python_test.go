package feltclient_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestPythonExample runs examples/python/bot.py (standard library only) against
// a house: it plays one whole hand with its token and leaves. Skipped where
// python3 is not installed.
func TestPythonExample(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	th := newHouse(t)
	token := th.bot("py")
	th.table("Py")
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "../examples/python/bot.py", "--house", th.url, "--token", token,
		"--table", "Py", "--buy-in", "1000", "--hands", "1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bot.py: %v\n%s", err, out)
	}
	for _, want := range []string{"playing as bot_py", "hand 1 over", "left Py after 1 hands"} {
		if !strings.Contains(string(out), want) {
			t.Fatalf("bot.py said:\n%s\nwithout %q", out, want)
		}
	}

	// A revoked token: the script stops with the house's reason.
	th.post("/api/me/bots/py/revoke", map[string]any{}, 204)
	out, err = exec.CommandContext(ctx, py, "../examples/python/bot.py", "--house", th.url, "--token", token, "--table", "Py").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "401") {
		t.Fatalf("revoked token: %v\n%s", err, out)
	}
}
