package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"log"
	"net/http"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// natsProbe reads nats-server's message counters from its monitoring
// endpoint (base, e.g. http://127.0.0.1:18222).
func natsProbe(base string) func(map[string]float64) {
	return func(m map[string]float64) {
		c := http.Client{Timeout: 10 * time.Second}
		resp, err := c.Get(base + "/varz")
		if err != nil {
			log.Printf("nats probe: %v", err)
			return
		}
		defer resp.Body.Close()
		var v struct {
			InMsgs   float64 `json:"in_msgs"`
			OutMsgs  float64 `json:"out_msgs"`
			InBytes  float64 `json:"in_bytes"`
			OutBytes float64 `json:"out_bytes"`
			CPU      float64 `json:"cpu"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
			log.Printf("nats probe: %v", err)
			return
		}
		m["nats in_msgs"], m["nats out_msgs"], m["nats in_bytes"], m["nats out_bytes"] = v.InMsgs, v.OutMsgs, v.InBytes, v.OutBytes
	}
}

// pgProbe reads the rows inserted, updated and deleted in each table of
// PostgreSQL's schema (pg_stat_user_tables).
func pgProbe(dsn, schema string) func(map[string]float64) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		log.Fatal(err)
	}
	return func(m map[string]float64) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = db.ExecContext(ctx, "SELECT pg_stat_clear_snapshot()")
		rows, err := db.QueryContext(ctx, "SELECT relname, n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_user_tables WHERE schemaname = $1", schema)
		if err != nil {
			log.Printf("pg probe: %v", err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			var rel string
			var ins, upd, del float64
			if rows.Scan(&rel, &ins, &upd, &del) == nil && ins+upd+del > 0 {
				m["pg "+rel+" inserted"], m["pg "+rel+" updated"], m["pg "+rel+" deleted"] = ins, upd, del
				m["pg rows written"] += ins + upd + del
			}
		}
	}
}
