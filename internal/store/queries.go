package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// querier is what *sql.DB and *sql.Tx have in common.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// queries implements Queries on a database or a transaction.
type queries struct {
	q querier
	d *dialect
}

// Times are stored as Unix milliseconds; zero times as NULL where a column allows it.
func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

func nullMS(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMilli(), Valid: true}
}

func fromNullMS(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return fromMS(v.Int64)
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

func nullID(id int64) sql.NullInt64 { return sql.NullInt64{Int64: id, Valid: id != 0} }

func now() time.Time { return time.Now().UTC() }

func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// ---- users

const userColumns = "id, username, password_hash, guest, adult_confirmed_at, email, location, created_at, deleted_at, owner_id"

func scanUser(row interface{ Scan(...any) error }) (User, error) {
	var (
		u              User
		hash, em, loc  sql.NullString
		adult, deleted sql.NullInt64
		owner          sql.NullInt64
		created        int64
	)
	if err := row.Scan(&u.ID, &u.Username, &hash, &u.Guest, &adult, &em, &loc, &created, &deleted, &owner); err != nil {
		return User{}, err
	}
	u.OwnerID = owner.Int64
	u.PasswordHash, u.Email, u.Location = hash.String, em.String, loc.String
	u.AdultConfirmedAt, u.CreatedAt, u.DeletedAt = fromNullMS(adult), fromMS(created), fromNullMS(deleted)
	return u, nil
}

func (q *queries) CreateUser(ctx context.Context, u User) (User, error) {
	if u.CreatedAt.IsZero() {
		u.CreatedAt = now()
	}
	err := q.q.QueryRowContext(ctx,
		`INSERT INTO users (username, password_hash, guest, adult_confirmed_at, email, location, created_at, owner_id)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
		u.Username, nullString(u.PasswordHash), u.Guest, nullMS(u.AdultConfirmedAt),
		nullString(u.Email), nullString(u.Location), ms(u.CreatedAt), sql.NullInt64{Int64: u.OwnerID, Valid: u.OwnerID != 0}).Scan(&u.ID)
	if err != nil {
		if q.d.unique(err) {
			return User{}, fmt.Errorf("create user %q: %w", u.Username, ErrUsernameTaken)
		}
		return User{}, fmt.Errorf("create user %q: %w", u.Username, err)
	}
	return u, nil
}

func (q *queries) UserByID(ctx context.Context, id int64) (User, error) {
	u, err := scanUser(q.q.QueryRowContext(ctx, "SELECT "+userColumns+" FROM users WHERE id = $1", id))
	if err != nil {
		return User{}, notFound(err, fmt.Sprintf("user %d", id))
	}
	return u, nil
}

// lookalikeSQL is the SQL of a name (%[1]s) as it reads in the house's UI:
// ignoring case, with the letters that look alike made one (capital I, small
// L and the digit 1; O and the digit 0; rn and m; vv and w). Migration 00017
// indexes the users by it: keep the two the same.
const lookalikeSQL = `replace(replace(replace(replace(LOWER(replace(%[1]s, 'I', 'l')), '1', 'l'), '0', 'o'), 'rn', 'm'), 'vv', 'w')`

func (q *queries) UserLike(ctx context.Context, username string) (User, error) {
	u, err := scanUser(q.q.QueryRowContext(ctx, "SELECT "+userColumns+" FROM users WHERE "+
		fmt.Sprintf(lookalikeSQL, "username")+" = "+fmt.Sprintf(lookalikeSQL, "$1")+" LIMIT 1", username))
	if err != nil {
		return User{}, notFound(err, fmt.Sprintf("user like %q", username))
	}
	return u, nil
}

func (q *queries) UserByName(ctx context.Context, username string) (User, error) {
	u, err := scanUser(q.q.QueryRowContext(ctx,
		"SELECT "+userColumns+" FROM users WHERE LOWER(username) = LOWER($1)", username))
	if err != nil {
		return User{}, notFound(err, fmt.Sprintf("user %q", username))
	}
	return u, nil
}

func (q *queries) UpdateUser(ctx context.Context, u User) error {
	res, err := q.q.ExecContext(ctx,
		`UPDATE users SET username = $1, password_hash = $2, email = $3, location = $4, deleted_at = $5 WHERE id = $6`,
		u.Username, nullString(u.PasswordHash), nullString(u.Email), nullString(u.Location), nullMS(u.DeletedAt), u.ID)
	if err != nil {
		if q.d.unique(err) {
			return fmt.Errorf("update user %d to %q: %w", u.ID, u.Username, ErrUsernameTaken)
		}
		return fmt.Errorf("update user %d: %w", u.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("update user %d: %w", u.ID, err)
	} else if n == 0 {
		return fmt.Errorf("update user %d: %w", u.ID, ErrNotFound)
	}
	return nil
}

func (q *queries) LockUser(ctx context.Context, id int64) error {
	query := q.d.lockUser
	if query == "" {
		query = "SELECT id FROM users WHERE id = $1"
	}
	var got int64
	if err := q.q.QueryRowContext(ctx, query, id).Scan(&got); err != nil {
		return notFound(err, fmt.Sprintf("lock user %d", id))
	}
	return nil
}

// ---- sessions

func (q *queries) TouchSession(ctx context.Context, hash []byte, expiresAt time.Time) error {
	if _, err := q.q.ExecContext(ctx, "UPDATE sessions SET expires_at = $1 WHERE token_hash = $2", ms(expiresAt), hash); err != nil {
		return fmt.Errorf("touch session: %w", err)
	}
	return nil
}

func (q *queries) CreateSession(ctx context.Context, s Session) error {
	if s.CreatedAt.IsZero() {
		s.CreatedAt = now()
	}
	_, err := q.q.ExecContext(ctx,
		"INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
		s.TokenHash, s.UserID, ms(s.CreatedAt), ms(s.ExpiresAt))
	if err != nil {
		return fmt.Errorf("create session for user %d: %w", s.UserID, err)
	}
	return nil
}

func (q *queries) SessionByTokenHash(ctx context.Context, hash []byte) (Session, error) {
	var (
		s                Session
		created, expires int64
	)
	err := q.q.QueryRowContext(ctx,
		"SELECT token_hash, user_id, created_at, expires_at FROM sessions WHERE token_hash = $1", hash).
		Scan(&s.TokenHash, &s.UserID, &created, &expires)
	if err != nil {
		return Session{}, notFound(err, "session")
	}
	s.CreatedAt, s.ExpiresAt = fromMS(created), fromMS(expires)
	return s, nil
}

func (q *queries) DeleteSession(ctx context.Context, hash []byte) error {
	if _, err := q.q.ExecContext(ctx, "DELETE FROM sessions WHERE token_hash = $1", hash); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}

func (q *queries) DeleteUserSessions(ctx context.Context, userID int64, keep []byte) (int64, error) {
	if keep == nil {
		keep = []byte{} // no token hash is empty
	}
	res, err := q.q.ExecContext(ctx, "DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2", userID, keep)
	if err != nil {
		return 0, fmt.Errorf("delete sessions of user %d: %w", userID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("delete sessions of user %d: %w", userID, err)
	}
	return n, nil
}

func (q *queries) DeleteExpiredSessions(ctx context.Context, at time.Time) (int64, error) {
	res, err := q.q.ExecContext(ctx, "DELETE FROM sessions WHERE expires_at <= $1", ms(at))
	if err != nil {
		return 0, fmt.Errorf("delete expired sessions: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("delete expired sessions: %w", err)
	}
	return n, nil
}

// ---- ledger

const entryColumns = "id, user_id, kind, amount, table_ref, hand_id, note, created_at"

func scanEntry(row interface{ Scan(...any) error }) (Entry, error) {
	var (
		e         Entry
		kind      string
		table, nt sql.NullString
		hand      sql.NullInt64
		created   int64
	)
	if err := row.Scan(&e.ID, &e.UserID, &kind, &e.Amount, &table, &hand, &nt, &created); err != nil {
		return Entry{}, err
	}
	e.Kind, e.TableRef, e.HandID, e.Note, e.CreatedAt = EntryKind(kind), table.String, hand.Int64, nt.String, fromMS(created)
	return e, nil
}

func (q *queries) AddEntry(ctx context.Context, e Entry) (Entry, error) {
	if err := e.Kind.Valid(e.Amount); err != nil {
		return Entry{}, err
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = now()
	}
	err := q.q.QueryRowContext(ctx,
		`INSERT INTO ledger (user_id, kind, amount, table_ref, hand_id, note, created_at)
		 VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
		e.UserID, string(e.Kind), e.Amount, nullString(e.TableRef), nullID(e.HandID), nullString(e.Note), ms(e.CreatedAt)).
		Scan(&e.ID)
	if err != nil {
		return Entry{}, fmt.Errorf("ledger: add %s %d for user %d: %w", e.Kind, e.Amount, e.UserID, err)
	}
	return e, nil
}

func (q *queries) Balance(ctx context.Context, userID int64) (int64, error) {
	var b int64
	err := q.q.QueryRowContext(ctx,
		"SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM ledger WHERE user_id = $1", userID).Scan(&b)
	if err != nil {
		return 0, fmt.Errorf("ledger: balance of user %d: %w", userID, err)
	}
	return b, nil
}

func (q *queries) Entries(ctx context.Context, userID int64, limit int) ([]Entry, error) {
	rows, err := q.q.QueryContext(ctx,
		"SELECT "+entryColumns+" FROM ledger WHERE user_id = $1 ORDER BY id DESC LIMIT $2", userID, limit)
	if err != nil {
		return nil, fmt.Errorf("ledger: entries of user %d: %w", userID, err)
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, fmt.Errorf("ledger: entries of user %d: %w", userID, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ledger: entries of user %d: %w", userID, err)
	}
	return out, nil
}

func (q *queries) LastEntry(ctx context.Context, userID int64, kind EntryKind) (Entry, error) {
	e, err := scanEntry(q.q.QueryRowContext(ctx,
		"SELECT "+entryColumns+" FROM ledger WHERE user_id = $1 AND kind = $2 ORDER BY id DESC LIMIT 1",
		userID, string(kind)))
	if err != nil {
		return Entry{}, notFound(err, fmt.Sprintf("ledger: last %s of user %d", kind, userID))
	}
	return e, nil
}

func (q *queries) LedgerTotals(ctx context.Context) (map[EntryKind]int64, error) {
	rows, err := q.q.QueryContext(ctx,
		"SELECT kind, CAST(SUM(amount) AS BIGINT) FROM ledger GROUP BY kind")
	if err != nil {
		return nil, fmt.Errorf("ledger: totals: %w", err)
	}
	defer rows.Close()
	out := make(map[EntryKind]int64)
	for rows.Next() {
		var (
			kind string
			sum  int64
		)
		if err := rows.Scan(&kind, &sum); err != nil {
			return nil, fmt.Errorf("ledger: totals: %w", err)
		}
		out[EntryKind(kind)] = sum
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ledger: totals: %w", err)
	}
	return out, nil
}

// ---- stats

func (q *queries) AddStats(ctx context.Context, userID int64, d Stats) error {
	_, err := q.q.ExecContext(ctx,
		`INSERT INTO player_stats (user_id, games_played, hands_played, hands_won, net_won, vpip_hands, pfr_hands, bb_won_milli)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		 ON CONFLICT (user_id) DO UPDATE SET
		   games_played = player_stats.games_played + excluded.games_played,
		   hands_played = player_stats.hands_played + excluded.hands_played,
		   hands_won    = player_stats.hands_won + excluded.hands_won,
		   net_won      = player_stats.net_won + excluded.net_won,
		   vpip_hands   = player_stats.vpip_hands + excluded.vpip_hands,
		   pfr_hands    = player_stats.pfr_hands + excluded.pfr_hands,
		   bb_won_milli = player_stats.bb_won_milli + excluded.bb_won_milli`,
		userID, d.GamesPlayed, d.HandsPlayed, d.HandsWon, d.NetWon, d.VPIPHands, d.PFRHands, d.BBWonMilli)
	if err != nil {
		return fmt.Errorf("stats: add for user %d: %w", userID, err)
	}
	return nil
}

const statsColumns = "games_played, hands_played, hands_won, net_won, vpip_hands, pfr_hands, bb_won_milli"

func (s *Stats) scanArgs() []any {
	return []any{&s.GamesPlayed, &s.HandsPlayed, &s.HandsWon, &s.NetWon, &s.VPIPHands, &s.PFRHands, &s.BBWonMilli}
}

func (q *queries) Stats(ctx context.Context, userID int64) (Stats, error) {
	var s Stats
	err := q.q.QueryRowContext(ctx,
		"SELECT "+statsColumns+" FROM player_stats WHERE user_id = $1", userID).Scan(s.scanArgs()...)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Stats{}, fmt.Errorf("stats of user %d: %w", userID, err)
	}
	return s, nil
}

func (q *queries) Rankings(ctx context.Context, by Rank, minHands int64, limit, offset int) ([]Ranked, error) {
	var order string
	switch by {
	case RankByNet:
		order = "s.net_won DESC"
	case RankByWinRate:
		order = "CAST(s.bb_won_milli AS DOUBLE PRECISION) / s.hands_played DESC"
		minHands = max(minHands, 1)
	default:
		return nil, fmt.Errorf("rankings: unknown order %q", by)
	}
	rows, err := q.q.QueryContext(ctx,
		`SELECT u.id, u.username, s.games_played, s.hands_played, s.hands_won, s.net_won, s.vpip_hands, s.pfr_hands, s.bb_won_milli
		 FROM player_stats s JOIN users u ON u.id = s.user_id
		 WHERE u.guest = FALSE AND u.deleted_at IS NULL AND s.hands_played >= $1
		 ORDER BY `+order+`, s.hands_played DESC, u.id LIMIT $2 OFFSET $3`, minHands, limit, offset)
	if err != nil {
		return nil, fmt.Errorf("rankings by %s: %w", by, err)
	}
	defer rows.Close()
	var out []Ranked
	for rows.Next() {
		var r Ranked
		if err := rows.Scan(append([]any{&r.UserID, &r.Name}, r.Stats.scanArgs()...)...); err != nil {
			return nil, fmt.Errorf("rankings by %s: %w", by, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("rankings by %s: %w", by, err)
	}
	return out, nil
}

// ---- seats

func (q *queries) AddToSeat(ctx context.Context, tableRef string, userID, delta int64, create bool) error {
	res, err := q.q.ExecContext(ctx,
		"UPDATE table_seats SET stack = stack + $1, updated_at = $2 WHERE table_ref = $3 AND user_id = $4",
		delta, ms(now()), tableRef, userID)
	var n int64
	if err == nil {
		n, err = res.RowsAffected()
	}
	if err == nil && n == 0 && create {
		_, err = q.q.ExecContext(ctx,
			"INSERT INTO table_seats (table_ref, user_id, stack, updated_at) VALUES ($1, $2, $3, $4)",
			tableRef, userID, delta, ms(now()))
	}
	if err != nil {
		return fmt.Errorf("seat of user %d at %s: add %d: %w", userID, tableRef, delta, err)
	}
	return nil
}

func (q *queries) Fence(ctx context.Context, tableRef string, token int64) error {
	res, err := q.q.ExecContext(ctx, `INSERT INTO table_fences (table_ref, token) VALUES ($1, $2)
		 ON CONFLICT (table_ref) DO UPDATE SET token = excluded.token WHERE table_fences.token <= excluded.token`,
		tableRef, token)
	var n int64
	if err == nil {
		n, err = res.RowsAffected()
	}
	if err != nil {
		return fmt.Errorf("fence of %s: %w", tableRef, err)
	}
	if n == 0 {
		return fmt.Errorf("table %s, token %d: %w", tableRef, token, ErrFenced)
	}
	return nil
}

func (q *queries) DeleteSeat(ctx context.Context, tableRef string, userID int64) error {
	res, err := q.q.ExecContext(ctx, "DELETE FROM table_seats WHERE table_ref = $1 AND user_id = $2", tableRef, userID)
	if err != nil {
		return fmt.Errorf("seat of user %d at %s: delete: %w", userID, tableRef, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("seat of user %d at %s: %w", userID, tableRef, ErrNotFound)
	}
	return nil
}

func (q *queries) ChipsAtTables(ctx context.Context, userID int64) (int64, error) {
	var sum int64
	err := q.q.QueryRowContext(ctx, "SELECT COALESCE(SUM(stack), 0) FROM table_seats WHERE user_id = $1", userID).Scan(&sum)
	if err != nil {
		return 0, fmt.Errorf("chips at tables of user %d: %w", userID, err)
	}
	return sum, nil
}

func (q *queries) Seats(ctx context.Context) ([]Seat, error) {
	rows, err := q.q.QueryContext(ctx, "SELECT table_ref, user_id, stack, updated_at FROM table_seats ORDER BY updated_at, table_ref, user_id")
	if err != nil {
		return nil, fmt.Errorf("seats: %w", err)
	}
	defer rows.Close()
	var out []Seat
	for rows.Next() {
		var (
			s       Seat
			updated int64
		)
		if err := rows.Scan(&s.TableRef, &s.UserID, &s.Stack, &updated); err != nil {
			return nil, fmt.Errorf("seats: %w", err)
		}
		s.UpdatedAt = fromMS(updated)
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("seats: %w", err)
	}
	return out, nil
}

// ---- hands

func (q *queries) SaveHand(ctx context.Context, h Hand) (int64, error) {
	if h.PlayedAt.IsZero() {
		h.PlayedAt = now()
	}
	var id int64
	var key sql.NullString
	if h.Key != "" {
		key = sql.NullString{String: h.Key, Valid: true}
	}
	err := q.q.QueryRowContext(ctx,
		`INSERT INTO hands (table_ref, variant, big_blind, phh, played_at, private, hand_key) VALUES ($1, $2, $3, $4, $5, $6, $7)
		 ON CONFLICT (hand_key) DO NOTHING RETURNING id`,
		h.TableRef, h.Variant, h.BigBlind, h.PHH, ms(h.PlayedAt), h.Private, key).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) && key.Valid { // stored already
		if err := q.q.QueryRowContext(ctx, "SELECT id FROM hands WHERE hand_key = $1", key).Scan(&id); err != nil {
			return 0, fmt.Errorf("save hand %q: %w", h.Key, err)
		}
		return id, fmt.Errorf("save hand %q: %w", h.Key, ErrDuplicate)
	}
	if err != nil {
		return 0, fmt.Errorf("save hand at table %q: %w", h.TableRef, err)
	}
	for _, p := range h.Players {
		_, err := q.q.ExecContext(ctx,
			"INSERT INTO hand_players (hand_id, seat, user_id, name, net, won, vpip, pfr) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
			id, p.Seat, nullID(p.UserID), p.Name, p.Net, p.Won, p.VPIP, p.PFR)
		if err != nil {
			return 0, fmt.Errorf("save hand %d seat %d: %w", id, p.Seat, err)
		}
	}
	return id, nil
}

func (q *queries) Hand(ctx context.Context, id int64) (Hand, error) {
	hs, err := q.hands(ctx, "WHERE id = $1", id, 1)
	if err != nil {
		return Hand{}, fmt.Errorf("hand %d: %w", id, err)
	}
	if len(hs) == 0 {
		return Hand{}, fmt.Errorf("hand %d: %w", id, ErrNotFound)
	}
	return hs[0], nil
}

func (q *queries) HandsByTable(ctx context.Context, tableRef string, limit int) ([]Hand, error) {
	hs, err := q.hands(ctx, "WHERE table_ref = $1", tableRef, limit)
	if err != nil {
		return nil, fmt.Errorf("hands of table %q: %w", tableRef, err)
	}
	return hs, nil
}

func (q *queries) HandsByUser(ctx context.Context, userID int64, limit int) ([]Hand, error) {
	hs, err := q.hands(ctx, "WHERE id IN (SELECT hand_id FROM hand_players WHERE user_id = $1)", userID, limit)
	if err != nil {
		return nil, fmt.Errorf("hands of user %d: %w", userID, err)
	}
	return hs, nil
}

// hands returns the newest hands matching where (with one parameter, arg), with players.
func (q *queries) hands(ctx context.Context, where string, arg any, limit int) ([]Hand, error) {
	rows, err := q.q.QueryContext(ctx,
		"SELECT id, table_ref, variant, big_blind, phh, played_at, private FROM hands "+where+" ORDER BY id DESC LIMIT $2", arg, limit)
	if err != nil {
		return nil, err
	}
	var out []Hand
	for rows.Next() {
		var (
			h      Hand
			played int64
		)
		if err := rows.Scan(&h.ID, &h.TableRef, &h.Variant, &h.BigBlind, &h.PHH, &played, &h.Private); err != nil {
			rows.Close()
			return nil, err
		}
		h.PlayedAt = fromMS(played)
		out = append(out, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Players are read after the hands' rows are closed: a transaction has one connection.
	for i := range out {
		if out[i].Players, err = q.handPlayers(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (q *queries) handPlayers(ctx context.Context, handID int64) ([]HandPlayer, error) {
	rows, err := q.q.QueryContext(ctx,
		"SELECT seat, user_id, name, net, won, vpip, pfr FROM hand_players WHERE hand_id = $1 ORDER BY seat", handID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []HandPlayer
	for rows.Next() {
		var (
			p    HandPlayer
			user sql.NullInt64
		)
		if err := rows.Scan(&p.Seat, &user, &p.Name, &p.Net, &p.Won, &p.VPIP, &p.PFR); err != nil {
			return nil, err
		}
		p.UserID = user.Int64
		out = append(out, p)
	}
	return out, rows.Err()
}

// ---- message board

func (q *queries) CreateBoard(ctx context.Context, b Board) (Board, error) {
	if b.CreatedAt.IsZero() {
		b.CreatedAt = now()
	}
	err := q.q.QueryRowContext(ctx,
		"INSERT INTO boards (slug, title, description, position, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
		b.Slug, b.Title, b.Description, b.Position, ms(b.CreatedAt)).Scan(&b.ID)
	if err != nil {
		if q.d.unique(err) {
			return Board{}, fmt.Errorf("create board %q: %w", b.Slug, ErrDuplicate)
		}
		return Board{}, fmt.Errorf("create board %q: %w", b.Slug, err)
	}
	return b, nil
}

func (q *queries) Boards(ctx context.Context) ([]Board, error) {
	rows, err := q.q.QueryContext(ctx,
		"SELECT id, slug, title, description, position, created_at FROM boards ORDER BY position, id")
	if err != nil {
		return nil, fmt.Errorf("boards: %w", err)
	}
	defer rows.Close()
	var out []Board
	for rows.Next() {
		var (
			b       Board
			created int64
		)
		if err := rows.Scan(&b.ID, &b.Slug, &b.Title, &b.Description, &b.Position, &created); err != nil {
			return nil, fmt.Errorf("boards: %w", err)
		}
		b.CreatedAt = fromMS(created)
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("boards: %w", err)
	}
	return out, nil
}

func (q *queries) CreateTopic(ctx context.Context, boardID, userID int64, title, body string, at time.Time) (Topic, error) {
	if at.IsZero() {
		at = now()
	}
	t := Topic{BoardID: boardID, UserID: userID, Title: title, CreatedAt: at, LastPostAt: at, Posts: 1}
	err := q.q.QueryRowContext(ctx,
		"INSERT INTO topics (board_id, user_id, title, created_at) VALUES ($1, $2, $3, $4) RETURNING id",
		boardID, userID, title, ms(at)).Scan(&t.ID)
	if err != nil {
		return Topic{}, fmt.Errorf("create topic on board %d: %w", boardID, err)
	}
	if _, err := q.AddPost(ctx, Post{TopicID: t.ID, UserID: userID, Body: body, CreatedAt: at}); err != nil {
		return Topic{}, fmt.Errorf("create topic on board %d: %w", boardID, err)
	}
	return q.Topic(ctx, t.ID)
}

const topicQuery = `SELECT t.id, t.board_id, t.user_id, u.username, t.title, t.created_at,
	CAST(COALESCE((SELECT MAX(p.created_at) FROM posts p WHERE p.topic_id = t.id), t.created_at) AS BIGINT),
	(SELECT COUNT(*) FROM posts p WHERE p.topic_id = t.id)
	FROM topics t JOIN users u ON u.id = t.user_id `

func scanTopic(row interface{ Scan(...any) error }) (Topic, error) {
	var (
		t             Topic
		created, last int64
	)
	if err := row.Scan(&t.ID, &t.BoardID, &t.UserID, &t.Author, &t.Title, &created, &last, &t.Posts); err != nil {
		return Topic{}, err
	}
	t.CreatedAt, t.LastPostAt = fromMS(created), fromMS(last)
	return t, nil
}

func (q *queries) Topic(ctx context.Context, id int64) (Topic, error) {
	t, err := scanTopic(q.q.QueryRowContext(ctx, topicQuery+"WHERE t.id = $1", id))
	if err != nil {
		return Topic{}, notFound(err, fmt.Sprintf("topic %d", id))
	}
	return t, nil
}

func (q *queries) Topics(ctx context.Context, boardID int64, limit, offset int) ([]Topic, error) {
	rows, err := q.q.QueryContext(ctx, topicQuery+
		"WHERE t.board_id = $1 ORDER BY 7 DESC, 1 DESC LIMIT $2 OFFSET $3", boardID, limit, offset)
	if err != nil {
		return nil, fmt.Errorf("topics of board %d: %w", boardID, err)
	}
	defer rows.Close()
	var out []Topic
	for rows.Next() {
		t, err := scanTopic(rows)
		if err != nil {
			return nil, fmt.Errorf("topics of board %d: %w", boardID, err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("topics of board %d: %w", boardID, err)
	}
	return out, nil
}

func (q *queries) AddPost(ctx context.Context, p Post) (Post, error) {
	if p.CreatedAt.IsZero() {
		p.CreatedAt = now()
	}
	err := q.q.QueryRowContext(ctx,
		"INSERT INTO posts (topic_id, user_id, body, created_at) VALUES ($1, $2, $3, $4) RETURNING id",
		p.TopicID, p.UserID, p.Body, ms(p.CreatedAt)).Scan(&p.ID)
	if err != nil {
		return Post{}, fmt.Errorf("add post to topic %d: %w", p.TopicID, err)
	}
	if err := q.q.QueryRowContext(ctx, "SELECT username FROM users WHERE id = $1", p.UserID).Scan(&p.Author); err != nil {
		return Post{}, notFound(err, fmt.Sprintf("add post to topic %d: author %d", p.TopicID, p.UserID))
	}
	return p, nil
}

func (q *queries) Posts(ctx context.Context, topicID int64, limit, offset int) ([]Post, error) {
	rows, err := q.q.QueryContext(ctx,
		`SELECT p.id, p.topic_id, p.user_id, u.username, p.body, p.created_at
		 FROM posts p JOIN users u ON u.id = p.user_id
		 WHERE p.topic_id = $1 ORDER BY p.id LIMIT $2 OFFSET $3`, topicID, limit, offset)
	if err != nil {
		return nil, fmt.Errorf("posts of topic %d: %w", topicID, err)
	}
	defer rows.Close()
	var out []Post
	for rows.Next() {
		var (
			p       Post
			created int64
		)
		if err := rows.Scan(&p.ID, &p.TopicID, &p.UserID, &p.Author, &p.Body, &created); err != nil {
			return nil, fmt.Errorf("posts of topic %d: %w", topicID, err)
		}
		p.CreatedAt = fromMS(created)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("posts of topic %d: %w", topicID, err)
	}
	return out, nil
}

// ---- bot models

func (q *queries) PutBotModel(ctx context.Context, m BotModel) error {
	if m.UpdatedAt.IsZero() {
		m.UpdatedAt = now()
	}
	_, err := q.q.ExecContext(ctx,
		`INSERT INTO bot_models (bot, opponent, model, updated_at) VALUES ($1, $2, $3, $4)
		 ON CONFLICT (bot, opponent) DO UPDATE SET model = excluded.model, updated_at = excluded.updated_at`,
		m.Bot, m.Opponent, string(m.Model), ms(m.UpdatedAt))
	if err != nil {
		return fmt.Errorf("bot model %s vs %s: %w", m.Bot, m.Opponent, err)
	}
	return nil
}

func (q *queries) BotModel(ctx context.Context, bot, opponent string) (BotModel, error) {
	var (
		m       = BotModel{Bot: bot, Opponent: opponent}
		model   string
		updated int64
	)
	err := q.q.QueryRowContext(ctx,
		"SELECT model, updated_at FROM bot_models WHERE bot = $1 AND opponent = $2", bot, opponent).
		Scan(&model, &updated)
	if err != nil {
		return BotModel{}, notFound(err, fmt.Sprintf("bot model %s vs %s", bot, opponent))
	}
	m.Model, m.UpdatedAt = []byte(model), fromMS(updated)
	return m, nil
}

// ---- player tables

func (q *queries) SavePlayerTable(ctx context.Context, t PlayerTable) error {
	if t.CreatedAt.IsZero() {
		t.CreatedAt = now()
	}
	_, err := q.q.ExecContext(ctx,
		`INSERT INTO player_tables (name, owner_id, config, created_at) VALUES ($1, $2, $3, $4)
		 ON CONFLICT (name) DO UPDATE SET owner_id = excluded.owner_id, config = excluded.config, created_at = excluded.created_at`,
		strings.ToLower(t.Name), t.OwnerID, string(t.Config), ms(t.CreatedAt))
	if err != nil {
		return fmt.Errorf("player table %s: %w", t.Name, err)
	}
	return nil
}

func (q *queries) DeletePlayerTable(ctx context.Context, name string, createdAt time.Time) error {
	if _, err := q.q.ExecContext(ctx, "DELETE FROM player_tables WHERE name = $1 AND created_at = $2", strings.ToLower(name), ms(createdAt)); err != nil {
		return fmt.Errorf("player table %s: %w", name, err)
	}
	return nil
}

func (q *queries) PlayerTables(ctx context.Context) ([]PlayerTable, error) {
	rows, err := q.q.QueryContext(ctx, "SELECT name, owner_id, config, created_at FROM player_tables ORDER BY created_at, name")
	if err != nil {
		return nil, fmt.Errorf("player tables: %w", err)
	}
	defer rows.Close()
	var out []PlayerTable
	for rows.Next() {
		var (
			t       PlayerTable
			config  string
			created int64
		)
		if err := rows.Scan(&t.Name, &t.OwnerID, &config, &created); err != nil {
			return nil, fmt.Errorf("player tables: %w", err)
		}
		t.Config, t.CreatedAt = []byte(config), fromMS(created)
		out = append(out, t)
	}
	return out, rows.Err()
}

// ---- API tokens of players' bots

func (q *queries) PutAPIToken(ctx context.Context, t APIToken) error {
	if t.CreatedAt.IsZero() {
		t.CreatedAt = now()
	}
	if err := q.DeleteAPIToken(ctx, t.UserID); err != nil {
		return err
	}
	_, err := q.q.ExecContext(ctx, "INSERT INTO api_tokens (id, user_id, secret_hash, created_at) VALUES ($1, $2, $3, $4)",
		t.ID, t.UserID, t.SecretHash, ms(t.CreatedAt))
	if err != nil {
		if q.d.unique(err) {
			return fmt.Errorf("api token of user %d: %w", t.UserID, ErrDuplicate)
		}
		return fmt.Errorf("api token of user %d: %w", t.UserID, err)
	}
	return nil
}

func (q *queries) scanAPIToken(row *sql.Row, what string) (APIToken, error) {
	var (
		t       APIToken
		created int64
	)
	if err := row.Scan(&t.ID, &t.UserID, &t.SecretHash, &created); err != nil {
		return APIToken{}, notFound(err, what)
	}
	t.CreatedAt = fromMS(created)
	return t, nil
}

func (q *queries) APIToken(ctx context.Context, id string) (APIToken, error) {
	return q.scanAPIToken(q.q.QueryRowContext(ctx, "SELECT id, user_id, secret_hash, created_at FROM api_tokens WHERE id = $1", id), "api token")
}

func (q *queries) APITokenOf(ctx context.Context, userID int64) (APIToken, error) {
	return q.scanAPIToken(q.q.QueryRowContext(ctx, "SELECT id, user_id, secret_hash, created_at FROM api_tokens WHERE user_id = $1", userID),
		fmt.Sprintf("api token of user %d", userID))
}

func (q *queries) DeleteAPIToken(ctx context.Context, userID int64) error {
	if _, err := q.q.ExecContext(ctx, "DELETE FROM api_tokens WHERE user_id = $1", userID); err != nil {
		return fmt.Errorf("delete api token of user %d: %w", userID, err)
	}
	return nil
}

func (q *queries) BotsOf(ctx context.Context, ownerID int64) ([]User, error) {
	rows, err := q.q.QueryContext(ctx, "SELECT "+userColumns+" FROM users WHERE owner_id = $1 AND deleted_at IS NULL ORDER BY id", ownerID)
	if err != nil {
		return nil, fmt.Errorf("bots of user %d: %w", ownerID, err)
	}
	defer rows.Close()
	var out []User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, fmt.Errorf("bots of user %d: %w", ownerID, err)
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// ---- departures

func (q *queries) PutDeparture(ctx context.Context, d Departure) error {
	_, err := q.q.ExecContext(ctx,
		`INSERT INTO table_departures (table_name, user_id, seat, hand, left_at, expires_at, owes_bb, busted, stack, won, bank_ms, timeouts)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		 ON CONFLICT (table_name, user_id) DO UPDATE SET seat = excluded.seat, hand = excluded.hand, left_at = excluded.left_at,
		 expires_at = excluded.expires_at, owes_bb = excluded.owes_bb, busted = excluded.busted, stack = excluded.stack,
		 won = excluded.won, bank_ms = excluded.bank_ms, timeouts = excluded.timeouts
		 WHERE table_departures.left_at <= excluded.left_at`,
		strings.ToLower(d.Table), d.UserID, d.Seat, d.Hand, ms(d.LeftAt), ms(d.ExpiresAt), d.Owes, d.Busted, d.Stack, d.Won,
		d.Bank.Milliseconds(), d.Timeouts)
	if err != nil {
		return fmt.Errorf("departure of user %d from %s: %w", d.UserID, d.Table, err)
	}
	return nil
}

func (q *queries) DeleteDeparture(ctx context.Context, table string, userID int64) error {
	if _, err := q.q.ExecContext(ctx, "DELETE FROM table_departures WHERE table_name = $1 AND user_id = $2",
		strings.ToLower(table), userID); err != nil {
		return fmt.Errorf("departure of user %d from %s: delete: %w", userID, table, err)
	}
	return nil
}

func (q *queries) Departures(ctx context.Context, table string, now time.Time, limit int) ([]Departure, error) {
	rows, err := q.q.QueryContext(ctx,
		`SELECT table_name, user_id, seat, hand, left_at, expires_at, owes_bb, busted, stack, won, bank_ms, timeouts
		 FROM table_departures WHERE table_name = $1 AND expires_at > $2
		 ORDER BY won DESC, stack DESC, left_at DESC, user_id LIMIT $3`,
		strings.ToLower(table), ms(now), limit)
	if err != nil {
		return nil, fmt.Errorf("departures from %s: %w", table, err)
	}
	defer rows.Close()
	var out []Departure
	for rows.Next() {
		var (
			d                 Departure
			left, expires, bk int64
		)
		if err := rows.Scan(&d.Table, &d.UserID, &d.Seat, &d.Hand, &left, &expires, &d.Owes, &d.Busted, &d.Stack, &d.Won, &bk, &d.Timeouts); err != nil {
			return nil, fmt.Errorf("departures from %s: %w", table, err)
		}
		d.LeftAt, d.ExpiresAt = fromMS(left), fromMS(expires)
		d.Bank = time.Duration(max(min(bk, maxBankMS), -maxBankMS)) * time.Millisecond
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("departures from %s: %w", table, err)
	}
	return out, nil
}

// maxBankMS bounds a time bank read back so that it does not overflow a
// time.Duration (the table bounds it further, to its own full bank).
const maxBankMS = math.MaxInt64 / int64(time.Millisecond)

func (q *queries) DeleteExpiredDepartures(ctx context.Context, now time.Time) (int64, error) {
	res, err := q.q.ExecContext(ctx, "DELETE FROM table_departures WHERE expires_at <= $1", ms(now))
	if err != nil {
		return 0, fmt.Errorf("expired departures: %w", err)
	}
	return res.RowsAffected()
}
