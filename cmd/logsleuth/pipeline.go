package main

import (
	"fmt"
	"sort"
	"time"

	"github.com/logsleuth/logsleuth/parse"
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

// loaded is the merged timeline of a run and what reading it cost.
type loaded struct {
	events []parse.Event
	stats  render.Stats
}

// load reads every input, reports unreadable ones on stderr, and merges the
// events into one timeline. Inputs are merged in name order so the result
// does not depend on the order the user listed them in.
func load(ios *IOStreams, paths []string, opt readOptions) *loaded {
	inputs, errs := expand(ios.FS, paths)
	out := &loaded{}
	for _, err := range errs {
		fmt.Fprintf(ios.ErrOut, "logsleuth: %s\n", render.Sanitize(err.Error()))
		out.stats.Unreadable = append(out.stats.Unreadable, err.Error())
	}
	type read struct {
		name string
		res  *parse.Result
	}
	var (
		results []read
		prog    *progress
	)
	if ios.progressWanted() {
		prog = newProgress(ios, totalSize(ios.FS, inputs))
	}
	for _, in := range inputs {
		rc, err := openInput(ios, in, prog)
		if err != nil {
			prog.finish()
			fmt.Fprintf(ios.ErrOut, "logsleuth: %s\n", render.Sanitize(err.Error()))
			out.stats.Unreadable = append(out.stats.Unreadable, err.Error())
			continue
		}
		res, err := parse.Scan(rc, in.name, systems, parse.Options{Year: opt.Year})
		rc.Close()
		if err != nil {
			prog.finish()
			fmt.Fprintf(ios.ErrOut, "logsleuth: %s\n", render.Sanitize(err.Error()))
			out.stats.Unreadable = append(out.stats.Unreadable, err.Error())
		}
		results = append(results, read{in.name, res})
	}
	prog.finish()
	sort.SliceStable(results, func(i, j int) bool { return results[i].name < results[j].name })
	streams := make([][]parse.Event, 0, len(results))
	for _, r := range results {
		out.stats.Add(r.res.Stats, r.res.Diags)
		streams = append(streams, filterEvents(r.res.Events, opt))
	}
	out.events = replay.Merge(streams)
	printDiagnostics(ios, out.stats.Diagnostics)
	return out
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

// filterEvents keeps the events of the chosen subject and time window.
// An event that does not say its subject of a kind (an Elasticsearch
// event under --tablet, say) is kept: its rule pack still needs it, and
// the findings are filtered by subject afterwards. An event with no wall
// time is kept by --since and --until.
func filterEvents(evs []parse.Event, opt readOptions) []parse.Event {
	if !opt.filtered() {
		return evs
	}
	var out []parse.Event
	for _, e := range evs {
		if keepEvent(e, opt) {
			out = append(out, e)
		}
	}
	return out
}

func keepEvent(e parse.Event, opt readOptions) bool {
	if t := e.Info().Time; !t.IsZero() {
		if !opt.Since.IsZero() && t.Before(opt.Since) {
			return false
		}
		if !opt.Until.IsZero() && t.After(opt.Until) {
			return false
		}
	}
	if s, ok := e.(subjectOf); ok && (opt.Tablet != "" || opt.Peer != "") {
		t, p := s.Subject()
		if opt.Tablet != "" && t != opt.Tablet {
			return false
		}
		if opt.Peer != "" && p != opt.Peer {
			return false
		}
	}
	if s, ok := e.(shardSubjectOf); ok && (opt.Index != "" || opt.HasShard || opt.Node != "") {
		idx, shard, node := s.ShardSubject()
		if opt.Index != "" && idx != opt.Index {
			return false
		}
		if opt.HasShard && shard != opt.Shard {
			return false
		}
		if opt.Node != "" && node != opt.Node {
			return false
		}
	}
	return true
}

// keepFinding applies the subject filters to a finding, for the events
// that could not be filtered (see filterEvents).
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

// analyzeEvents runs the packs of sel over a timeline and returns the
// findings of the selected rules that pass the subject filters, and the
// rules that ran.
func analyzeEvents(events []parse.Event, packs []rules.Pack, sel *ruleSelection, opt readOptions) ([]rules.Finding, []rules.Rule) {
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
	var out []rules.Finding
	for _, f := range rules.Run(events, run) {
		if sel.has(f.Rule) && keepFinding(&f, opt) {
			out = append(out, f)
		}
	}
	return out, ran
}
