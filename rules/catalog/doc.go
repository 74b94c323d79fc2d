// Package catalog reads the databases' own alarms into findings. The
// alarm catalogue is data, not code: one embedded YAML file per system
// (yb.yaml, es.yaml), checked against schema.json, lists the alarm
// messages the database prints about its invariants (FATAL, DFATAL and
// `Check failed` in YugabyteDB; AssertionError and invariant exceptions in
// Elasticsearch and OpenSearch), each as a message shape with named
// numbers, the invariant family and rule it belongs to, the comparisons
// that hold while the invariant holds, the source file and versions that
// print it, and the upstream issue or fix. A java.lang.AssertionError with
// no message (a bare `assert cond;`) has no shape to read: its entry is
// keyed instead on the frame that threw it (`ReplicationTracker.invariant`).
// A message pasted from a terminal that wrapped it inside a quoted status
// is read with those breaks undone. Users add or override entries with
// their own files (Load, Catalog.Merge).
//
// Pack turns every alarm event (parse.Alarm) into a finding: the entry's
// rule with the numbers read and the broken comparison stated, or, when
// no entry reads the message, the system's alarm/unrecognised rule, so
// logsleuth is never silent when the database raised an alarm.
//
// catalog imports rules, parse and grammar, nothing above them.
package catalog

//go:generate go run ./genbuiltin builtin.gen.json
//go:generate go run ./genphrases ../../parse/yb/catalog_phrases.go
