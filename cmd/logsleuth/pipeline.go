package main

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/replay"
	"github.com/logsleuth/logsleuth/rules"
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
}

// read reads every input and calls fn with their events merged into one
// timeline: by wall time across inputs, line order within one. Inputs are
// decoded concurrently, one goroutine each, and merged in name order, so
// the result does not depend on the order the user listed them in; events
// are handed on as they are merged, so memory does not grow with the
// input. Unreadable inputs and diagnostics are reported on stderr once all
// is read.
func read(ios *IOStreams, paths []string, opt readOptions, fn func(parse.Event)) render.Stats {
	inputs, errs := expand(ios.FS, paths)
	var st render.Stats
	for _, err := range errs {
		fmt.Fprintf(ios.ErrOut, "logsleuth: %s\n", render.Sanitize(err.Error()))
		st.Unreadable = append(st.Unreadable, err.Error())
	}
	sort.SliceStable(inputs, func(i, j int) bool { return inputs[i].name < inputs[j].name })
	type result struct {
		speaks  map[string]bool
		stats   parse.Stats
		diags   []parse.Diagnostic
		err     error
		scanned bool
	}
	results := make([]result, len(inputs))
	var prog *progress
	if ios.progressWanted() {
		prog = newProgress(ios, totalSize(ios.FS, inputs))
	}
	producers := make([]replay.Producer, len(inputs))
	for i, in := range inputs {
		producers[i] = func(emit func(parse.Event)) {
			r := &results[i]
			var raw rawCount
			rc, err := openInput(ios, in, prog, &raw)
			if err != nil {
				r.err = err
				return
			}
			defer rc.Close()
			r.scanned = true
			r.speaks = map[string]bool{}
			r.stats, r.diags, r.err = parse.ScanFunc(rc, in.name, systems, parse.Options{Year: opt.Year}, func(e parse.Event) {
				if keepEvent(e, opt) {
					noteSpeaker(r.speaks, e)
					emit(e)
				}
			})
			r.stats.SpeaksFor = slices.Sorted(maps.Keys(r.speaks))
			if r.err == nil {
				if msg, ok := raw.changed(ios.FS, in.name); ok {
					r.diags = append(r.diags, parse.Diagnostic{Pos: parse.Pos{Source: in.name, Line: r.stats.Lines}, Message: msg})
					r.stats.Diags++
				}
			}
		}
	}
	replay.Stream(producers, fn)
	prog.finish()
	for _, r := range results {
		if r.scanned {
			st.Add(r.stats, r.diags)
		}
		if r.err != nil {
			fmt.Fprintf(ios.ErrOut, "logsleuth: %s\n", render.Sanitize(r.err.Error()))
			st.Unreadable = append(st.Unreadable, r.err.Error())
		}
	}
	printDiagnostics(ios, st.Diagnostics)
	return st
}

// noteSpeaker records the peer or node a source speaks for. A config or
// remote bootstrap line may be about another replica (a leader evicting a
// follower); its own prefix's peer is the speaker, not its subject.
func noteSpeaker(into map[string]bool, e parse.Event) {
	if l, ok := e.(interface{ LocalInfo() *yb.Local }); ok {
		if self := l.LocalInfo().Self; self != "" {
			note(into, "peer ", self)
		}
		return
	}
	if s, ok := e.(subjectOf); ok {
		if _, p := s.Subject(); p != "" {
			note(into, "peer ", p)
		}
	}
	if s, ok := e.(shardSubjectOf); ok {
		if _, _, n := s.ShardSubject(); n != "" {
			note(into, "node ", n)
		}
	}
}

// note adds kind+name to a set. It runs for every event: the lookup
// builds its key without allocating, so only a name's first sighting
// costs a string.
func note(into map[string]bool, kind, name string) {
	if !into[kind+name] {
		into[kind+name] = true
	}
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
func keepEvent(e parse.Event, opt readOptions) bool {
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
		if t, _ := s.Subject(); t != opt.Tablet {
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
