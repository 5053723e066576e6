package web

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/felt-poker/felt/internal/store"
)

// Tables players open are kept in the store (store.PlayerTableStore) from the
// moment they open until they close by themselves, so that a house that stops
// (SIGTERM, kill -9, a crash) opens them again when it starts: RestoreTables.
// Heads-up games against the computer are not kept: their player's stack goes
// back to the credits, and a game without its player has no reason to be.

// forgetTimeout bounds the deletion of a closed table's row.
const forgetTimeout = 10 * time.Second

// keepPlayerTable stores the table req describes as owner's, and remembers when,
// so that only this table's closing deletes the row.
func (s *Server) keepPlayerTable(ctx context.Context, owner int64, req tableRequest) error {
	config, err := json.Marshal(req)
	if err != nil {
		return err
	}
	at := time.Now()
	if err := s.house.PlayerTables().SavePlayerTable(ctx, store.PlayerTable{Name: req.Name, OwnerID: owner, Config: config, CreatedAt: at}); err != nil {
		return err
	}
	s.tablesMu.Lock()
	s.kept[strings.ToLower(req.Name)] = at
	s.tablesMu.Unlock()
	return nil
}

// tableClosed deletes the row of a player's table that closed by itself (it is
// the lobby's OnClose: it returns at once).
func (s *Server) tableClosed(key string) {
	s.tablesMu.Lock()
	at, ok := s.kept[key]
	delete(s.kept, key)
	s.tablesMu.Unlock()
	if !ok {
		return
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), forgetTimeout)
		defer cancel()
		if err := s.house.PlayerTables().DeletePlayerTable(ctx, key, at); err != nil {
			s.log.Warn("a closed table's settings were not deleted: it will open again at the next start", "table", key, "err", err)
		}
	}()
}

// RestoreTables opens again the tables players had open when the house last
// stopped, and says how many. A table that can no longer open (its name is a
// house table's now, its settings are no longer valid) is logged and forgotten.
func (s *Server) RestoreTables(ctx context.Context) (int, error) {
	kept, err := s.house.PlayerTables().PlayerTables(ctx)
	if err != nil {
		return 0, fmt.Errorf("the tables players had open: %w", err)
	}
	n := 0
	for _, pt := range kept {
		var req tableRequest
		err := json.Unmarshal(pt.Config, &req)
		if err == nil {
			_, err = s.openPlayerTable(pt.OwnerID, 0, req)
		}
		if err != nil {
			s.log.Warn("a player's table did not open again", "table", pt.Name, "err", err)
			if err := s.house.PlayerTables().DeletePlayerTable(ctx, pt.Name, pt.CreatedAt); err != nil {
				return n, err
			}
			continue
		}
		s.tablesMu.Lock()
		s.kept[strings.ToLower(req.Name)] = pt.CreatedAt
		s.tablesMu.Unlock()
		n++
	}
	return n, nil
}
