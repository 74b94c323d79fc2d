package render

import (
	"fmt"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules"
)

// Report is everything one run says.
type Report struct {
	Findings []rules.Finding `json:"findings"`
	Stats    Stats           `json:"stats"`

	// Rules are the rules that ran, for the formats that describe them
	// (markdown's explanations, SARIF's rule metadata, JUnit's test cases).
	Rules []rules.Rule `json:"-"`
	// Baselined[i] is set when Findings[i] was already in the --baseline
	// report, so it does not count toward the exit code. Nil without a
	// baseline.
	Baselined []bool `json:"-"`
	// HasBaseline is set when a baseline was given (even an empty one),
	// so SARIF can say "new" rather than nothing.
	HasBaseline bool `json:"-"`
	// Gone are the baseline's findings this run did not find again
	// (Baseline.Compare), which every format lists: a fix, or a log that
	// no longer holds the lines.
	Gone []rules.Finding `json:"-"`
	// Omitted counts, by rule, the findings Limit left out; MaxFindings
	// is the limit it applied.
	Omitted     []Omitted `json:"-"`
	MaxFindings int       `json:"-"`
	// Provenance is who wrote the report, how it was run and what it read;
	// nil leaves it out (tests, renderers called as a library).
	Provenance *Provenance `json:"-"`
	// Artifact names what was analysed (--junit-suite, by default from
	// the inputs), so reports of several CI jobs merged into one view do
	// not collide: JUnit prefixes its suites and classnames with it.
	// Empty means no prefix.
	Artifact string `json:"-"`
	// FailOn is the --fail-on threshold (zero means error): findings below
	// it, and baselined ones, are reported but do not fail a JUnit test.
	FailOn rules.Severity `json:"-"`
	// AllowUnrecognised is --allow-unrecognised: an input nothing in which
	// was recognised does not fail the run, so JUnit does not make it an
	// error.
	AllowUnrecognised bool `json:"-"`
}

// Stats sums up what was read.
type Stats struct {
	Sources     []parse.Stats      `json:"sources"`
	Lines       int                `json:"lines"`
	Events      int                `json:"events"`
	Unclaimed   int                `json:"unclaimed"`
	Diagnostics []parse.Diagnostic `json:"diagnostics"`
	// Recognised says per source how many lines were recognised; JSON
	// fills it from Sources (Recognitions).
	Recognised []Recognition `json:"recognised,omitempty"`
	// Unreadable lists inputs that could not be read (in full).
	Unreadable []string `json:"unreadable,omitempty"`
	// Digests are the SHA-256 of each source's bytes as read, in source
	// order, for the report's provenance.
	Digests []InputDigest `json:"-"`
	// Systems are the systems (yb, es) of which any event was read, sorted.
	// A rule pack of a system not in it saw nothing: JUnit skips its test
	// cases rather than passing them. Nil means not counted (nothing is
	// skipped); a run that counts and read nothing sets it empty.
	Systems []string `json:"systems,omitempty"`
	// Skipped lists inputs not read on purpose, each with why: files of a
	// walked directory or archive that are not logs, and second names of
	// bytes already read (links, a glog WARNING file repeating its INFO
	// file).
	Skipped []Skipped `json:"skipped,omitempty"`
}

// Skipped is an input not read, and why.
type Skipped struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Unrecognised lists the sources of which no line was recognised
// (Recognised): an input logsleuth could not read as any database's log,
// which no report may pass over in silence. An empty source has nothing
// to recognise and is not listed.
func (s *Stats) Unrecognised() []parse.Stats {
	var out []parse.Stats
	for _, src := range s.Sources {
		if src.Lines > 0 && Recognised(src) == 0 {
			out = append(out, src)
		}
	}
	return out
}

// Recognised is how many of a source's lines were read as a known
// system's log: those in a known format (Known), and at least those a
// parser claimed (a scan that does not count Known leaves it zero).
func Recognised(src parse.Stats) int {
	return max(src.Known, src.Claimed)
}

// Recognition is how much of one source was recognised, as every report
// says it: "N of M lines recognised".
type Recognition struct {
	Source     string `json:"source"`
	Recognised int    `json:"recognised"`
	Lines      int    `json:"lines"`
}

func (c Recognition) String() string {
	return fmt.Sprintf("%s: %d of %s recognised", c.Source, c.Recognised, plural(c.Lines, "line"))
}

// Recognitions is Recognition for every source, in source order.
func (s *Stats) Recognitions() []Recognition {
	out := make([]Recognition, len(s.Sources))
	for i, src := range s.Sources {
		out[i] = Recognition{Source: src.Source, Recognised: Recognised(src), Lines: src.Lines}
	}
	return out
}

// ReadSystem reports whether any event of system sys was read, and true
// when the systems were not counted.
func (s *Stats) ReadSystem(sys string) bool {
	if s.Systems == nil {
		return true
	}
	for _, x := range s.Systems {
		if x == sys {
			return true
		}
	}
	return false
}

// Add counts one source.
func (s *Stats) Add(src parse.Stats, diags []parse.Diagnostic) {
	s.Sources = append(s.Sources, src)
	s.Lines += src.Lines
	s.Events += src.Events
	s.Unclaimed += src.Unclaimed
	s.Diagnostics = append(s.Diagnostics, diags...)
}

// Counts returns how many findings there are at each severity, those
// Limit left out included.
func (r *Report) Counts() map[rules.Severity]int {
	c := map[rules.Severity]int{}
	for _, f := range r.Findings {
		c[f.Severity]++
	}
	for _, o := range r.Omitted {
		c[o.Severity] += o.Count
	}
	return c
}

// NewCount is how many findings shown the baseline did not hold.
func (r *Report) NewCount() int {
	n := 0
	for i := range r.Findings {
		if !r.IsBaselined(i) {
			n++
		}
	}
	return n
}

// IsBaselined reports whether finding i was in the baseline.
func (r *Report) IsBaselined(i int) bool {
	return i < len(r.Baselined) && r.Baselined[i]
}

// Failing reports whether finding i counts toward the exit code: at or
// above FailOn and not in the baseline. It is the one definition the exit
// code, JUnit and the markdown summary share.
func (r *Report) Failing(i int) bool {
	failOn := r.FailOn
	if failOn == 0 {
		failOn = rules.Error
	}
	return r.Findings[i].Severity >= failOn && !r.IsBaselined(i)
}

// Rule returns the catalog entry for id, or nil when the report carries
// no catalog or the rule is not in it.
func (r *Report) Rule(id string) *rules.Rule {
	for i := range r.Rules {
		if r.Rules[i].ID == id {
			return &r.Rules[i]
		}
	}
	return nil
}
