package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// ---- tournaments

func (q *queries) CreateTournament(ctx context.Context, t Tournament) (Tournament, error) {
	if t.CreatedAt.IsZero() {
		t.CreatedAt = now()
	}
	err := q.q.QueryRowContext(ctx,
		`INSERT INTO tournaments (spec, state, entrants, pool, started_at, elapsed_ms, finished_at, created_at)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
		string(t.Spec), t.State, t.Entrants, t.Pool, nullMS(t.StartedAt), t.Elapsed.Milliseconds(), nullMS(t.FinishedAt), ms(t.CreatedAt)).Scan(&t.ID)
	if err != nil {
		return Tournament{}, fmt.Errorf("create tournament: %w", err)
	}
	return t, nil
}

func (q *queries) UpdateTournament(ctx context.Context, t Tournament) error {
	res, err := q.q.ExecContext(ctx,
		`UPDATE tournaments SET state = $1, entrants = $2, pool = $3, started_at = $4, elapsed_ms = $5, finished_at = $6 WHERE id = $7`,
		t.State, t.Entrants, t.Pool, nullMS(t.StartedAt), t.Elapsed.Milliseconds(), nullMS(t.FinishedAt), t.ID)
	if err == nil {
		if n, _ := res.RowsAffected(); n == 0 {
			err = ErrNotFound
		}
	}
	if err != nil {
		return fmt.Errorf("update tournament %d: %w", t.ID, err)
	}
	return nil
}

const tournamentColumns = "id, spec, state, entrants, pool, started_at, elapsed_ms, finished_at, created_at"

func scanTournament(s interface{ Scan(...any) error }) (Tournament, error) {
	var (
		t                 Tournament
		spec              string
		started, finished sql.NullInt64
		elapsed, created  int64
	)
	if err := s.Scan(&t.ID, &spec, &t.State, &t.Entrants, &t.Pool, &started, &elapsed, &finished, &created); err != nil {
		return Tournament{}, err
	}
	t.Spec, t.StartedAt, t.FinishedAt, t.CreatedAt = []byte(spec), fromNullMS(started), fromNullMS(finished), fromMS(created)
	t.Elapsed = time.Duration(elapsed) * time.Millisecond
	return t, nil
}

func (q *queries) TournamentByID(ctx context.Context, id int64) (Tournament, error) {
	t, err := scanTournament(q.q.QueryRowContext(ctx, "SELECT "+tournamentColumns+" FROM tournaments WHERE id = $1", id))
	if err != nil {
		return Tournament{}, notFound(err, fmt.Sprintf("tournament %d", id))
	}
	return t, nil
}

func (q *queries) Tournaments(ctx context.Context, limit int, states ...string) ([]Tournament, error) {
	if len(states) == 0 {
		return nil, nil
	}
	args := []any{}
	marks := make([]string, len(states))
	for i, s := range states {
		args = append(args, s)
		marks[i] = fmt.Sprintf("$%d", i+1)
	}
	args = append(args, limit)
	rows, err := q.q.QueryContext(ctx, "SELECT "+tournamentColumns+" FROM tournaments WHERE state IN ("+
		strings.Join(marks, ", ")+fmt.Sprintf(") ORDER BY id DESC LIMIT $%d", len(args)), args...)
	if err != nil {
		return nil, fmt.Errorf("tournaments: %w", err)
	}
	defer rows.Close()
	var out []Tournament
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, fmt.Errorf("tournaments: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

func (q *queries) AddTournamentEntry(ctx context.Context, e TournamentEntry) error {
	if e.RegisteredAt.IsZero() {
		e.RegisteredAt = now()
	}
	_, err := q.q.ExecContext(ctx,
		`INSERT INTO tournament_entries (tournament_id, name, user_id, bot, buy_in, stack, table_no, place, prize, registered_at)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		e.TournamentID, e.Name, nullID(e.UserID), nullString(e.Bot), e.BuyIn, e.Stack, e.Table, e.Place, e.Prize, ms(e.RegisteredAt))
	if err != nil {
		if q.d.unique(err) {
			return fmt.Errorf("tournament %d entry %q: %w", e.TournamentID, e.Name, ErrDuplicate)
		}
		return fmt.Errorf("tournament %d entry %q: %w", e.TournamentID, e.Name, err)
	}
	return nil
}

func (q *queries) DeleteTournamentEntry(ctx context.Context, tournamentID, userID int64) error {
	res, err := q.q.ExecContext(ctx, "DELETE FROM tournament_entries WHERE tournament_id = $1 AND user_id = $2", tournamentID, userID)
	if err == nil {
		if n, _ := res.RowsAffected(); n == 0 {
			err = ErrNotFound
		}
	}
	if err != nil {
		return fmt.Errorf("tournament %d entry of user %d: %w", tournamentID, userID, err)
	}
	return nil
}

func (q *queries) UpdateTournamentEntry(ctx context.Context, e TournamentEntry) error {
	res, err := q.q.ExecContext(ctx,
		"UPDATE tournament_entries SET stack = $1, table_no = $2, place = $3, prize = $4 WHERE tournament_id = $5 AND name = $6",
		e.Stack, e.Table, e.Place, e.Prize, e.TournamentID, e.Name)
	if err == nil {
		if n, _ := res.RowsAffected(); n == 0 {
			err = ErrNotFound
		}
	}
	if err != nil {
		return fmt.Errorf("tournament %d entry %q: %w", e.TournamentID, e.Name, err)
	}
	return nil
}

func (q *queries) TournamentEntries(ctx context.Context, tournamentID int64) ([]TournamentEntry, error) {
	rows, err := q.q.QueryContext(ctx,
		`SELECT tournament_id, name, user_id, bot, buy_in, stack, table_no, place, prize, registered_at
		 FROM tournament_entries WHERE tournament_id = $1 ORDER BY registered_at, name`, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("tournament %d entries: %w", tournamentID, err)
	}
	defer rows.Close()
	var out []TournamentEntry
	for rows.Next() {
		var (
			e    TournamentEntry
			user sql.NullInt64
			bot  sql.NullString
			at   int64
		)
		if err := rows.Scan(&e.TournamentID, &e.Name, &user, &bot, &e.BuyIn, &e.Stack, &e.Table, &e.Place, &e.Prize, &at); err != nil {
			return nil, fmt.Errorf("tournament %d entries: %w", tournamentID, err)
		}
		e.UserID, e.Bot, e.RegisteredAt = user.Int64, bot.String, fromMS(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

func (q *queries) TournamentResults(ctx context.Context, userID int64) (TournamentResults, error) {
	var r TournamentResults
	err := q.q.QueryRowContext(ctx,
		`SELECT COUNT(*),
		        COALESCE(SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END), 0),
		        COALESCE(SUM(CASE WHEN prize > 0 THEN 1 ELSE 0 END), 0),
		        CAST(COALESCE(SUM(buy_in), 0) AS BIGINT), CAST(COALESCE(SUM(prize), 0) AS BIGINT)
		 FROM tournament_entries WHERE user_id = $1 AND place > 0`, userID).Scan(&r.Played, &r.Won, &r.Cashed, &r.BuyIns, &r.Prizes)
	if err != nil {
		return TournamentResults{}, fmt.Errorf("tournament results of user %d: %w", userID, err)
	}
	return r, nil
}

func (q *queries) TournamentsEntered(ctx context.Context, userID int64) (int, error) {
	var n int
	err := q.q.QueryRowContext(ctx,
		`SELECT COUNT(*) FROM tournament_entries e JOIN tournaments t ON t.id = e.tournament_id
		 WHERE e.user_id = $1 AND e.place = 0 AND t.state IN ($2, $3)`, userID, TourneyRegistering, TourneyRunning).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("tournaments entered by user %d: %w", userID, err)
	}
	return n, nil
}

func (q *queries) TournamentRankings(ctx context.Context, limit, offset int) ([]TournamentRanked, error) {
	rows, err := q.q.QueryContext(ctx,
		`SELECT u.username, COUNT(*),
		        SUM(CASE WHEN e.place = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN e.prize > 0 THEN 1 ELSE 0 END),
		        CAST(SUM(e.buy_in) AS BIGINT), CAST(SUM(e.prize) AS BIGINT)
		 FROM tournament_entries e JOIN users u ON u.id = e.user_id
		 WHERE e.place > 0 AND u.deleted_at IS NULL
		 GROUP BY u.id, u.username
		 ORDER BY SUM(e.prize) - SUM(e.buy_in) DESC, SUM(CASE WHEN e.place = 1 THEN 1 ELSE 0 END) DESC, u.id
		 LIMIT $1 OFFSET $2`, limit, offset)
	if err != nil {
		return nil, fmt.Errorf("tournament rankings: %w", err)
	}
	defer rows.Close()
	var out []TournamentRanked
	for rows.Next() {
		var r TournamentRanked
		if err := rows.Scan(&r.Name, &r.Played, &r.Won, &r.Cashed, &r.BuyIns, &r.Prizes); err != nil {
			return nil, fmt.Errorf("tournament rankings: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func (q *queries) RegisteredBuyIns(ctx context.Context, userID int64) (int64, error) {
	var sum int64
	err := q.q.QueryRowContext(ctx,
		`SELECT CAST(COALESCE(SUM(e.buy_in), 0) AS BIGINT) FROM tournament_entries e JOIN tournaments t ON t.id = e.tournament_id
		 WHERE e.user_id = $1 AND t.state = $2`, userID, TourneyRegistering).Scan(&sum)
	if err != nil {
		return 0, fmt.Errorf("registered buy-ins of user %d: %w", userID, err)
	}
	return sum, nil
}
