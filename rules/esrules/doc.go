// Package esrules is the Elasticsearch / OpenSearch rule pack: the
// invariants of sequence numbers, checkpoints, the safe commit and peer
// recovery, checked against replay/esstate. For each event the pack checks
// its rules against the state before the event, then folds the event in;
// rules about what never happened later run in Finish. The pack keeps no
// replayed facts of its own: a recovery's pending suspect commit, whether
// it was shown unsafe, the docs it left out and whether its range was
// checked are esstate's; the pack reads them, decides and reports, and
// keeps only what it reported.
//
// A break ES asserted itself is reported; one replay found is derived; one
// both saw is confirmed.
//
// esrules may import rules, replay/esstate, parse, parse/es and
// grammar/esval; never render or the OS.
package esrules
