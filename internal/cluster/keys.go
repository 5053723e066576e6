package cluster

import (
	"fmt"
	"strings"
)

// TableKey is the key of a table's name in the buckets and its token in the WAL's
// subjects: the name lower-cased (table names are unique regardless of case), its
// a-z, 0-9, _ and - kept and every other byte written "=XX" (hex), so that any
// name gives a valid key and subject token, and two names never the same.
func TableKey(name string) string {
	var b strings.Builder
	for _, c := range []byte(strings.ToLower(name)) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "=%02x", c)
		}
	}
	return b.String()
}

// RoleKey is the lease key of a role of the house that one node plays at a
// time (AcquireRole): "role." and the role. No table name gives it, since
// TableKey never writes a '.'.
func RoleKey(role string) string { return "role." + role }
