package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/felt-poker/felt/internal/lobby"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/table"
)

// Tables players open are kept in the store (store.PlayerTableStore) from the
// moment they open until they close by themselves, so that a house that stops
// (SIGTERM, kill -9, a crash) opens them again when it starts: RestoreTables.
// Heads-up games against the computer are not kept: their player's stack goes
// back to the credits, and a game without its player has no reason to be.
//
// A house on several nodes keeps them instead in its registry of tables, as
// the TableHost (package node) opens them: registered under a name unique
// across the house, leased and written ahead, heads-up games too, so that any
// node reaches them and another takes them over with the hand in play when
// their node is lost or leaves. RestoreTables then moves the tables a house on
// one node kept into the registry.

// TableHost opens players' tables on a house of several nodes.
type TableHost interface {
	// OpenPlayerTable opens cfg's table on this node for the player whose ID
	// is owner (who may own maxOwned tables in the house; 0: no bound), entered
	// in the house's registry with reg, what PlayerTableConfig opens it again
	// from on another node. A name the house has is refused with
	// lobby.ErrNameTaken.
	OpenPlayerTable(ctx context.Context, owner int64, maxOwned int, cfg table.Config, reg []byte) (*table.Table, error)
	// RegisterPlayerTable enters the player's table called name in the
	// registry, to be opened by the first node that finds it without an owner
	// (lobby.ErrNameTaken if the house has that name).
	RegisterPlayerTable(ctx context.Context, name string, reg []byte) error
}

// registeredTable is a player's table as a house on several nodes registers
// it: its owner and their request.
type registeredTable struct {
	Owner   int64         `json:"owner"`
	Table   *tableRequest `json:"table,omitempty"`
	HeadsUp *headsUpGame  `json:"heads_up,omitempty"`
}

// headsUpGame is a heads-up game's name and request.
type headsUpGame struct {
	Name string `json:"name"`
	table.HeadsUp
}

// SetTableHost makes the server open players' tables through h (a node of a
// house on several nodes). Call it before serving.
func (s *Server) SetTableHost(h TableHost) {
	s.tablesMu.Lock()
	defer s.tablesMu.Unlock()
	s.host = h
}

func (s *Server) tableHost() TableHost {
	s.tablesMu.Lock()
	defer s.tablesMu.Unlock()
	return s.host
}

// openTable opens the player's table cfg, which reg describes, for owner: in
// the lobby, or through the house's TableHost.
func (s *Server) openTable(ctx context.Context, owner int64, maxOwned int, cfg table.Config, reg registeredTable) (*table.Table, error) {
	h := s.tableHost()
	if h == nil {
		return s.lobby.OpenBy(ctx, owner, maxOwned, cfg)
	}
	b, err := json.Marshal(reg)
	if err != nil {
		return nil, err
	}
	return h.OpenPlayerTable(ctx, owner, maxOwned, cfg, b)
}

// PlayerTableConfig returns the owner and the settings of the player's table
// that reg (written by OpenPlayerTable's caller on this or another node)
// registers, for a node that opens it again.
func (s *Server) PlayerTableConfig(reg json.RawMessage) (int64, table.Config, error) {
	var rt registeredTable
	if err := json.Unmarshal(reg, &rt); err != nil {
		return 0, table.Config{}, fmt.Errorf("a player's table's registration: %w", err)
	}
	var cfg table.Config
	var err error
	switch {
	case rt.Table != nil:
		cfg, err = s.playerTableConfig(*rt.Table)
	case rt.HeadsUp != nil:
		cfg, err = s.headsUpConfig(rt.HeadsUp.Name, rt.HeadsUp.HeadsUp)
	default:
		err = fmt.Errorf("a player's table's registration has no table: %s", reg)
	}
	if err == nil { // as the table will check them when it opens
		c := cfg
		c.DefaultTimes()
		err = c.Validate()
	}
	return rt.Owner, cfg, err
}

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
	if h := s.tableHost(); h != nil {
		return s.registerKept(ctx, h, kept)
	}
	n := 0
	for _, pt := range kept {
		var req tableRequest
		err := json.Unmarshal(pt.Config, &req)
		if err == nil {
			_, err = s.openPlayerTable(ctx, pt.OwnerID, 0, req)
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

// registerKept moves the tables kept in the store into the registry of a
// house on several nodes (a house that ran on one node before), and says how
// many it registered: each row goes, registered or refused (its name taken
// in the house, its settings no longer valid).
func (s *Server) registerKept(ctx context.Context, h TableHost, kept []store.PlayerTable) (int, error) {
	n := 0
	for _, pt := range kept {
		var req tableRequest
		err := json.Unmarshal(pt.Config, &req)
		var reg []byte
		if err == nil {
			reg, err = json.Marshal(registeredTable{Owner: pt.OwnerID, Table: &req})
		}
		if err == nil {
			_, _, err = s.PlayerTableConfig(reg)
		}
		valid := err == nil
		if valid {
			err = h.RegisterPlayerTable(ctx, req.Name, reg)
		}
		switch {
		case err == nil:
			n++
		case !valid || errors.Is(err, lobby.ErrNameTaken):
			s.log.Warn("a player's table did not open again", "table", pt.Name, "err", err)
		default:
			return n, err
		}
		if err := s.house.PlayerTables().DeletePlayerTable(ctx, pt.Name, pt.CreatedAt); err != nil {
			return n, err
		}
	}
	return n, nil
}
