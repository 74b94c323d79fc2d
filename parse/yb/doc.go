// Package yb reads YugabyteDB tserver and master logs: the glog envelope
// (and the FATAL-details form, and excerpts pasted without it), the log
// prefixes that name a tablet replica, and the messages that matter for
// MVCC safe time, Raft terms and leader leases. It turns them into the typed
// events in events.go.
//
// Every line passes a cheap byte test before any grammar runs; participle
// (through grammar/ybval) sees only the values of lines already selected.
// yb may import parse and grammar/ybval, nothing else of logsleuth.
package yb
