// Package store reads logs straight from a log store that scans them on
// its own nodes (VictoriaLogs today), and loads logs into one.
//
// Reading pushes the scan down: the store is asked, per stream (one
// program's log on one host), only for the rows a parser can turn into
// events (Filter, built by each parser from its own keyword tables) in a
// time window, then for the rest of the multi-line records those rows
// belong to (a dump's entries, a FATAL's details, a stack trace) and the
// stream's leading file header, by time range around them. A stream comes
// out as its lines in the stream's order, each with the number it had in
// the file it was shipped from, for the parsers to read at those numbers
// (parse.ScanNumbered): the rows not fetched cost nothing. Memory holds a
// page of rows per stream, not the window.
//
// Loading (Shipper) turns a log file into rows with the fields reading
// relies on: the stream labels, the line's own time, its line number, and
// for a line of a multi-line record the time range of that record.
//
// Store is the interface a store implements: listing streams, returning a
// stream's rows in time order for time ranges and a filter, ingesting
// rows, counting a stream's rows, naming a stream, and saying why rows it
// took may not show. Open picks the store by the URL's scheme, from the
// kinds each store's file registers: VictoriaLogs is vlogs.go, and
// another store (Loki, OpenSearch) is one more file; the command layer
// names none of them.
//
// store may import nothing of logsleuth: the parsers' knowledge comes in
// as functions (System).
package store
