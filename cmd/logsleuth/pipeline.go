package main

import (
	"fmt"
	"sort"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/replay"
	"github.com/logsleuth/logsleuth/rules"
)

// readOptions are the flags every reading command shares.
type readOptions struct {
	Year   int
	Tablet string
	Peer   string
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
		fmt.Fprintf(ios.ErrOut, "logsleuth: %v\n", err)
		out.stats.Unreadable = append(out.stats.Unreadable, err.Error())
	}
	type read struct {
		name string
		res  *parse.Result
	}
	var results []read
	for _, in := range inputs {
		rc, err := openInput(ios, in)
		if err != nil {
			fmt.Fprintf(ios.ErrOut, "logsleuth: %v\n", err)
			out.stats.Unreadable = append(out.stats.Unreadable, err.Error())
			continue
		}
		res, err := parse.Scan(rc, in.name, systems, parse.Options{Year: opt.Year})
		rc.Close()
		if err != nil {
			fmt.Fprintf(ios.ErrOut, "logsleuth: %v\n", err)
			out.stats.Unreadable = append(out.stats.Unreadable, err.Error())
		}
		results = append(results, read{in.name, res})
	}
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

// subjectOf is implemented by events that name a tablet replica.
type subjectOf interface {
	Subject() (tablet, peer string)
}

// filterEvents keeps the events of the chosen tablet and peer.
func filterEvents(evs []parse.Event, opt readOptions) []parse.Event {
	if opt.Tablet == "" && opt.Peer == "" {
		return evs
	}
	var out []parse.Event
	for _, e := range evs {
		s, ok := e.(subjectOf)
		if !ok {
			continue
		}
		t, p := s.Subject()
		if opt.Tablet != "" && t != opt.Tablet {
			continue
		}
		if opt.Peer != "" && p != opt.Peer {
			continue
		}
		out = append(out, e)
	}
	return out
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

// analyzeEvents runs the rule packs over a timeline.
func analyzeEvents(events []parse.Event, packs []rules.Pack) []rules.Finding {
	return rules.Run(events, packs)
}
