//go:build !amd64 || purego

package eval

// rankSevens is rankSevensGo where there is no assembly for it (kernel_amd64.s).
func rankSevens(hands []Seven) uint64 { return rankSevensGo(hands) }

// pairsNoFlush is pairsNoFlushGo where there is no assembly for it.
func pairsNoFlush(key uint64, ps []uint64) uint64 { return pairsNoFlushGo(key, ps) }
