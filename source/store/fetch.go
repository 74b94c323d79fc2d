package store

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// Reader reads the streams a selector picks out of a store, each as the
// text of its selected lines.
type Reader struct {
	Store Store
	// Selector is the user's stream or field filter, in the store's
	// language.
	Selector string
	// Window bounds the rows' times; a zero end is unbounded.
	Window Range
	// Systems are the parsers whose lines are wanted.
	Systems []System
	// PageRows is how many rows one request returns at most (default
	// 4096). It bounds the memory a stream holds.
	PageRows int
	// Requests bounds the requests in flight across all streams (default
	// 2): a store serves few at once and queues the rest, and a stream
	// holds no request open while its lines wait to be read.
	Requests int
	// OnRows, when set, is told of every page received: rows and the
	// lines of text they held. It is called from several goroutines.
	OnRows func(rows int)

	sem     chan struct{}
	queries atomic.Int64
	rows    atomic.Int64
}

// Stats counts what a Reader asked and received.
type Stats struct {
	Queries int64
	Rows    int64
}

// Stats returns the counts so far.
func (r *Reader) Stats() Stats { return Stats{Queries: r.queries.Load(), Rows: r.rows.Load()} }

// Filter is the union of the systems' filters: what is pushed down.
func (r *Reader) Filter() Filter {
	var f Filter
	for _, s := range r.Systems {
		f.Phrases = append(f.Phrases, s.Filter.Phrases...)
		f.Patterns = append(f.Patterns, s.Filter.Patterns...)
	}
	slices.Sort(f.Phrases)
	f.Phrases = slices.Compact(f.Phrases)
	return f
}

// Query is the query that picks the streams, in the store's language.
func (r *Reader) Query() string { return r.Store.Describe(r.Selector, r.Window, r.Filter()) }

// Streams lists the streams with rows the push-down filter selects in the
// window, in name order. It must be called, once, before Open.
func (r *Reader) Streams(ctx context.Context) ([]Stream, error) {
	n := r.Requests
	if n <= 0 {
		n = 2
	}
	r.sem = make(chan struct{}, n)
	r.queries.Add(1)
	ss, err := r.Store.Streams(ctx, r.Selector, r.Window, r.Filter())
	if err != nil {
		return nil, err
	}
	slices.SortFunc(ss, func(a, b Stream) int { return strings.Compare(a.Name, b.Name) })
	return ss, nil
}

func (r *Reader) pageRows() int {
	if r.PageRows > 0 {
		return r.PageRows
	}
	return 4096
}

// rowsOf runs one query under the request limit.
func (r *Reader) rowsOf(ctx context.Context, q Query) ([]Row, error) {
	if r.sem == nil {
		panic("store: Reader.Open before Reader.Streams")
	}
	select {
	case r.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	rows, err := r.Store.Rows(ctx, q)
	<-r.sem
	r.queries.Add(1)
	r.rows.Add(int64(len(rows)))
	if r.OnRows != nil {
		r.OnRows(len(rows))
	}
	return rows, err
}

// Open returns the stream's selected lines: the stream's leading file
// header, then each selected row with the rest of its record, in the
// stream's order, each with the line number it carries. It fetches a page
// at a time as the lines are read, so what it holds is a page's rows and
// their records, however far apart their numbers.
func (r *Reader) Open(ctx context.Context, s Stream) *StreamText {
	sr := &StreamText{r: r, s: s, ctx: ctx, filter: r.Filter()}
	sr.from = s.First
	if !r.Window.From.IsZero() && sr.from.Before(r.Window.From) {
		sr.from = r.Window.From
	}
	sr.until = s.Last
	if !r.Window.To.IsZero() && sr.until.After(r.Window.To) {
		sr.until = r.Window.To
	}
	sr.span = time.Second
	if s.Rows > 0 && s.Last.After(s.First) {
		sr.span = max(time.Duration(float64(s.Last.Sub(s.First))*float64(r.pageRows())/float64(s.Rows)/2), time.Microsecond)
	}
	return sr
}

// rowKey orders a stream's rows: by time, then line number, then text,
// as a store keeps no order among rows of equal time.
func rowKey(a, b *Row) int {
	if c := a.Time.Compare(b.Time); c != 0 {
		return c
	}
	if a.Line != b.Line {
		if a.Line < b.Line {
			return -1
		}
		return 1
	}
	return strings.Compare(a.Text, b.Text)
}

// Heuristic bounds for rows loaded by other tools, which carry no record
// range: a record's lines are looked for within contextStart of a
// selected row, then twice as far, up to contextMax.
const (
	contextStart = time.Millisecond
	contextMax   = time.Second
	// maxRangesPerQuery keeps a query under the 16 KiB a store takes by
	// default (VictoriaLogs' -search.maxQueryLen).
	maxRangesPerQuery = 120
	// maxRowsAtOneTime bounds the rows fetched for one instant when a page
	// is all one time.
	maxRowsAtOneTime = 1 << 20
)

// StreamText is one stream's selected lines, read one by one with Next.
type StreamText struct {
	r      *Reader
	s      Stream
	ctx    context.Context
	filter Filter

	from, until time.Time
	span        time.Duration
	started     bool
	hasHeader   bool
	done        bool
	err         error

	// numbered is set once a row carried a line number: the stream was
	// loaded with them, and rows without a record range are one-line
	// records.
	numbered bool
	// last is the last row written.
	last    Row
	hasLast bool

	// out holds the rows fetched and not read yet, in order.
	out []Row
}

// Next returns the stream's next line: the line number its row carries
// (0 for a row loaded without one: the line after the one before) and its
// text, which holds line ends where the store kept a multi-line record in
// one row; an empty text inside a record stands for the empty lines there.
// It returns io.EOF after the last line.
func (sr *StreamText) Next() (line int64, text string, err error) {
	for len(sr.out) == 0 {
		if sr.err != nil {
			return 0, "", sr.err
		}
		if sr.done {
			return 0, "", io.EOF
		}
		if err := sr.fill(); err != nil && sr.err == nil {
			sr.err = fmt.Errorf("%s: %w", sr.s.Name, err)
		}
	}
	r := sr.out[0]
	sr.out[0] = Row{}
	sr.out = sr.out[1:]
	return r.Line, r.Text, nil
}

// Header fetches the stream's leading file header, if it has one, and
// reports whether it has. Next does so first when Header was not called.
func (sr *StreamText) Header() (bool, error) {
	if sr.started {
		return sr.hasHeader, nil
	}
	sr.started = true
	rows, err := sr.header()
	if err != nil {
		err = fmt.Errorf("%s: %w", sr.s.Name, err)
		sr.err = err
		return false, err
	}
	sr.hasHeader = len(rows) > 0
	sr.write(rows)
	return sr.hasHeader, nil
}

// fill fetches the next page and writes its rows.
func (sr *StreamText) fill() error {
	if !sr.started {
		_, err := sr.Header()
		return err
	}
	if sr.from.After(sr.until) {
		sr.done = true
		return nil
	}
	n := sr.r.pageRows()
	to := sr.from.Add(sr.span)
	if to.After(sr.until) || to.Before(sr.from) {
		to = sr.until
	}
	hits, err := sr.r.rowsOf(sr.ctx, Query{Stream: sr.s, Ranges: []Range{{sr.from, to}}, Filter: sr.filter, Limit: n + 1})
	if err != nil {
		return err
	}
	if len(hits) > n {
		// The page is full: keep the rows before the last time it
		// reached, whose rows may go on past it, and start there next.
		cut := hits[n].Time
		i := 0
		for i < len(hits) && hits[i].Time.Before(cut) {
			i++
		}
		hits = hits[:i]
		if len(hits) == 0 {
			// A page all of one instant: take that instant whole.
			hits, err = sr.r.rowsOf(sr.ctx, Query{Stream: sr.s, Ranges: []Range{{cut, cut}}, Filter: sr.filter, Limit: maxRowsAtOneTime + 1})
			if err != nil {
				return err
			}
			if len(hits) > maxRowsAtOneTime {
				return fmt.Errorf("more than %d rows at %s", maxRowsAtOneTime, cut.Format(time.RFC3339Nano))
			}
			sr.from = cut.Add(time.Nanosecond)
		} else {
			sr.from = cut
		}
		sr.span = max(sr.span/2, time.Microsecond)
	} else {
		sr.from = to.Add(time.Nanosecond)
		if len(hits) < n/4 {
			sr.span *= 2
		}
	}
	rows, err := sr.withRecords(hits)
	if err != nil {
		return err
	}
	sr.write(rows)
	return nil
}

// header returns the stream's leading record when it is not a log line
// (a glog file header): the parsers read the year from it.
func (sr *StreamText) header() ([]Row, error) {
	first, err := sr.r.rowsOf(sr.ctx, Query{Stream: sr.s, Ranges: []Range{{To: sr.until}}, Limit: 1})
	if err != nil || len(first) == 0 {
		return nil, err
	}
	h := first[0]
	if h.Line > 0 {
		sr.numbered = true
	}
	if !h.Record.From.IsZero() {
		rows, err := sr.r.rowsOf(sr.ctx, Query{Stream: sr.s, Ranges: []Range{h.Record}})
		return leading(rows, sr.opens), err
	}
	if sr.numbered || sr.opens(h.Text) {
		return nil, nil
	}
	rows, err := sr.r.rowsOf(sr.ctx, Query{Stream: sr.s, Ranges: []Range{{To: sr.until}}, Limit: 64})
	return leading(rows, sr.opens), err
}

// leading is the run of rows before the first that opens a record.
func leading(rows []Row, opens func(string) bool) []Row {
	for i, r := range rows {
		if opens(r.Text) {
			return rows[:i]
		}
	}
	return rows
}

func (sr *StreamText) opens(text string) bool {
	first, _, _ := strings.Cut(text, "\n")
	b := []byte(first)
	for _, s := range sr.r.Systems {
		if s.OpensRecord != nil && s.OpensRecord(b) {
			return true
		}
	}
	return false
}

// withRecords adds to a page of selected rows the rest of the records they
// belong to.
func (sr *StreamText) withRecords(hits []Row) ([]Row, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	for _, h := range hits {
		if h.Line > 0 {
			sr.numbered = true
			break
		}
	}
	if sr.numbered {
		return sr.loadedRecords(hits)
	}
	return sr.guessedRecords(hits)
}

// loadedRecords fetches the records of rows that carry their record's
// time range.
func (sr *StreamText) loadedRecords(hits []Row) ([]Row, error) {
	var ranges []Range
	for _, h := range hits {
		if !h.Record.From.IsZero() {
			ranges = append(ranges, h.Record)
		}
	}
	ranges = mergeRanges(ranges, 0)
	rows := hits
	for len(ranges) > 0 {
		k := min(len(ranges), maxRangesPerQuery)
		got, err := sr.r.rowsOf(sr.ctx, Query{Stream: sr.s, Ranges: ranges[:k]})
		if err != nil {
			return nil, err
		}
		rows = append(rows, got...)
		ranges = ranges[k:]
	}
	return rows, nil
}

// guessedRecords finds the records of rows loaded by other tools by time:
// the rows around each selected row, within a window doubled until a row
// that opens a record is seen before it (unless it opens one itself) and
// after it, or the window reaches contextMax.
func (sr *StreamText) guessedRecords(hits []Row) ([]Row, error) {
	type want struct {
		hit       Row
		back, fwd bool // satisfied
	}
	ws := make([]*want, len(hits))
	for i, h := range hits {
		ws[i] = &want{hit: h, back: sr.opens(h.Text)}
	}
	var around []Row
	for d := contextStart; ; d *= 2 {
		var open []*want
		var ranges []Range
		for _, w := range ws {
			if !w.back || !w.fwd {
				open = append(open, w)
				ranges = append(ranges, Range{w.hit.Time.Add(-d), w.hit.Time.Add(d)})
			}
		}
		if len(open) == 0 || d > contextMax {
			break
		}
		ranges = mergeRanges(ranges, 0)
		var got []Row
		for len(ranges) > 0 {
			k := min(len(ranges), maxRangesPerQuery)
			g, err := sr.r.rowsOf(sr.ctx, Query{Stream: sr.s, Ranges: ranges[:k]})
			if err != nil {
				return nil, err
			}
			got = append(got, g...)
			ranges = ranges[k:]
		}
		slices.SortFunc(got, func(a, b Row) int { return rowKey(&a, &b) })
		for _, w := range open {
			i, _ := slices.BinarySearchFunc(got, w.hit, func(a, b Row) int { return rowKey(&a, &b) })
			for j := i - 1; j >= 0 && !w.back; j-- {
				if sr.opens(got[j].Text) {
					w.back = true
				}
			}
			for j := i + 1; j < len(got) && !w.fwd; j++ {
				if rowKey(&got[j], &w.hit) == 0 {
					continue
				}
				if sr.opens(got[j].Text) {
					w.fwd = true
				}
			}
		}
		around = got
	}
	if len(around) == 0 {
		return hits, nil
	}
	// Keep, for each selected row, the rows from its record's opening row
	// up to the next row that opens one.
	keep := make([]bool, len(around))
	for _, h := range hits {
		i, found := slices.BinarySearchFunc(around, h, func(a, b Row) int { return rowKey(&a, &b) })
		if !found {
			continue
		}
		keep[i] = true
		for j := i; j >= 0; j-- {
			keep[j] = true
			if sr.opens(around[j].Text) {
				break
			}
		}
		for j := i + 1; j < len(around) && !sr.opens(around[j].Text); j++ {
			keep[j] = true
		}
	}
	rows := hits
	for i, k := range keep {
		if k {
			rows = append(rows, around[i])
		}
	}
	return rows, nil
}

// mergeRanges sorts ranges and joins those that overlap or are within gap
// of each other.
func mergeRanges(rs []Range, gap time.Duration) []Range {
	if len(rs) == 0 {
		return nil
	}
	slices.SortFunc(rs, func(a, b Range) int { return a.From.Compare(b.From) })
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if !r.From.After(last.To.Add(gap)) {
			if r.To.After(last.To) {
				last.To = r.To
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// write queues rows in order, each once, after the last row queued.
func (sr *StreamText) write(rows []Row) {
	slices.SortFunc(rows, func(a, b Row) int { return rowKey(&a, &b) })
	for i := range rows {
		row := &rows[i]
		if i > 0 && rowKey(row, &rows[i-1]) == 0 {
			continue
		}
		if sr.hasLast && rowKey(row, &sr.last) <= 0 {
			continue
		}
		if sr.hasLast && !row.Record.From.IsZero() && row.Record == sr.last.Record && sr.last.Line > 0 && row.Line > sr.last.Line+1 {
			// Every line of a record is fetched with it: the numbers
			// missing inside one are empty lines, which a store keeps
			// no row for and a decoder inside a block may claim. One
			// empty line stands for each run of them.
			sr.out = append(sr.out, Row{Line: sr.last.Line + 1})
		}
		sr.last, sr.hasLast = *row, true
		sr.out = append(sr.out, Row{Line: row.Line, Text: row.Text})
	}
}
