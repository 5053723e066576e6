// Package storetest opens throwaway stores for tests: SQLite in a temporary
// directory always, and PostgreSQL when FELT_TEST_POSTGRES names a database.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"net/url"
	"os"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, to make and drop schemas

	"github.com/felt-poker/felt/internal/store"
)

// PostgresEnv is the environment variable holding the URL of a PostgreSQL database
// the tests may use, postgres://user:password@host:port/db?options (each test works
// in a schema of its own and drops it).
const PostgresEnv = "FELT_TEST_POSTGRES"

// SQLite opens a fresh SQLite store in a temporary directory, closed at the end of t.
func SQLite(t testing.TB) store.Store {
	t.Helper()
	s, err := store.OpenSQLite(context.Background(), t.TempDir()+"/felt.db")
	if err != nil {
		t.Fatalf("open sqlite: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Postgres opens a store in a fresh schema of the database named by FELT_TEST_POSTGRES,
// dropped at the end of t. Without FELT_TEST_POSTGRES it skips t, or fails it when
// CI=true: CI must run the PostgreSQL tests.
func Postgres(t testing.TB) store.Store {
	t.Helper()
	s, err := store.OpenPostgres(context.Background(), PostgresDSN(t))
	if err != nil {
		t.Fatalf("open postgres: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// PostgresDSN makes a fresh schema in the database named by FELT_TEST_POSTGRES,
// dropped at the end of t, and returns the URL that works in it (for felt
// processes a test starts). Without FELT_TEST_POSTGRES it skips t, or fails it
// when CI=true.
func PostgresDSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(PostgresEnv)
	if dsn == "" {
		const why = PostgresEnv + " is unset: set it to a PostgreSQL DSN (postgres://user:pass@host/db) to run the PostgreSQL store tests"
		if os.Getenv("CI") == "true" {
			t.Fatal(why + " (CI=true: these tests must run in CI)")
		}
		t.Skip(why)
	}
	ctx := context.Background()
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatalf("open %s: %v", PostgresEnv, err)
	}
	defer admin.Close()
	schema := "felt_test_" + strings.ToLower(rand.Text()[:12])
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer db.Close()
		if _, err := db.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("%s: %v", PostgresEnv, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Each runs f as a subtest against every backend: "sqlite" always, "postgres" when
// FELT_TEST_POSTGRES is set (see Postgres for what happens when it is not).
func Each(t *testing.T, f func(t *testing.T, s store.Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { f(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { f(t, Postgres(t)) })
}
