package store

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Store is a log store that keeps logs as rows in streams and scans them
// itself. Every store can list streams, return a stream's rows in time
// order for some time ranges and a filter, and ingest rows; that is all
// reading and loading need, so another store (Loki, Elasticsearch) is one
// more file: an implementation of these methods and a call to register
// for its URL scheme. Nothing outside this package names a store.
type Store interface {
	// Streams lists the streams with rows that the selector (a filter in
	// the store's own query language; "" selects everything), the window
	// and the filter all select, with how many rows each holds that they
	// select and the times of the first and last of them.
	Streams(ctx context.Context, selector string, window Range, f Filter) ([]Stream, error)
	// Rows returns the rows of one stream that the query selects, sorted
	// by time; with a Limit, the earliest Limit of them.
	Rows(ctx context.Context, q Query) ([]Row, error)
	// Ingest stores rows. A store may drop rows it will not keep (rows
	// older than its retention): Count says what it kept.
	Ingest(ctx context.Context, rows []Row) error
	// Flush makes the rows ingested so far visible to queries, where the
	// store would otherwise show them a while later.
	Flush(ctx context.Context) error
	// StreamName is the name the store gives the stream with these labels
	// (its Stream.Name once it holds rows).
	StreamName(labels map[string]string) string
	// Count returns how many rows the stream with these labels holds.
	Count(ctx context.Context, labels map[string]string) (int64, error)
	// WhyMissing says, for a message, why the store may show fewer rows
	// than it took without an error (rows older than its retention, say)
	// and how to keep them; oldest is the time of the oldest row sent.
	WhyMissing(oldest time.Time) string
	// Check reports whether the store answers.
	Check(ctx context.Context) error
	// BytesRead is how many bytes of answers the store has sent.
	BytesRead() int64
	// Describe returns the query Streams sends for these arguments, in the
	// store's own language, for messages and for the user to paste into
	// the store's UI.
	Describe(selector string, window Range, f Filter) string
	// String names the store as the user gave it (vlogs://host:9428).
	String() string
}

// kind is one kind of store: the URL schemes that name it and how to
// open one.
type kind struct {
	schemes []string
	form    string // the URL's shape, for messages: vlogs://HOST:PORT
	open    func(raw string) (Store, error)
}

// kinds are the stores there are, each registered by its own file.
var kinds []kind

// register adds a kind of store; form is its URL's shape for messages.
func register(form string, open func(raw string) (Store, error), schemes ...string) {
	kinds = append(kinds, kind{schemes: schemes, form: form, open: open})
}

func kindOf(s string) (kind, bool) {
	for _, k := range kinds {
		for _, sc := range k.schemes {
			if strings.HasPrefix(s, sc+"://") {
				return k, true
			}
		}
	}
	return kind{}, false
}

// IsURL reports whether s names a log store rather than a path.
func IsURL(s string) bool {
	_, ok := kindOf(s)
	return ok
}

// Forms lists the shapes of the URLs that name a store, for messages:
// "vlogs://HOST:PORT".
func Forms() string {
	var out []string
	for _, k := range kinds {
		out = append(out, k.form)
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// Open returns the store a URL names.
func Open(raw string) (Store, error) {
	k, ok := kindOf(raw)
	if !ok {
		return nil, fmt.Errorf("%s: not a log store; want %s", raw, Forms())
	}
	return k.open(raw)
}

// Stream is one log stream: one program's log on one host, as the store
// labels it.
type Stream struct {
	// ID is the store's own id of the stream, used to query it.
	ID string
	// Name is the stream as the store prints it ({file="x",host="a"} for
	// VictoriaLogs): the source name of the stream's lines, which the
	// store's UI takes back as a stream filter.
	Name string
	// Rows, First and Last are what Streams counted: the rows selected and
	// the times of the first and last of them.
	Rows        int64
	First, Last time.Time
}

// Range is a closed time range; a zero end is unbounded.
type Range struct{ From, To time.Time }

// Contains reports whether t is in r.
func (r Range) Contains(t time.Time) bool {
	return (r.From.IsZero() || !t.Before(r.From)) && (r.To.IsZero() || !t.After(r.To))
}

// Filter selects rows by their text: a row matches when it contains one of
// the phrases (as bytes, case and all) or matches one of the patterns (RE2).
// An empty filter selects every row. Phrases and patterns come from the
// parsers (System), so a store never needs to know a log format.
type Filter struct {
	Phrases  []string
	Patterns []string
}

// Empty reports whether f selects every row.
func (f Filter) Empty() bool { return len(f.Phrases) == 0 && len(f.Patterns) == 0 }

// Matcher returns f's test of a row's text, for stores that filter on the
// client side and for tests; it panics on a pattern that is not RE2, as
// the parsers' patterns are constants.
func (f Filter) Matcher() func(text string) bool {
	if f.Empty() {
		return func(string) bool { return true }
	}
	res := make([]*regexp.Regexp, len(f.Patterns))
	for i, p := range f.Patterns {
		res[i] = regexp.MustCompile(p)
	}
	phrases := f.Phrases
	return func(text string) bool {
		for _, p := range phrases {
			if strings.Contains(text, p) {
				return true
			}
		}
		for _, re := range res {
			if re.MatchString(text) {
				return true
			}
		}
		return false
	}
}

// Row is one stored log line.
type Row struct {
	Time time.Time
	// Text is the line (a store may hold a whole multi-line record in
	// one row: its lines are read one by one).
	Text string
	// Line is the line's number in the file it was loaded from, or 0
	// when the row carries none.
	Line int64
	// Record is set on each line of a multi-line record loaded by Loader:
	// the times of the record's first and last lines, so that reading
	// can fetch a whole record from any line of it.
	Record Range
	// Labels are the stream's labels, set for Ingest.
	Labels map[string]string
}

// Query asks for some rows of one stream.
type Query struct {
	Stream Stream
	// Ranges: rows in any of them; none means all times.
	Ranges []Range
	// Filter: rows it selects; an empty filter selects all.
	Filter Filter
	// Limit, when above 0, keeps the earliest Limit rows.
	Limit int
}

// System is what one parser tells a store reader: the filter its byte
// tests imply, and which lines open a new record (the lines after one
// that do not are the rest of its message).
type System struct {
	Name        string
	Filter      Filter
	OpensRecord func(line []byte) bool
}
