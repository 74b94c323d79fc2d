package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"

	"github.com/logsleuth/logsleuth/internal/units"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/replay"
	"github.com/logsleuth/logsleuth/source/store"
)

// Reading from a log store: `analyze vlogs://HOST:9428 --query ...
// --since ... --until ...`. Each stream the store holds is one source,
// named as the store prints it ({file="x",host="a"}); its lines keep the
// line numbers they had in the file they were shipped from. Which store a
// URL names, and how to speak to it, is the store package's business.

// storeOptions are the flags of reading from a log store.
type storeOptions struct {
	// Query is a filter in the store's language (LogsQL for VictoriaLogs)
	// choosing the streams or rows to read, on top of the push-down
	// filter and the --since/--until window.
	Query string
}

func addStoreFlags(f *pflag.FlagSet, o *storeOptions) {
	f.StringVar(&o.Query, "query", "", "with a log-store source: a filter in the store's language choosing what to read; for vlogs:// a LogsQL stream or field filter, e.g. '{host=~\"ts-.*\"}' or 'host:~\"ts-.*\"'")
}

// storeSystems are what the parsers tell a store: the lines to select and
// which lines open a record. added are the phrases of the alarms the
// user's --catalog files add (readOptions.AlarmPhrases): the parser reads
// a line holding one as an alarm whatever file printed it, so the store
// must send those lines too.
func storeSystems(added []string) []store.System {
	ybPhrases := append(yb.StorePhrases(), added...)
	return []store.System{
		{Name: "yb", Filter: store.Filter{Phrases: ybPhrases, Patterns: yb.StorePatterns()}, OpensRecord: yb.OpensRecord},
		{Name: "es", Filter: store.Filter{Phrases: es.StorePhrases(), Patterns: es.StorePatterns()}, OpensRecord: es.OpensRecord},
	}
}

// storeClocks returns, for one file, each system's line clock.
func storeClocks(year int) func(time.Time) []func([]byte) (time.Time, bool) {
	return func(fallback time.Time) []func([]byte) (time.Time, bool) {
		fixed := year > 0
		y := year
		if y == 0 {
			y = fallback.Year()
		}
		return []func([]byte) (time.Time, bool){yb.NewClock(y, fixed).Time, es.NewClock().Time}
	}
}

// storeOpens reports whether a line opens a record in any system's format.
func storeOpens(line []byte) bool {
	for _, s := range storeSystems(nil) {
		if s.OpensRecord(line) {
			return true
		}
	}
	return false
}

// hasStoreURL reports whether any argument names a log store.
func hasStoreURL(args []string) bool {
	return slices.ContainsFunc(args, store.IsURL)
}

// readStore is read for log stores: every argument must name one. A store
// that cannot be reached, a query that fails and a query that returns no
// rows each make the run's status 2, with the query text.
func readStore(ios *IOStreams, args []string, opt readOptions, fn func(parse.Event)) (render.Stats, *seenIDs) {
	var st render.Stats
	fail := func(msg string) {
		fmt.Fprintf(ios.ErrOut, "logsleuth: %s\n", render.Sanitize(msg))
		st.Unreadable = append(st.Unreadable, msg)
	}
	ctx := context.Background()
	type source struct {
		name    string
		rd      *store.Reader
		stream  store.Stream
		stats   parse.Stats
		diags   []parse.Diagnostic
		err     error
		scanned bool
		seen    *seenIDs
	}
	var (
		sources  []*source
		readers  []*store.Reader
		stores   []store.Store
		received atomic.Int64
	)
	prog := newStoreProgress(ios, &received)
	for _, arg := range args {
		if !store.IsURL(arg) {
			fail(fmt.Sprintf("%s: a log store and paths cannot be read in one run; analyse them apart", arg))
			continue
		}
		ls, err := store.Open(arg)
		if err != nil {
			fail(err.Error())
			continue
		}
		rd := &store.Reader{
			Store: ls, Selector: opt.Store.Query, Window: store.Range{From: opt.Since, To: opt.Until},
			Systems: storeSystems(opt.AlarmPhrases),
			OnRows:  func(n int) { received.Add(int64(n)); prog.draw() },
		}
		streams, err := rd.Streams(ctx)
		if err != nil {
			fail(fmt.Sprintf("%s: %v", arg, err))
			continue
		}
		if len(streams) == 0 {
			fail(fmt.Sprintf("%s: no rows match the query: %s", arg, rd.Query()))
			continue
		}
		readers, stores = append(readers, rd), append(stores, ls)
		for _, s := range streams {
			name := s.Name
			if len(args) > 1 {
				name = arg + "/" + s.Name
			}
			sources = append(sources, &source{name: name, rd: rd, stream: s, seen: seenFor(opt)})
		}
	}
	producers := make([]replay.Producer, len(sources))
	for i, src := range sources {
		producers[i] = func(emit func(parse.Event)) {
			text := src.rd.Open(ctx, src.stream)
			year := opt.Year
			if year == 0 {
				// Without a file header the year of glog times is the
				// year the store has the rows at.
				hasHeader, err := text.Header()
				if err != nil {
					src.err = err
					return
				}
				if !hasHeader {
					year = src.stream.First.Year()
				}
			}
			src.scanned = true
			speaks := newSpeakers()
			// Each line is read at the number it had in its file: the
			// rows not fetched cost nothing.
			next := func() (parse.NumberedLine, error) {
				n, t, err := text.Next()
				return parse.NumberedLine{Line: int(n), Text: []byte(t)}, err
			}
			src.stats, src.diags, src.err = parse.ScanNumbered(next, src.name, systems, parse.Options{Year: year, AlarmPhrases: opt.AlarmPhrases}, func(e parse.Event) {
				src.seen.note(e, &opt)
				if keepEvent(e, &opt) {
					noteSpeaker(speaks, e)
					emit(e)
				}
			})
			src.stats.SpeaksFor = speaks.sorted()
		}
	}
	replay.Stream(producers, fn)
	prog.finish()
	for _, src := range sources {
		if src.scanned {
			st.Add(src.stats, src.diags)
		}
		if src.err != nil {
			fail(src.err.Error())
		}
	}
	for i, rd := range readers {
		s := rd.Stats()
		fmt.Fprintf(ios.ErrOut, "logsleuth: %s: %d rows received (%s) in %d queries\n",
			stores[i], s.Rows, units.Bytes(stores[i].BytesRead()), s.Queries)
	}
	printDiagnostics(ios, st.Diagnostics)
	seen := seenFor(opt)
	for _, src := range sources {
		seen.merge(src.seen)
	}
	return st, seen
}

// storeProgress draws, on a terminal, how many rows have come from the
// store. A nil *storeProgress draws nothing.
type storeProgress struct {
	mu    sync.Mutex
	w     io.Writer
	now   func() time.Time
	last  time.Time
	n     *atomic.Int64
	drawn bool
}

func newStoreProgress(ios *IOStreams, n *atomic.Int64) *storeProgress {
	if !ios.progressWanted() {
		return nil
	}
	return &storeProgress{w: ios.ErrOut, now: ios.now, n: n}
}

func (p *storeProgress) draw() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.now()
	if t.Sub(p.last) < progressEvery {
		return
	}
	p.last = t
	fmt.Fprintf(p.w, "\r\x1b[Kreading the log store: %s rows received", groupDigits(p.n.Load()))
	p.drawn = true
}

func (p *storeProgress) finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		io.WriteString(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// groupDigits writes n with thousands separators.
func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
