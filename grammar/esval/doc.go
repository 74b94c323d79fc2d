// Package esval reads the values Elasticsearch and OpenSearch print inside
// log messages: translog Checkpoint{...} records of every version, commit
// points and their Java-map user data, SeqNoStats{...} and
// LocalCheckpointState{...}, the one-line shard routing summary
// (ShardRouting.shortSummary) and the node rows of a cluster-state dump.
//
// Three participle grammars cover them, each built on first use: Value
// (Java toString output: `Name{k=v, ...}`, `{k=v}`, `name[...]`), Summary
// (bracket-nested routing rows) and Node (brace-nested node rows). They
// are the grammars of record; hand-written readers of each (fastvalue.go,
// fastrow.go, fastcheckpoint.go) build the same tree, or the same
// Checkpoint, or decline and leave the text to the grammar, and a fuzz
// target holds each to its grammar.
// Typed decoders (CheckpointOf, CommitOf, ShortSummaryOf, NodeOf, ...) turn a
// parse into the numbers and ids rules compare; they reject what the format
// notes say cannot be printed, so a caller can tell a cut or foreign line
// from a real one.
//
// Grammar packages know nothing of lines, files or time: esval must not
// import any other logsleuth package.
package esval
