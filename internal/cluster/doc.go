// Package cluster is what lets several felt nodes form one house: each node's
// connection to NATS JetStream, and on it
//
//   - table ownership leases: a key per table in a key-value bucket whose
//     entries expire TTL after their last write. A node acquires a table's lease
//     by creating the key (only one create of a missing key succeeds), renews it
//     by a compare-and-set on the key's revision, and loses it when it stops
//     renewing (killed, partitioned, paused): the key expires and another node
//     creates it. The revision of the create is the lease's fencing token;
//   - a write-ahead log of each table's hand in play, one subject per table in a
//     stream: the hand's engine configuration (seed included) at its start, then
//     every action before the table applies it. Every append is conditional on
//     the subject's last sequence being the one the writer last saw, and a new
//     owner's first write is a fence record: a stale owner (its lease lost while
//     it slept) has every later write refused (ErrFenced). The engine is
//     deterministic, so the log rebuilds the hand exactly (HandLog.Rebuild);
//   - the house's registry of tables (a bucket without expiry: which tables exist
//     and their settings) and the lobby (a bucket with the lease TTL: each owner
//     lists its tables and keeps the listing fresh), so that any node lists every
//     table of the house;
//   - a keeper per node (Node.Run) that renews the node's leases, refreshes its
//     lobby entries and adopts registered tables whose lease has expired.
//
// docs/scaling.md tells the whole story and what remains to build.
package cluster
