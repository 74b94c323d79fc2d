// Package yb reads YugabyteDB tserver and master logs: the glog envelope
// (and the FATAL-details form, and excerpts pasted without it), the log
// prefixes that name a tablet replica, and the messages that matter for
// MVCC safe time, Raft terms and leader leases. It turns them into the typed
// events in events.go, and every alarm the database raised that no reader
// turns into one of those into a yb.alarm (alarm.go), so none is lost.
//
// Every line passes a cheap byte test before any grammar runs; participle
// (through grammar/ybval) sees only the values of lines already selected.
// A number out of the range YugabyteDB can print is a diagnostic and a
// field marked unread, never a wrapped value. glog prints no year: it
// comes from the header, --year, a FATAL-details line, the collector's
// timestamps or the hybrid times of the same source (year.go).
// yb may import parse and grammar/ybval, nothing else of logsleuth.
package yb
