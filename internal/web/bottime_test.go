package web

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/store/storetest"
)

// The house's metrics count every bot decision at its tables in a histogram by
// bot and street (felt_bot_decision_seconds): a heads-up game's bot, the button,
// decides before the flop at once.
func TestBotDecisionMetrics(t *testing.T) {
	th := newHouse(t, storetest.SQLite(t))
	u := th.client(t)
	u.must("POST", "/api/guest", nil, 201)
	u.must("POST", "/api/headsup", map[string]any{"bot": "call"}, 201)
	const want = `felt_bot_decision_seconds_count{bot="call",street="preflop"}`
	var body string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(th.ts.URL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if body = string(b); strings.Contains(body, want) {
			return
		}
	}
	t.Fatalf("no %s in /metrics after the bot's first decision", want)
}
