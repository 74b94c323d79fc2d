package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/logsleuth/logsleuth/rules"
)

// RulesText lists the catalog, one rule a line: ID, severity and title in
// aligned columns, for `logsleuth rules`.
func RulesText(w io.Writer, rs []rules.Rule) error {
	width := len("ID")
	for _, r := range rs {
		if n := len(r.ID); n > width {
			width = n
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s  %-8s %s\n", width, "ID", "SEVERITY", "TITLE")
	for _, r := range rs {
		fmt.Fprintf(&b, "%-*s  %-8s %s\n", width, Sanitize(r.ID), r.Severity, Sanitize(r.Title))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonRule is a catalog entry as `rules --format json` prints it: every
// field always present, so scripts need no defaults.
type jsonRule struct {
	ID       string         `json:"id"`
	Title    string         `json:"title"`
	Severity rules.Severity `json:"severity"`
	Explain  string         `json:"explain"`
	Example  string         `json:"example"`
	Upstream []string       `json:"upstream"`
}

// RulesJSON writes the catalog as a JSON array sorted by ID.
func RulesJSON(w io.Writer, rs []rules.Rule) error {
	out := make([]jsonRule, len(rs))
	for i, r := range rs {
		up := r.Upstream
		if up == nil {
			up = []string{}
		}
		out[i] = jsonRule{ID: r.ID, Title: r.Title, Severity: r.Severity, Explain: r.Explain, Example: r.Example, Upstream: up}
	}
	return writeJSON(w, out)
}

// Explain writes what a support engineer needs to trust a finding of rule
// r: the invariant and why its break matters, what evidence triggers it,
// an example, and the public upstream issues where it was seen.
func Explain(w io.Writer, r rules.Rule) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  (%s)\n%s\n", Sanitize(r.ID), r.Severity, Sanitize(r.Title))
	if r.Explain != "" {
		b.WriteString("\nInvariant, why its break matters, and what triggers the rule:\n")
		for _, l := range wrap(Sanitize(r.Explain), 76) {
			b.WriteString("  " + l + "\n")
		}
	}
	if r.Example != "" {
		b.WriteString("\nExample evidence:\n")
		for _, l := range strings.Split(SanitizeLines(r.Example), "\n") {
			b.WriteString("  | " + l + "\n")
		}
	}
	if len(r.Upstream) > 0 {
		b.WriteString("\nSeen upstream:\n")
		for _, u := range r.Upstream {
			b.WriteString("  " + Sanitize(u) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RuleHelpText is a rule's explanation, example and upstream issues as
// plain text, for SARIF's help.text.
func RuleHelpText(r rules.Rule) string {
	var b strings.Builder
	b.WriteString(r.Explain)
	if r.Example != "" {
		b.WriteString("\n\nExample evidence:\n" + r.Example)
	}
	if len(r.Upstream) > 0 {
		b.WriteString("\n\nSeen upstream: " + strings.Join(r.Upstream, ", "))
	}
	return b.String()
}

// RuleHelpMarkdown is RuleHelpText as markdown, for SARIF's help.markdown
// (GitHub shows it under an alert).
func RuleHelpMarkdown(r rules.Rule) string {
	var b strings.Builder
	b.WriteString(mdProse(r.Explain))
	if r.Example != "" {
		ex := SanitizeLines(r.Example)
		fence := mdFence(ex)
		fmt.Fprintf(&b, "\n\n**Example evidence**\n\n%stext\n%s\n%s", fence, ex, fence)
	}
	if len(r.Upstream) > 0 {
		b.WriteString("\n\n**Seen upstream**\n")
		for _, u := range r.Upstream {
			b.WriteString("\n- " + mdLink(u))
		}
	}
	return b.String()
}

// wrap breaks s into lines of at most width bytes at spaces (a longer
// word gets a line of its own).
func wrap(s string, width int) []string {
	var lines []string
	var cur strings.Builder
	for _, w := range strings.Fields(s) {
		if cur.Len() > 0 && cur.Len()+1+len(w) > width {
			lines = append(lines, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(w)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}
