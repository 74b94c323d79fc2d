// Package ybval reads the values YugabyteDB prints inside log messages:
// hybrid times, op ids, MonoDelta and CoarseTimePoint renderings, and the
// nested `{ key: value ... }` structs its YB_STRUCT_TO_STRING macro and
// protobuf text format produce.
//
// The syntax is one participle grammar (Value), built once at package level.
// Typed decoders (HybridTimeOf, OpIDOf, ...) turn a parsed Value into the
// numbers rules compare. The package must not import other logsleuth packages.
package ybval
