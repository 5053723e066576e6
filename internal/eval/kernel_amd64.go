//go:build amd64 && !purego

package eval

// The two innermost loops of the evaluation workloads, in assembly
// (kernel_amd64.s): Go's compiler keeps the slice and the table addresses of these
// loops in worse shape than a hand-written loop does (docs/performance.md, "Fifth
// pass"). kernel_test.go holds them to rankSevensGo and pairsNoFlushGo on any bytes.

// rankSevens is rankSevensGo in assembly.
//
//go:noescape
func rankSevens(hands []Seven) uint64

// pairsNoFlush is pairsNoFlushGo in assembly.
//
//go:noescape
func pairsNoFlush(key uint64, ps []uint64) uint64
