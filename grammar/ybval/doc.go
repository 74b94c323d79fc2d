// Package ybval reads the values YugabyteDB prints inside log messages:
// hybrid times, op ids, MonoDelta and CoarseTimePoint renderings, and the
// nested `{ key: value ... }` structs its YB_STRUCT_TO_STRING macro and
// protobuf text format produce.
//
// The syntax is one participle grammar (Value), built on first use: the
// grammar of record. A hand-written lexer (fastlex.go) and parser
// (fastparse.go) read the same grammar to the same tree, and hand-written
// readers take the common renderings of hybrid times and op ids
// (fastht.go) without a tree; each declines what it does not read exactly
// as the grammar would, and a fuzz target holds each to the grammar.
// Typed decoders (HybridTimeOf, OpIDOf, ...) turn a parsed Value into the
// numbers rules compare. The package must not import other logsleuth packages.
package ybval
