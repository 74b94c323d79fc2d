// Package ybrules is the YugabyteDB rule pack: MVCC safe-time invariants,
// hybrid-time leader leases and (as they land) Raft and config rules. The
// pack owns a ybstate.State; for each event it checks its rules against the
// state before the event, then folds the event in.
//
// ybrules may import rules, replay/ybstate, parse, parse/yb and
// grammar/ybval; never render or the OS.
package ybrules
