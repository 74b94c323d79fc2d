// Package synth generates large, realistic, deterministic logs for
// benchmarks and load tests: YugabyteDB tserver INFO logs of several peers
// with the noise real ones carry (WAL segment rolls, flushes, compactions,
// heartbeats, long operations, Raft chatter) and a few embedded incidents,
// and Elasticsearch TRACE test-cluster logs with op, checkpoint and
// recovery lines. The same options and seed give the same bytes.
package synth
