package main

import (
	"fmt"
	"strings"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/render"
)

// A run is never a silent pass: an input of which no line is in the
// format of a system logsleuth reads (a wrong file, a log of another
// program, a collector's output it cannot unwrap) would otherwise give
// "0 findings" and exit 0, a green CI check on logs nobody read. Such an
// input is a diagnostic naming it and exit status 2, unless
// --allow-unrecognised makes it a warning. Files a walk or an archive
// skipped as not logs are not inputs here: the source package has
// already listed them as skipped.

// unrecognised reports whether nothing of a source was recognised: no
// line was claimed by a decoder or known to a system's Knows test (an
// empty source included).
func unrecognised(s parse.Stats) bool {
	return s.Known == 0 && s.Claimed == 0
}

// unrecognisedSources lists the sources of st of which nothing was
// recognised.
func unrecognisedSources(st render.Stats) []string {
	var out []string
	for _, s := range st.Sources {
		if unrecognised(s) {
			out = append(out, s.Source)
		}
	}
	return out
}

// systemNames is how the diagnostics name what logsleuth reads.
const systemNames = "YugabyteDB or Elasticsearch/OpenSearch"

// checkRecognised adds a diagnostic for every source of st of which
// nothing was recognised, and one for a run whose inputs held no line at
// all, and prints them on stderr: a warning when allow is set. It
// returns whether any source was unrecognised.
func checkRecognised(ios *IOStreams, st *render.Stats, allow bool) bool {
	bad := unrecognisedSources(*st)
	if len(bad) == 0 {
		return false
	}
	prefix := ""
	if allow {
		prefix = "warning: "
	}
	var diags []parse.Diagnostic
	if st.Lines == 0 {
		// Every source is empty: one message for the run.
		names := bad
		more := ""
		if len(names) > 3 {
			more = fmt.Sprintf(" and %d more", len(names)-3)
			names = names[:3]
		}
		diags = append(diags, parse.Diagnostic{Pos: parse.Pos{Source: strings.Join(names, ", ") + more},
			Message: "the input holds no lines at all: nothing was analysed"})
	} else {
		for _, s := range st.Sources {
			if !unrecognised(s) {
				continue
			}
			msg := "empty: no line to analyse"
			if s.Lines > 0 {
				msg = fmt.Sprintf("no line of its %d was recognised as a %s log: nothing in it was analysed", s.Lines, systemNames)
			}
			diags = append(diags, parse.Diagnostic{Pos: parse.Pos{Source: s.Source}, Message: msg})
		}
	}
	for _, d := range diags {
		fmt.Fprintf(ios.ErrOut, "logsleuth: %s%s\n", prefix, render.Sanitize(d.String()))
	}
	if !allow {
		fmt.Fprintf(ios.ErrOut, "logsleuth: exit status 2: an input was not recognised (--allow-unrecognised makes this a warning)\n")
	}
	st.Diagnostics = append(st.Diagnostics, diags...)
	return true
}
