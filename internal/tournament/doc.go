// Package tournament holds the rules of felt's play-money tournaments, as pure
// functions and values with no clock, goroutine or store of their own: the blind
// structure and its levels, the published payout table scaled to the field, the
// order in which busted players finish (simultaneous busts included), and the
// table balancing and breaking plan of a multi-table tournament. The house's live
// runtime (internal/tournament/live) applies them to real tables; docs/rules.md
// states them for players.
package tournament
