package es

import (
	"strings"
	"time"
)

// What a log store needs to know of Elasticsearch and OpenSearch lines to
// scan its own copy of them, so that only the lines this package can read
// travel to logsleuth: which lines to select, which lines open a new log
// record (the lines after one that do not are the rest of its message:
// a stack trace, a dump, a commit list), and each line's own time.
//
// The decoder's tests are code (a switch over message shapes), not a
// table, so storePhrases lists a phrase for each of them, grouped as the
// code is; TestStorePhrasesCoverDecoder reads the decoder's source and
// fails, naming the test, when a shape the decoder claims lines by holds
// none of these phrases, so the list cannot fall behind the decoder.
var storePhrases = []string{
	// message: the shapes of log messages the readers turn into events.
	"seq_no_stats mismatch",
	"index [", "index-done [", "delete [", "noop (",
	"detected new primary with primary term",
	"state: [",
	"is too old (current [",
	"Checkpoint{",
	"checkpoint",
	"preparing shard for peer recovery",
	"preparing for file-based recovery from",
	"preparing for sequence-number-based recovery",
	"starting recovery from ",
	"recovery done from ",
	"peer recovery existing commits",
	"Safe commit [",
	"Delete index commit [",
	"as in-sync",
	"SeqNoStats{",
	"LocalCheckpointState{",
	"primary-replica resync completed with ",
	"sending batch of [",
	"resync completed",
	"added {{",
	"disrupting (",
	"] indexed via node [",
	"was processed twice",
	"translog replay failed to cover required sequence numbers",
	"with sync id but number of docs differ",
	"] creating index, cause [", "] deleting index",
	// recoverySource: every line of the recovery source's handler
	// carries the `[recover to NODE]` marker.
	"recover to ",
	// The decoder's own blocks: exceptions and their causes, cluster-state
	// dumps (nodes, routing table and routing nodes rows) and node rows.
	"Exception", "Error", "exception in thread",
	"nodes:", "routing_table (version ", "routing_nodes:",
	"--------[", "-- index [", "----shard_id [", "-----node_id[", "---- unassigned",
	"}{",
}

// StorePhrases returns the phrases of which every line the decoder reads
// outside a multi-line record holds one.
func StorePhrases() []string {
	out := append([]string(nil), storePhrases...)
	// The messages ES logs as alarms, whatever exception follows.
	out = append(out, RaisedFailedEngine, RaisedFatalError)
	for _, a := range loggedAlarms {
		out = append(out, a.text)
	}
	return out
}

// StorePatterns returns RE2 patterns for lines wanted whatever their
// words; Elasticsearch has none.
func StorePatterns() []string { return nil }

// OpensRecord reports whether line starts a new log record: a log4j
// pattern-layout line (`[yyyy-...`) or a JSON layout record, after any
// indentation or test-runner prefix. Lines that do not are the rest of a
// multi-line message: exception lines and stack frames, dump rows.
func OpensRecord(line []byte) bool {
	s := stripRunner(string(line))
	return isPatternStart(s) || strings.HasPrefix(s, `{"`)
}

// Clock reads the wall time of the lines of one log. Elasticsearch
// prints full dates, so it keeps no state; it is a type so both systems'
// clocks are used the same way.
type Clock struct{}

// NewClock returns a clock for one log.
func NewClock() *Clock { return &Clock{} }

// Time returns line's own time, as the decoder reads it (a time without
// an offset is read as UTC), and false for a line that prints none.
func (*Clock) Time(line []byte) (time.Time, bool) {
	s := stripRunner(string(line))
	switch {
	case isPatternStart(s):
		if env, ok, _ := parsePattern(s, nil); ok && env.timed {
			return env.time.UTC(), true
		}
	case strings.HasPrefix(s, `{"`):
		if env, ok, bad := parseJSON(s); ok && bad == "" && env.timed {
			return env.time.UTC(), true
		}
	}
	return time.Time{}, false
}
