// Package unwrap takes the collector's envelope off log lines, so the
// database parsers see the lines the database wrote: `kubectl logs
// --timestamps` and `--prefix`, CRI node files (with partial lines
// joined), docker json-file records (with 16 KiB splits joined), Loki's
// `logcli` jsonl and default output (newest first put back in time order),
// `journalctl -o json`, short and short-iso, CI step logs, `grep -n`
// and `rg -n --heading` output, Kibana Discover's CSV export (newest
// first too), `> `-quoted and `cat -n` numbered pastes, and any nesting
// of these.
//
// The envelope is detected once per source from its first lines (Detect),
// then each line is stripped by the detected layers alone (Envelope.Strip):
// a line that does not start the way the envelope's lines do fails one
// byte test and passes as it is, so a plain log costs nothing and a mixed
// one still reads. What is stripped off is kept: the collector's time
// (the collection time, not the log's own) and the stream where the
// collector names it. The position of a line stays the envelope line's
// own, the line a user can open in the file they hold, except in a
// listing that names each line's file and line (grep -rn, rg --heading):
// those are cited, and the caller reads each file apart, as it does each
// stream of a Loki listing of several and a container's stdout beside
// its stderr.
//
// Whether a listing (Loki's, Kibana's) is newest first is told by the
// collector's times, and where they tie (logcli prints whole seconds) by
// the lines' own order: the database's timestamps, a glog file header, a
// numbered dump, where a multi-line record starts; the note says which
// told it. An untimed line (a Kibana row's message of several lines)
// stays with the row before it, and its order does not vote.
//
// Strip is pure and safe from several goroutines; the two steps that need
// state, joining partial lines (Joiner) and restoring the order of a
// newest-first listing (Reorder), are small values used by one goroutine.
//
// unwrap reads no file, clock or environment, and imports nothing of
// logsleuth.
package unwrap
