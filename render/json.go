package render

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules"
)

// jsonFinding is a finding as the JSON report prints it: the rules
// contract plus what this run adds, the fingerprint (so a later run's
// --baseline, or any other tool, can match it) and whether the baseline
// already held it.
type jsonFinding struct {
	rules.Finding
	Fingerprint string `json:"fingerprint"`
	Baselined   bool   `json:"baselined,omitempty"`
}

type jsonReport struct {
	Findings []jsonFinding `json:"findings"`
	// Gone is present, possibly empty, only with a baseline: the
	// baseline's findings this run did not find again.
	Gone *[]jsonFinding `json:"gone,omitempty"`
	// Omitted counts, by rule, the findings --max-findings left out.
	Omitted    []Omitted   `json:"omitted,omitempty"`
	Stats      Stats       `json:"stats"`
	Provenance *Provenance `json:"provenance,omitempty"`
}

// JSON writes the report as DESIGN.md's findings JSON: findings sorted by
// (source, line, rule), and stats. encoding/json escapes what log text
// needs (and sorts fact keys), so the output is byte-identical run to run.
func JSON(w io.Writer, r *Report) error {
	out := jsonReport{Findings: make([]jsonFinding, len(r.Findings)), Stats: r.Stats, Omitted: r.Omitted, Provenance: r.Provenance}
	for i := range r.Findings {
		out.Findings[i] = jsonFinding{Finding: r.Findings[i], Fingerprint: Fingerprint(&r.Findings[i]), Baselined: r.IsBaselined(i)}
	}
	if r.HasBaseline {
		gone := make([]jsonFinding, len(r.Gone))
		for i := range r.Gone {
			gone[i] = jsonFinding{Finding: r.Gone[i], Fingerprint: Fingerprint(&r.Gone[i])}
		}
		out.Gone = &gone
	}
	if len(out.Stats.Sources) > 0 {
		out.Stats.Recognised = out.Stats.Recognitions()
	}
	if out.Stats.Sources == nil {
		out.Stats.Sources = []parse.Stats{}
	}
	if out.Stats.Diagnostics == nil {
		out.Stats.Diagnostics = []parse.Diagnostic{}
	}
	return writeJSON(w, &out)
}

// ReadFindings reads the findings of a JSON report written by JSON, for
// --baseline. Fields it does not know are ignored, so a report from a
// newer logsleuth still reads.
func ReadFindings(rd io.Reader) ([]rules.Finding, error) {
	var in struct {
		Findings *[]rules.Finding `json:"findings"`
	}
	if err := json.NewDecoder(rd).Decode(&in); err != nil {
		return nil, err
	}
	if in.Findings == nil {
		return nil, errNoFindings
	}
	return *in.Findings, nil
}

type readError string

func (e readError) Error() string { return string(e) }

const errNoFindings = readError(`not a logsleuth JSON report: no "findings"`)

// writeJSON writes v indented, through filterBody: every JSON format may
// end up on a terminal or in a CI log.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(filterBody(buf.Bytes(), jsonBody))
	return err
}
