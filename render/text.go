package render

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/logsleuth/logsleuth/rules"
)

// TextOptions say how text output looks.
type TextOptions struct {
	// Color turns on lipgloss styling; callers set it for terminals only.
	Color bool
	// CISafe defuses GitHub Actions workflow commands in log text (see
	// NeutralizeCommands), for a report printed where a runner reads it.
	CISafe bool
	// SummaryOnly (--summary) gives the findings' counts by rule and the
	// summary line, not each finding.
	SummaryOnly bool
}

type textStyles struct {
	sev     map[rules.Severity]lipgloss.Style
	rule    lipgloss.Style
	dim     lipgloss.Style
	where   lipgloss.Style
	message lipgloss.Style
}

func newTextStyles(w io.Writer, color bool) textStyles {
	r := lipgloss.NewRenderer(w)
	if color {
		r.SetColorProfile(termenv.ANSI256)
	} else {
		r.SetColorProfile(termenv.Ascii)
	}
	return textStyles{
		sev: map[rules.Severity]lipgloss.Style{
			rules.Error:   r.NewStyle().Bold(true).Foreground(lipgloss.Color("9")),
			rules.Warning: r.NewStyle().Bold(true).Foreground(lipgloss.Color("11")),
			rules.Note:    r.NewStyle().Foreground(lipgloss.Color("12")),
		},
		rule:    r.NewStyle().Bold(true),
		dim:     r.NewStyle().Faint(true),
		where:   r.NewStyle().Foreground(lipgloss.Color("14")),
		message: r.NewStyle(),
	}
}

// Text writes the report for a person reading a terminal or a ticket.
// Every piece of log text passes through Sanitize, which shows control
// and invisible characters as escapes.
func Text(w io.Writer, r *Report, opt TextOptions) error {
	st := newTextStyles(w, opt.Color)
	var b strings.Builder
	shown := r.Findings
	if opt.SummaryOnly {
		shown = nil
		b.WriteString(countsText(r, st))
	}
	for i, f := range shown {
		if i > 0 {
			b.WriteString("\n")
		}
		sev := fmt.Sprintf("%-7s", f.Severity)
		origin := string(f.Origin)
		if r.IsBaselined(i) {
			origin += ", in baseline"
		}
		fmt.Fprintf(&b, "%s %s  %s\n", st.sev[f.Severity].Render(sev), st.rule.Render(f.Rule), st.dim.Render("("+origin+")"))
		if s := f.Subject.String(); s != "" {
			fmt.Fprintf(&b, "        %s\n", Sanitize(s))
		}
		fmt.Fprintf(&b, "        %s\n", st.message.Render(Sanitize(f.Message)))
		for _, e := range f.Evidence {
			where := fmt.Sprintf("%s:%d", Sanitize(e.Source), e.Line)
			fmt.Fprintf(&b, "        %s  %s\n", st.where.Render(where), clipText(Sanitize(strings.TrimSpace(e.Text)), 160))
		}
		if len(f.Facts) > 0 {
			keys := make([]string, 0, len(f.Facts))
			for k := range f.Facts {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			parts := make([]string, len(keys))
			for i, k := range keys {
				parts[i] = Sanitize(k) + "=" + Sanitize(f.Facts[k])
			}
			fmt.Fprintf(&b, "        %s\n", st.dim.Render(strings.Join(parts, " ")))
		}
	}
	if len(shown) > 0 {
		b.WriteString("\n")
		if note := r.omittedNote(); note != "" {
			b.WriteString("... " + note + ":\n")
			for _, o := range r.Omitted {
				fmt.Fprintf(&b, "  %4d %s %s\n", o.Count, st.sev[o.Severity].Render(fmt.Sprintf("%-7s", o.Severity)), st.rule.Render(o.Rule))
			}
			b.WriteString("\n")
		}
	}
	if len(r.Gone) > 0 {
		b.WriteString(goneText(r, st))
	}
	if len(r.Stats.Sources) > 1 || len(r.Stats.Unrecognised()) > 0 {
		b.WriteString(sources(r, st))
	}
	for _, s := range r.Stats.Unrecognised() {
		fmt.Fprintf(&b, "nothing recognised in %s (%s): not a YugabyteDB or Elasticsearch log in a form logsleuth reads\n", Sanitize(s.Source), plural(s.Lines, "line"))
	}
	b.WriteString(summary(r))
	b.WriteString("\n")
	out := b.String()
	if opt.CISafe {
		out = NeutralizeCommands(out)
	}
	_, err := io.WriteString(w, out)
	return err
}

// countsText is, for --summary, how many findings each rule and
// severity has, most severe first.
func countsText(r *Report, st textStyles) string {
	type key struct {
		sev  rules.Severity
		rule string
	}
	n := map[key]int{}
	for _, f := range r.Findings {
		n[key{f.Severity, f.Rule}]++
	}
	for _, o := range r.Omitted {
		n[key{o.Severity, o.Rule}] += o.Count
	}
	keys := make([]key, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].sev != keys[j].sev {
			return keys[i].sev > keys[j].sev
		}
		return keys[i].rule < keys[j].rule
	})
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%4d %s %s\n", n[k], st.sev[k.sev].Render(fmt.Sprintf("%-7s", k.sev)), st.rule.Render(k.rule))
	}
	if len(keys) > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// goneText lists the baseline's findings this run did not find again,
// one a line, with where the baseline saw them.
func goneText(r *Report, st textStyles) string {
	var b strings.Builder
	fmt.Fprintf(&b, "gone since the baseline (%d):\n", len(r.Gone))
	for i := range r.Gone {
		f := &r.Gone[i]
		fmt.Fprintf(&b, "  %s %s  %s\n", st.sev[f.Severity].Render(fmt.Sprintf("%-7s", f.Severity)), st.rule.Render(f.Rule), clipText(Sanitize(f.Message), 200))
		var where []string
		if s := f.Subject.String(); s != "" {
			where = append(where, Sanitize(s))
		}
		if len(f.Evidence) > 0 {
			where = append(where, "was at "+Sanitize(fmt.Sprintf("%s:%d", f.Evidence[0].Source, f.Evidence[0].Line)))
		}
		if len(where) > 0 {
			fmt.Fprintf(&b, "          %s\n", st.dim.Render(strings.Join(where, ", ")))
		}
	}
	b.WriteString("\n")
	return b.String()
}

// baselineSummary is "2 new, 1 gone, 3 unchanged since the baseline".
func baselineSummary(r *Report) string {
	n := r.NewCount()
	return fmt.Sprintf("%d new, %d gone, %d unchanged since the baseline", n, len(r.Gone), len(r.Findings)-n)
}

// sources says, when several inputs were read (or one was not
// recognised), how much of each was recognised and which peers or nodes
// each speaks for: the first thing to check when a verdict spans files.
func sources(r *Report, st textStyles) string {
	var b strings.Builder
	b.WriteString("sources:\n")
	for _, s := range r.Stats.Sources {
		who := "no peer or node named"
		if len(s.SpeaksFor) > 0 {
			who = strings.Join(s.SpeaksFor, ", ")
		}
		fmt.Fprintf(&b, "  %s  %d of %s recognised  %s\n", st.where.Render(Sanitize(s.Source)), Recognised(s), plural(s.Lines, "line"), Sanitize(clipText(who, 200)))
	}
	b.WriteString("\n")
	return b.String()
}

// summary is the last line of a text report.
func summary(r *Report) string {
	c := r.Counts()
	n := len(r.Findings) + r.OmittedCount()
	var parts []string
	for _, s := range []rules.Severity{rules.Error, rules.Warning, rules.Note} {
		if c[s] > 0 {
			parts = append(parts, plural(c[s], s.String()))
		}
	}
	head := plural(n, "finding")
	if len(parts) > 0 {
		head += " (" + strings.Join(parts, ", ") + ")"
	}
	st := r.Stats
	out := fmt.Sprintf("%s in %s, %s, %s, %d unclaimed, %s",
		head, plural(len(st.Sources), "source"), plural(st.Lines, "line"), plural(st.Events, "event"),
		st.Unclaimed, plural(len(st.Diagnostics), "diagnostic"))
	if m := r.OmittedCount(); m > 0 {
		out += fmt.Sprintf("; %d shown (--max-findings %d)", len(r.Findings), r.MaxFindings)
	}
	if r.HasBaseline {
		out += "; " + baselineSummary(r)
	}
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xc0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
