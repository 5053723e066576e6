package webui

import (
	"encoding/json"
	"net/http"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/eval"
)

// bestReply is the answer of GET /ui/best.
type bestReply struct {
	Best []string `json:"best"`
	Name string   `json:"name"`
}

// serveBest answers GET /ui/best?cards=AsKd7h2c9s with the best five of 5 to 7
// Hold'em cards, so that the table page can highlight a winning hand at showdown
// with felt's own evaluator rather than one of its own in JavaScript.
func serveBest(w http.ResponseWriter, r *http.Request) {
	cs, err := cards.ParseList(r.URL.Query().Get("cards"))
	w.Header().Set("Content-Type", "application/json")
	if err != nil || len(cs) < 5 || len(cs) > 7 {
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{
			"code": "invalid", "field": "cards", "message": "cards: 5 to 7 distinct cards such as AsKd7h2c9s"}})
		return
	}
	rank, five := eval.Best(cs)
	reply := bestReply{Name: rank.String()}
	for _, c := range five {
		reply.Best = append(reply.Best, c.String())
	}
	w.Header().Set("Cache-Control", "max-age=86400")
	json.NewEncoder(w).Encode(reply)
}
