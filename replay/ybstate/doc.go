// Package ybstate replays YugabyteDB events into per-replica state: the
// MvccManager's pending queue, last replicated time, propagated safe time,
// the safe times already served (with lease, without, for followers), the
// hybrid-time lease and the last op id; the Raft term and role each peer
// logged; the cross-peer Raft view (Raft: leaders per term, votes, leases,
// revocations, elections); each tablet's Raft config and remote bootstrap
// history (Configs); and the writes leaders made at a hybrid time. State
// holds all of them and State.Apply folds every event into each, so the
// rule packs only read state and decide. Apply is a pure fold: the same
// events give the same state.
//
// Memory follows what later lines can still contradict, not the input: a
// long MVCC dump arrives and is folded in parts, a tablet keeps per peer,
// term and kind the lowest-ht writes, the readable timelines share one
// row budget, and Compaction drops a tablet's old terms once a rule pack
// has judged them.
//
// ybstate may import parse, parse/yb and grammar/ybval; never rules,
// render or the OS.
package ybstate
