package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/logsleuth/logsleuth/rules"
)

// Diff is what changed between two reports of the same logs, matched by
// Fingerprint as --baseline matches them.
type Diff struct {
	New       []rules.Finding
	Gone      []rules.Finding
	Unchanged []rules.Finding
}

// NewDiff compares the findings of an earlier report with a later one's.
func NewDiff(old, cur []rules.Finding) *Diff {
	matched, gone := NewBaseline(old).Compare(cur)
	d := &Diff{Gone: gone}
	for i := range cur {
		if matched[i] {
			d.Unchanged = append(d.Unchanged, cur[i])
		} else {
			d.New = append(d.New, cur[i])
		}
	}
	return d
}

// Summary is "2 new, 1 gone, 3 unchanged".
func (d *Diff) Summary() string {
	return fmt.Sprintf("%d new, %d gone, %d unchanged", len(d.New), len(d.Gone), len(d.Unchanged))
}

// DiffText writes the diff for a person: new, gone and unchanged
// findings, one a line with the subject and where each was seen, and the
// counts last.
func DiffText(w io.Writer, d *Diff, opt TextOptions) error {
	st := newTextStyles(w, opt.Color)
	var b strings.Builder
	for _, part := range []struct {
		name string
		fs   []rules.Finding
	}{{"new", d.New}, {"gone", d.Gone}, {"unchanged", d.Unchanged}} {
		if len(part.fs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s (%d):\n", part.name, len(part.fs))
		for i := range part.fs {
			f := &part.fs[i]
			fmt.Fprintf(&b, "  %s %s  %s\n", st.sev[f.Severity].Render(fmt.Sprintf("%-7s", f.Severity)), st.rule.Render(f.Rule), clipText(Sanitize(f.Message), 200))
			var where []string
			if s := f.Subject.String(); s != "" {
				where = append(where, Sanitize(s))
			}
			if len(f.Evidence) > 0 {
				where = append(where, st.where.Render(Sanitize(fmt.Sprintf("%s:%d", f.Evidence[0].Source, f.Evidence[0].Line))))
			}
			if len(where) > 0 {
				fmt.Fprintf(&b, "          %s\n", strings.Join(where, "  "))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString(d.Summary() + "\n")
	out := b.String()
	if opt.CISafe {
		out = NeutralizeCommands(out)
	}
	_, err := io.WriteString(w, out)
	return err
}

// DiffJSON writes the diff as {"new": [...], "gone": [...], "unchanged":
// [...]}, each finding with its fingerprint; every list always present.
func DiffJSON(w io.Writer, d *Diff) error {
	conv := func(fs []rules.Finding) []jsonFinding {
		out := make([]jsonFinding, len(fs))
		for i := range fs {
			out[i] = jsonFinding{Finding: fs[i], Fingerprint: Fingerprint(&fs[i])}
		}
		return out
	}
	return writeJSON(w, struct {
		New       []jsonFinding `json:"new"`
		Gone      []jsonFinding `json:"gone"`
		Unchanged []jsonFinding `json:"unchanged"`
	}{conv(d.New), conv(d.Gone), conv(d.Unchanged)})
}
