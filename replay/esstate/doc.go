// Package esstate folds Elasticsearch / OpenSearch events into per-shard,
// per-copy state (a copy is keyed by the node id that holds it, resolved
// from the node name a line prints through the node lines, and found by
// its allocation id where a line prints one): which copy is primary under which routing version, the
// primary term, each copy's operation history (seq# -> doc, term), local
// and global checkpoints, max seq#, the index commits a copy is known to
// hold and which of them should already have been deleted, its peer
// recoveries, and the operations it may still hold from a history the
// cluster abandoned at a failover; what replay learns of each recovery's
// starting commit (a suspect stale commit pending until a line shows the
// choice, a recovery shown to start from a commit it must not use, the
// docs such a start left out); and each index by incarnation (an index
// deleted and created again under its name is another index).
//
// The fold is pure: Apply takes time only from events, never reads files,
// the environment or the clock, and iterates maps in sorted order, so the
// same events give the same state and the same printout.
//
// esstate may import parse, parse/es and grammar/esval; never rules,
// render or the OS.
package esstate
