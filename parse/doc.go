// Package parse owns the contract between logs and the rest of logsleuth:
// positions (source:line), wall times, the Event interface every typed event
// implements, diagnostics for lines a parser claims but cannot read, and the
// Scan loop that splits a byte stream into lines and offers each to the
// systems' decoders.
//
// One subpackage per database system (parse/yb, parse/es) turns that
// system's lines into its typed events. Nothing here opens files, reads the
// environment or the clock: callers hand Scan an io.Reader and a name; Scan
// takes a collector's envelope off the lines (package unwrap) before the
// decoders see them. parse may import grammar packages and unwrap, and
// nothing else of logsleuth.
package parse
