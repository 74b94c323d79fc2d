package render

import (
	"encoding/json"
	"io"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules"
)

// JSON writes the report as DESIGN.md's findings JSON: findings sorted by
// (source, line, rule), and stats. encoding/json escapes what log text
// needs (and sorts fact keys), so the output is byte-identical run to run.
func JSON(w io.Writer, r *Report) error {
	out := *r
	if out.Findings == nil {
		out.Findings = []rules.Finding{}
	}
	if out.Stats.Sources == nil {
		out.Stats.Sources = []parse.Stats{}
	}
	if out.Stats.Diagnostics == nil {
		out.Stats.Diagnostics = []parse.Diagnostic{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&out)
}
