// Package synth generates large, realistic, deterministic logs for
// benchmarks and load tests: YugabyteDB tserver logs of several peers
// with the noise real ones carry, drawn from a table of the messages the
// YugabyteDB sources log (ybnoise.go: WAL segment rolls and GC, RocksDB
// flushes and compactions, heartbeats, slow operations, and the consensus
// files' chatter of elections, queues and peers that is no Raft event),
// Raft elections at a set density, and a few embedded incidents,
// and Elasticsearch TRACE test-cluster logs with op, checkpoint and
// recovery lines. The same options and seed give the same bytes.
package synth
