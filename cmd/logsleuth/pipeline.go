package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"time"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/replay"
	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
	"github.com/logsleuth/logsleuth/source"
)

// readOptions are the flags every reading command shares: the year for
// glog timestamps and the subject and time filters.
type readOptions struct {
	Year   int
	Tablet string
	Peer   string
	// Index, Shard and Node choose an Elasticsearch shard copy; Shard
	// counts only with HasShard (the zero value filters nothing).
	Index    string
	Shard    int
	HasShard bool
	Node     string
	// Since and Until bound events' wall times (inclusive); zero means
	// unbounded.
	Since time.Time
	Until time.Time
	// Store holds the flags of reading from a log store (store.go).
	Store storeOptions
	// AlarmPhrases are the words of the alarms --catalog files add, for
	// the parsers (parse.Options.AlarmPhrases).
	AlarmPhrases []string
	// AllowUnrecognised makes an input of which nothing was recognised a
	// warning rather than exit status 2 (recognised.go).
	AllowUnrecognised bool
	// Strict makes a filter that matches nothing a usage error, exit
	// status 3 (filters.go).
	Strict bool
	// Digest hashes each input's bytes for the report's provenance
	// (render.Stats.Digests). Hashing costs as much CPU as a fast decoder,
	// so it is done only for reports that show the digests.
	Digest bool
}

// readResult is what reading the inputs gave.
type readResult struct {
	render.Stats
	// unrecognised is set when an input held nothing logsleuth
	// recognised and --allow-unrecognised was not given: exit status 2.
	unrecognised bool
	// seen is what the events named, for checkFilters; nil without a
	// filter.
	seen *seenIDs
}

// outcome is what the reading alone makes of the exit status.
func (r *readResult) outcome() outcome {
	return outcome{unreadable: len(r.Unreadable) > 0, unrecognised: r.unrecognised}
}

// read reads every input and calls fn with their events merged into one
// timeline: by wall time across sources, line order within one. Inputs
// are read in groups (source.Group: the rotated files of one log, in time
// order, or one file), each group on its own goroutine, merged in the
// order of their first names, so the result does not depend on the order
// the user listed them in; events are handed on as they are merged, so
// memory does not grow with the input. Unreadable inputs, skipped files
// and diagnostics are reported on stderr once all is read.
//
// Log-store URLs (vlogs://) are read from the store instead (store.go).
//
// An input of which nothing was recognised is reported once all is read
// (recognised.go).
func read(ios *IOStreams, in *inputs, opt readOptions, fn func(parse.Event)) *readResult {
	var st render.Stats
	var seen *seenIDs
	if len(in.store) > 0 {
		ios.prepare(-1)
		st, seen = readStore(ios, in.store, opt, fn)
	} else {
		st, seen = readFiles(ios, in, opt, fn)
	}
	res := &readResult{Stats: st, seen: seen}
	if checkRecognised(ios, &res.Stats, opt.AllowUnrecognised) && !opt.AllowUnrecognised {
		res.unrecognised = true
	}
	return res
}

// planSize is how many bytes, as stored, reading plan reads, as far as
// it can be known; known is false when a group reads a stream, whose size
// is not (it counts as 0).
func planSize(plan *source.Plan) (total int64, known bool) {
	known = true
	for _, g := range plan.Groups {
		total += g.Size()
		known = known && !g.Streamed()
	}
	return total, known
}

func readFiles(ios *IOStreams, in *inputs, opt readOptions, fn func(parse.Event)) (render.Stats, *seenIDs) {
	var prog *progress
	if ios.progressWanted() {
		prog = newProgress(ios, 0)
	}
	if prog != nil {
		in.SetProgress(prog.add)
	}
	plan := in.Plan()
	size, known := planSize(plan)
	if known {
		ios.prepare(size)
	} else {
		ios.prepare(-1)
	}
	var st render.Stats
	for _, err := range plan.Errors() {
		fmt.Fprintf(ios.ErrOut, "logsleuth: %s\n", render.Sanitize(err.Error()))
		st.Unreadable = append(st.Unreadable, err.Error())
	}
	type result struct {
		name    string
		speaks  *speakers
		stats   parse.Stats
		diags   []parse.Diagnostic
		err     error
		scanned bool
		digest  *digest
	}
	results := make([][]result, len(plan.Groups))
	if prog != nil {
		prog.total = size
	}
	producers := make([]replay.Producer, len(plan.Groups))
	seen := make([]*seenIDs, len(plan.Groups))
	for i, g := range plan.Groups {
		seen[i] = seenFor(opt)
		producers[i] = func(emit func(parse.Event)) {
			rd := plan.Open(g)
			defer rd.Close()
			var prev string
			var prevLast time.Time
			for {
				l, r, err := rd.Next()
				if err == io.EOF {
					return
				}
				if err != nil {
					results[i] = append(results[i], result{err: err})
					continue
				}
				res := result{name: l.Name, scanned: true, speaks: newSpeakers()}
				if opt.Digest {
					res.digest = newDigest()
					r = res.digest.tee(r)
				}
				var first, last time.Time
				res.stats, res.diags, res.err = parse.ScanFunc(withLineEnds(r), l.Name, systems, parse.Options{Year: opt.Year, AlarmPhrases: opt.AlarmPhrases}, func(e parse.Event) {
					if t := e.Info().Time; !t.IsZero() {
						if first.IsZero() {
							first = t
						}
						last = t
					}
					seen[i].note(e, &opt)
					if keepEvent(e, &opt) {
						noteSpeaker(res.speaks, e)
						emit(e)
					}
				})
				res.stats.SpeaksFor = res.speaks.sorted()
				diag := func(msg string) {
					res.diags = append(res.diags, parse.Diagnostic{Pos: parse.Pos{Source: l.Name, Line: res.stats.Lines}, Message: msg})
					res.stats.Diags++
				}
				if res.err == nil {
					for _, n := range rd.Notes() {
						diag(n)
					}
				}
				if !prevLast.IsZero() && !first.IsZero() && first.Before(prevLast) {
					// Files of one series are read one after another;
					// events of one that overlaps the one before are
					// merged as if they came after it.
					diag(fmt.Sprintf("its first event (%s) is before the last event of %s (%s), read before it as the file it rotated from: events of the two may be merged out of time order", first.Format(time.RFC3339Nano), prev, prevLast.Format(time.RFC3339Nano)))
				}
				if !last.IsZero() {
					prev, prevLast = l.Name, last
				}
				results[i] = append(results[i], res)
			}
		}
	}
	replay.Stream(producers, fn)
	prog.finish()
	var all []result
	for _, rs := range results {
		all = append(all, rs...)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].name < all[j].name })
	for _, r := range all {
		if r.scanned {
			st.Add(r.stats, r.diags)
			if r.digest != nil {
				st.Digests = append(st.Digests, r.digest.of(r.name))
			}
		}
		if r.err != nil {
			fmt.Fprintf(ios.ErrOut, "logsleuth: %s\n", render.Sanitize(r.err.Error()))
			st.Unreadable = append(st.Unreadable, r.err.Error())
		}
	}
	for _, n := range plan.Notes() {
		d := parse.Diagnostic{Pos: parse.Pos{Source: n.Source}, Message: n.Message}
		st.Diagnostics = append(st.Diagnostics, d)
	}
	for _, s := range plan.Skipped() {
		st.Skipped = append(st.Skipped, render.Skipped{Name: s.Name, Reason: s.Reason})
	}
	printSkipped(ios, st.Skipped)
	printDiagnostics(ios, st.Diagnostics)
	merged := seenFor(opt)
	for _, s := range seen {
		merged.merge(s)
	}
	return st, merged
}

// printSkipped says which inputs were not read and why, so a file left out
// is never a mystery; the JSON stats list them all.
func printSkipped(ios *IOStreams, skipped []render.Skipped) {
	for i, s := range skipped {
		if i == maxDiagsShown {
			fmt.Fprintf(ios.ErrOut, "logsleuth: ... and %d more skipped (see --format json)\n", len(skipped)-i)
			break
		}
		fmt.Fprintf(ios.ErrOut, "logsleuth: skipped %s: %s\n", render.Sanitize(s.Name), render.Sanitize(s.Reason))
	}
}

// speakers is the set of peers and nodes a source speaks for.
type speakers struct {
	// names holds the names noted, by kind ("peer ", "node ").
	names map[string]map[string]bool
	// seen holds names noted, whatever their kind, each in the slot its
	// length and last byte choose: a source's events name its own peer or
	// node, and a test cluster's log its few nodes in turn, so most events
	// find theirs there with one comparison, made the same way every
	// time, and without the map.
	seen [8]speaker
}

// speaker is a name noted and its kind.
type speaker struct{ kind, name string }

func newSpeakers() *speakers { return &speakers{names: map[string]map[string]bool{}} }

// sorted lists kind+name of every name noted, sorted.
func (s *speakers) sorted() []string {
	var out []string
	for kind, m := range s.names {
		for name := range m {
			out = append(out, kind+name)
		}
	}
	slices.Sort(out)
	return out
}

// noteSpeaker records the peer or node a source speaks for. A config or
// remote bootstrap line may be about another replica (a leader evicting a
// follower); its own prefix's peer is the speaker, not its subject.
func noteSpeaker(into *speakers, e parse.Event) {
	if l, ok := e.(interface{ LocalInfo() *yb.Local }); ok {
		if self := l.LocalInfo().Self; self != "" {
			into.note("peer ", self)
		}
		return
	}
	if s, ok := e.(subjectOf); ok {
		if _, p := s.Subject(); p != "" {
			into.note("peer ", p)
		}
	}
	if s, ok := e.(shardSubjectOf); ok {
		if _, _, n := s.ShardSubject(); n != "" {
			into.note("node ", n)
		}
	}
}

// note adds kind+name to the set. It runs for every event, so a name
// is looked for in its slot of seen first, by the name itself, with no
// key to build; the map is asked only when the slot holds another name
// (a name's first sighting, or two names sharing a slot in turn), so a
// log whose nodes take turns costs one comparison per event, not a scan
// of the names noted last.
func (s *speakers) note(kind, name string) {
	if name == "" {
		return
	}
	slot := &s.seen[(len(name)+int(name[len(name)-1]))%len(s.seen)]
	if slot.name == name && slot.kind == kind {
		return
	}
	m := s.names[kind]
	if m == nil {
		m = map[string]bool{}
		s.names[kind] = m
	}
	m[name] = true
	*slot = speaker{kind, name}
}

// subjectOf is implemented by events that name a YugabyteDB tablet
// replica.
type subjectOf interface {
	Subject() (tablet, peer string)
}

// shardSubjectOf is implemented by events that name an Elasticsearch shard
// copy; shard is -1 and index "" when the line names no shard.
type shardSubjectOf interface {
	ShardSubject() (index string, shard int, node string)
}

// filtered reports whether any subject or time filter is set.
func (o readOptions) filtered() bool {
	return o.Tablet != "" || o.Peer != "" || o.Index != "" || o.HasShard || o.Node != "" || !o.Since.IsZero() || !o.Until.IsZero()
}

// keepEvent says whether an event passes the subject and time filters.
// An event that does not say its subject of a kind (an Elasticsearch
// event under --tablet, say) is kept: its rule pack still needs it, and
// the findings are filtered by subject afterwards. An event with no wall
// time is kept by --since and --until.
func keepEvent(e parse.Event, opt *readOptions) bool {
	if !opt.filtered() {
		return true
	}
	if t := e.Info().Time; !t.IsZero() {
		if !opt.Since.IsZero() && t.Before(opt.Since) {
			return false
		}
		if !opt.Until.IsZero() && t.After(opt.Until) {
			return false
		}
	}
	// --peer and --node choose findings, not events: a replica's verdict
	// can rest on its peers' lines (a lease another peer held), so every
	// replica of the chosen tablet or shard is replayed.
	if s, ok := e.(subjectOf); ok && opt.Tablet != "" {
		if t, _ := s.Subject(); !matchID(t, opt.Tablet) {
			return false
		}
	}
	if s, ok := e.(shardSubjectOf); ok && (opt.Index != "" || opt.HasShard) {
		// A line that names no shard (a cluster-state dump, a disruption)
		// is kept: the shard's replay may need it.
		idx, shard, _ := s.ShardSubject()
		if idx != "" && opt.Index != "" && idx != opt.Index {
			return false
		}
		if idx != "" && opt.HasShard && shard != opt.Shard {
			return false
		}
	}
	return true
}

// keepFinding applies the subject filters to a finding, for the events
// that could not be filtered (see keepEvent).
func keepFinding(f *rules.Finding, opt readOptions) bool {
	s := f.Subject
	switch {
	case opt.Tablet != "" && s.Tablet != opt.Tablet,
		opt.Peer != "" && s.Peer != opt.Peer,
		opt.Index != "" && s.Index != opt.Index,
		opt.HasShard && (s.Shard == nil || *s.Shard != opt.Shard),
		opt.Node != "" && s.Node != opt.Node:
		return false
	}
	return true
}

// maxDiagsShown bounds how many diagnostics go to stderr per run; all of
// them are in the JSON stats.
const maxDiagsShown = 20

func printDiagnostics(ios *IOStreams, diags []parse.Diagnostic) {
	for i, d := range diags {
		if i == maxDiagsShown {
			fmt.Fprintf(ios.ErrOut, "logsleuth: ... and %d more diagnostics (see --format json)\n", len(diags)-i)
			break
		}
		fmt.Fprintf(ios.ErrOut, "logsleuth: %s\n", render.Sanitize(d.String()))
	}
}

// choosePacks returns the packs with a rule sel selects, and those rules.
func choosePacks(packs []rules.Pack, sel *ruleSelection) ([]rules.Pack, []rules.Rule) {
	var run []rules.Pack
	var ran []rules.Rule
	for _, p := range packs {
		chosen := false
		for _, r := range p.Rules() {
			if sel.has(r.ID) {
				chosen = true
				ran = append(ran, r)
			}
		}
		if chosen {
			run = append(run, p)
		}
	}
	sort.Slice(ran, func(i, j int) bool { return ran[i].ID < ran[j].ID })
	return run, ran
}

// finish collects the findings of the packs that observed a timeline,
// keeps those of the selected rules that pass the subject filters, and
// sorts them.
func finish(run []rules.Pack, sel *ruleSelection, opt readOptions) []rules.Finding {
	var all []rules.Finding
	for _, p := range run {
		all = append(all, p.Finish()...)
	}
	rules.Sort(all)
	var out []rules.Finding
	for _, f := range all {
		if sel.has(f.Rule) && keepFinding(&f, opt) {
			out = append(out, f)
		}
	}
	return out
}

// keepByPlace has the YugabyteDB state of run keep the lines of in's
// plain files by place (ybstate.Rereader) rather than by text, and read
// them again for the findings that cite them: for a node hosting many
// tablets, the kept lines are most of the state. The Rereads returned is
// closed once the findings are made.
func keepByPlace(in *inputs, run []rules.Pack) *source.Rereads {
	rr := source.NewRereads()
	if in.Inputs != nil {
		in.SetRereads(rr)
	}
	for _, p := range run {
		if yp, ok := p.(*ybrules.Pack); ok {
			yp.State().SetRereader(rr)
		}
	}
	return rr
}
