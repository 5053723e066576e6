// Package blueprint holds the strategies built into felt: hulhe.pack, a
// heads-up limit Hold'em strategy trained by felt's own CFR code, which the cfr
// bot plays when given no strategy file.
//
// hulhe.pack is cfr's packed format (cfr.ReadPacked: probabilities in 255ths,
// gzip) of the average strategy of external-sampling MCCFR after 30,000,000
// iterations, seed 1, two traversal streams, uniform averaging, in the default
// abstraction: the 169 starting hands, 50 flop, 50 turn and 50 river buckets
// (fingerprint 929a0c2c805b8e5e; 319,852 information sets). The command that
// rebuilds it, bit for bit (from the repository's root; the first run builds
// the abstraction file, about a minute, and later runs read it):
//
//	nice -n 10 go run ./cmd/felt train hulhe --iterations 30000000 --seed 1 --threads 2 \
//	  --deals 0 --no-progress --json --abstraction hulhe-50-50-50.abs \
//	  --pack internal/cfr/blueprint/hulhe.pack
//
// It took about 9 CPU-minutes of training (29 minutes of wall time on a shared
// 2-core machine); the abstraction's build, the same every time, comes before.
// --iterations (not --time) makes the run reproducible: MCCFR's batches and
// random streams depend on the iteration count and the seed only, and a run
// stopped with Ctrl-C and resumed with --resume FILE gives the same strategy.
// docs/cfr.md says how good the strategy is; TestPackSize fails if the file
// grows past MaxPackBytes (16 MB).
package blueprint
