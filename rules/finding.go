package rules

import (
	"sort"
	"strconv"
	"strings"

	"github.com/logsleuth/logsleuth/parse"
)

// Severity orders how bad a finding is.
type Severity int

const (
	Note Severity = iota + 1
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Note:
		return "note"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "none"
}

// MarshalText writes the lower-case name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads the lower-case name.
func (s *Severity) UnmarshalText(b []byte) error {
	v, ok := ParseSeverity(string(b))
	if !ok {
		return &unknownSeverity{string(b)}
	}
	*s = v
	return nil
}

type unknownSeverity struct{ s string }

func (e *unknownSeverity) Error() string { return "unknown severity " + e.s }

// ParseSeverity reads "error", "warning" or "note".
func ParseSeverity(s string) (Severity, bool) {
	switch strings.ToLower(s) {
	case "error":
		return Error, true
	case "warning":
		return Warning, true
	case "note":
		return Note, true
	}
	return 0, false
}

// Origin says who saw the break.
type Origin string

const (
	// Reported: the database asserted it (a FATAL, an AssertionError).
	Reported Origin = "reported"
	// Derived: replay found it.
	Derived Origin = "derived"
	// Confirmed: both.
	Confirmed Origin = "confirmed"
)

// Subject is what broke: a YugabyteDB tablet replica or an Elasticsearch
// shard copy.
type Subject struct {
	System string `json:"system"`
	Tablet string `json:"tablet,omitempty"`
	Peer   string `json:"peer,omitempty"`
	Index  string `json:"index,omitempty"`
	Shard  *int   `json:"shard,omitempty"`
	Node   string `json:"node,omitempty"`
	// NodeID is the Elasticsearch node id the copy lives on, where the
	// logs map Node to one: Node is the name, for display.
	NodeID     string `json:"node_id,omitempty"`
	Allocation string `json:"allocation,omitempty"`
}

func (s Subject) String() string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+" "+v)
		}
	}
	add("tablet", s.Tablet)
	add("peer", s.Peer)
	if s.Index != "" {
		shard := ""
		if s.Shard != nil {
			shard = "[" + strconv.Itoa(*s.Shard) + "]"
		}
		parts = append(parts, "["+s.Index+"]"+shard)
	}
	add("node", s.Node)
	if s.NodeID != s.Node {
		add("node id", s.NodeID)
	}
	add("allocation", s.Allocation)
	return strings.Join(parts, " ")
}

// Evidence is one log line that proves a finding.
type Evidence struct {
	Source string `json:"source"`
	Line   int    `json:"line"`
	Text   string `json:"text"`
}

// Cite makes evidence of an event's first line.
func Cite(e parse.Event) Evidence {
	m := e.Info()
	return Evidence{Source: m.Pos.Source, Line: m.Pos.Line, Text: m.Text}
}

// Finding is one broken invariant, the shape every renderer and CI read.
type Finding struct {
	Rule     string            `json:"rule"`
	Severity Severity          `json:"severity"`
	Origin   Origin            `json:"origin"`
	Subject  Subject           `json:"subject"`
	Message  string            `json:"message"`
	Evidence []Evidence        `json:"evidence"`
	Facts    map[string]string `json:"facts,omitempty"`
	// State is the replayed state of the subject just before the break,
	// one "name: value" entry per field, in a stable order.
	State []string `json:"state,omitempty"`
}

// Pos is where the finding is anchored: its first evidence line.
func (f *Finding) Pos() parse.Pos {
	if len(f.Evidence) == 0 {
		return parse.Pos{}
	}
	return parse.Pos{Source: f.Evidence[0].Source, Line: f.Evidence[0].Line}
}

// Sort orders findings by (source, line, rule), then message, so reports
// are byte-identical run to run.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i].Pos(), fs[j].Pos()
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if fs[i].Rule != fs[j].Rule {
			return fs[i].Rule < fs[j].Rule
		}
		return fs[i].Message < fs[j].Message
	})
}
