// Package distrib shares the deals of arena matches, leagues and LBR runs among
// worker processes on any number of machines through a NATS JetStream work
// queue, with the result of the same run on one machine, bit for bit.
//
// A coordinator (Conn.Match, Conn.LBR; a league or gauntlet takes Conn.Match as
// its arena.MatchFunc) cuts a run's deals into items of consecutive deals, each
// carrying the run's whole specification (bots, game, format, seed, options),
// and publishes them on the work stream, one subject per run. Workers (Conn.Work,
// felt worker) pull items one at a time from the stream's one durable consumer,
// play their deals with the arena's own code (arena.DealPlayer, lbr.DealPlayer)
// and publish each deal's outcome, in deal order, on the results stream under
// the run's subject; only then do they acknowledge the item. The coordinator adds
// up the outcomes (arena.Totals, lbr.Totals: integer sums, in chips and in 1/16
// chips for the control variate, so the order of arrival changes nothing) and
// computes the result once from them, as the local run does.
//
// Adversaries:
//   - a worker that dies mid-item stops telling the server it is still at work
//     (it does every AckWait/3): the item is given to another worker AckWait
//     later. A worker that leaves on purpose (ctx cancelled) gives its item back
//     at once. A result may so come twice (a worker that dies between publishing
//     and acknowledging): the coordinator counts the first and ignores the rest;
//   - a worker of another felt build (Build: version, commit and architecture)
//     or one that cannot make a bot of the run refuses the item: it tells the
//     coordinator, which logs it once per worker and reason, and gives the item
//     back with a delay for another worker. A deal that fails (a bot's illegal
//     action, a panic) fails the run, with the worker's error, as it would on
//     one machine;
//   - a message that is not an item or a result is logged and dropped;
//   - a coordinator that dies leaves its run's key in the runs bucket to
//     expire (runTTL): workers then drop the run's remaining items unplayed.
//     Started again, a coordinator begins a new run (a new id; results of the
//     old one are never counted). A coordinator that stops on purpose removes
//     its key and its items at once.
//
// Bots that learn from the hands they play (bot.Learner) are refused: their
// results depend on which deals each process played before, on one machine too.
package distrib
