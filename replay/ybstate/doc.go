// Package ybstate replays YugabyteDB events into per-replica state: the
// MvccManager's pending queue, last replicated time, propagated safe time,
// the safe times already served (with lease, without, for followers), the
// hybrid-time lease and the last op id; and the Raft term and role each
// peer logged. Apply is a pure fold: the same events give the same state.
//
// ybstate may import parse, parse/yb and grammar/ybval; never rules,
// render or the OS.
package ybstate
