package render

import (
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules"
)

// Report is everything one run says.
type Report struct {
	Findings []rules.Finding `json:"findings"`
	Stats    Stats           `json:"stats"`
}

// Stats sums up what was read.
type Stats struct {
	Sources     []parse.Stats      `json:"sources"`
	Lines       int                `json:"lines"`
	Events      int                `json:"events"`
	Unclaimed   int                `json:"unclaimed"`
	Diagnostics []parse.Diagnostic `json:"diagnostics"`
	// Unreadable lists inputs that could not be read (in full).
	Unreadable []string `json:"unreadable,omitempty"`
}

// Add counts one source.
func (s *Stats) Add(src parse.Stats, diags []parse.Diagnostic) {
	s.Sources = append(s.Sources, src)
	s.Lines += src.Lines
	s.Events += src.Events
	s.Unclaimed += src.Unclaimed
	s.Diagnostics = append(s.Diagnostics, diags...)
}

// Counts returns how many findings there are at each severity.
func (r *Report) Counts() map[rules.Severity]int {
	c := map[rules.Severity]int{}
	for _, f := range r.Findings {
		c[f.Severity]++
	}
	return c
}
