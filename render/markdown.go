package render

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/logsleuth/logsleuth/rules"
)

// MarkdownOptions say how much a markdown report holds.
type MarkdownOptions struct {
	// SummaryOnly keeps the heading, the counts and the summary table and
	// drops the per-finding sections.
	SummaryOnly bool
	// MaxBytes, when above zero, bounds the report, for places with a size
	// limit such as a GitHub job summary: past it the per-finding sections
	// are left out, then table rows (the findings that fail the run are
	// kept longest), and a last line says how many findings are shown and
	// where the whole report is. A report is never cut inside a line.
	MaxBytes int
	// FullReport says where the whole report can be read, for that last
	// line (plain text; it is escaped).
	FullReport string
	// CISafe defuses GitHub Actions workflow commands in log text (see
	// NeutralizeCommands), for a report printed where a runner reads it.
	CISafe bool
}

// Limits that keep a long report readable in a ticket: past them, text is
// folded into <details> rather than dropped.
const (
	mdEvidenceOpen   = 8    // evidence lines shown unfolded
	mdStateOpen      = 12   // state lines shown unfolded
	mdFindingsOpen   = 10   // findings whose sections are unfolded
	mdMaxEvidenceLen = 1000 // bytes of one evidence line kept
	mdMaxDiagnostics = 50   // diagnostics listed
)

// Markdown writes the report for a GitHub or Jira ticket: a summary table,
// then per finding its explanation, the evidence quoted with source:line,
// the numbers that prove it and the replayed state just before the break.
// All log text is escaped: inline text with backslashes, identifiers and
// any word GitHub would turn into a link, a mention or an issue reference
// as code spans, evidence in code blocks whose fence outlasts any
// backticks in the log. The only links and HTML are logsleuth's own.
func Markdown(w io.Writer, r *Report, opt MarkdownOptions) error {
	doc := markdownDoc(r, opt)
	_, err := io.WriteString(w, doc)
	return err
}

func markdownDoc(r *Report, opt MarkdownOptions) string {
	finish := func(s string) string {
		s = strings.TrimRight(s, "\n") + "\n"
		if opt.CISafe {
			s = NeutralizeCommands(s)
		}
		return s
	}
	head := mdHead(r)
	if len(r.Findings) == 0 {
		return finish(head + "\nNo broken invariant found.\n")
	}
	tableHead, rows := mdTable(r)
	table := tableHead + strings.Join(rows, "")
	// The sections cannot fit where the table alone does not.
	if !opt.SummaryOnly && (opt.MaxBytes <= 0 || len(head)+len(table) < opt.MaxBytes) {
		var b strings.Builder
		b.WriteString(head)
		b.WriteString("\n")
		b.WriteString(table)
		// Every section ends with a blank line, so one goes before the
		// first only.
		b.WriteString("\n")
		fold := len(r.Findings) > mdFindingsOpen
		for i := range r.Findings {
			mdFinding(&b, r, i, fold)
		}
		full := finish(b.String())
		if opt.MaxBytes <= 0 || len(full) <= opt.MaxBytes {
			return full
		}
		if s, ok := mdSomeSections(r, opt, head, table, finish); ok {
			return s
		}
	}
	summaryOnly := finish(head + "\n" + table)
	if opt.MaxBytes <= 0 || (opt.SummaryOnly && len(summaryOnly) <= opt.MaxBytes) {
		return summaryOnly
	}
	limit := fmt.Sprintf("%d KiB", opt.MaxBytes>>10)
	if opt.MaxBytes < 1<<10 {
		limit = plural(opt.MaxBytes, "byte")
	}
	short := false
	cut := func(shown int) string {
		var note string
		if shown == len(rows) {
			note = fmt.Sprintf("The per-finding sections are left out to stay within %s.", limit)
		} else {
			note = fmt.Sprintf("Showing %d of %d findings (those that fail the run first) to stay within %s.", shown, len(rows), limit)
		}
		if short {
			note += " The unreadable inputs and diagnostics are left out too."
		}
		if opt.FullReport != "" {
			note += " " + opt.FullReport
		} else {
			note += " The JSON report (--format json) holds every finding."
		}
		return "\n" + mdText(note) + "\n"
	}
	if s := finish(head + "\n" + table + cut(len(rows))); len(s) <= opt.MaxBytes {
		return s
	}
	// Rows from the end of the priority order go first; what is left is
	// printed in report order.
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		fa, fb := r.Failing(order[a]), r.Failing(order[b])
		if fa != fb {
			return fa
		}
		return r.Findings[order[a]].Severity > r.Findings[order[b]].Severity
	})
	build := func(head string, k int) string {
		keep := append([]int(nil), order[:k]...)
		sort.Ints(keep)
		var b strings.Builder
		b.WriteString(head)
		b.WriteString("\n")
		if k > 0 {
			b.WriteString(tableHead)
			for _, i := range keep {
				b.WriteString(rows[i])
			}
		}
		b.WriteString(cut(k))
		return finish(b.String())
	}
	// A head too long for the budget (thousands of unreadable inputs)
	// gives way to its first lines, which say what the run found.
	if len(build(head, 0)) > opt.MaxBytes {
		head, short = mdTitle(r), true
	}
	// The longest prefix of the order that fits: sizes grow with k (each
	// row outweighs the few bytes the note's wording changes by; the check
	// after the search makes sure).
	k := sort.Search(len(rows)+1, func(k int) bool { return len(build(head, k)) > opt.MaxBytes }) - 1
	for k > 0 && len(build(head, k)) > opt.MaxBytes {
		k--
	}
	return build(head, max(k, 0))
}

// mdSomeSections is the whole summary table with the sections of as many
// findings as fit the budget, most important first (printed in report
// order), and a note saying how many are given in full. ok is false when
// not even one section fits.
func mdSomeSections(r *Report, opt MarkdownOptions, head, table string, finish func(string) string) (string, bool) {
	order := r.priority()
	sections := make([]string, len(r.Findings))
	fold := len(r.Findings) > mdFindingsOpen
	for i := range r.Findings {
		var b strings.Builder
		mdFinding(&b, r, i, fold)
		sections[i] = b.String()
	}
	build := func(k int) string {
		keep := append([]int(nil), order[:k]...)
		sort.Ints(keep)
		var b strings.Builder
		b.WriteString(head)
		b.WriteString("\n")
		b.WriteString(table)
		note := fmt.Sprintf("The %s that matter most (those that fail the run first) are given in full below; the other %d are in the table only, to stay within %d KiB.", plural(k, "finding"), len(r.Findings)-k, opt.MaxBytes>>10)
		if opt.FullReport != "" {
			note += " " + opt.FullReport
		} else {
			note += " The JSON report (--format json) holds every finding."
		}
		b.WriteString("\n" + mdText(note) + "\n\n")
		for _, i := range keep {
			b.WriteString(sections[i])
		}
		return finish(b.String())
	}
	k := sort.Search(len(order)+1, func(k int) bool { return len(build(k)) > opt.MaxBytes }) - 1
	for k > 0 && len(build(k)) > opt.MaxBytes {
		k--
	}
	if k <= 0 {
		return "", false
	}
	return build(k), true
}

// mdTitle is the report's heading and counts.
func mdTitle(r *Report) string {
	var b strings.Builder
	b.WriteString("## logsleuth report\n\n")
	b.WriteString(summary(r))
	b.WriteString("\n")
	if r.Provenance != nil {
		b.WriteString("\n" + mdProvenance(r.Provenance) + "\n")
	}
	return b.String()
}

// mdHead is everything before the summary table: the title, and what
// could not be read.
func mdHead(r *Report) string {
	var b strings.Builder
	b.WriteString(mdTitle(r))
	if len(r.Stats.Unreadable) > 0 {
		b.WriteString("\n**Inputs that could not be read** (the rest was analysed):\n\n")
		for _, u := range r.Stats.Unreadable {
			fmt.Fprintf(&b, "- %s\n", mdText(u))
		}
	}
	if n := len(r.Stats.Diagnostics); n > 0 {
		// Lines a parser claimed but could not read: a reader of the
		// ticket should know the verdict rests on a partial read.
		fmt.Fprintf(&b, "\n<details><summary>%s: lines a parser could not read in full</summary>\n\n", htmlText(plural(n, "diagnostic")))
		for i, d := range r.Stats.Diagnostics {
			if i == mdMaxDiagnostics {
				fmt.Fprintf(&b, "- ... and %d more (see the JSON report)\n", n-i)
				break
			}
			where := d.Pos.Source
			if d.Pos.Line > 0 {
				where = d.Pos.String()
			}
			fmt.Fprintf(&b, "- %s %s\n", mdCode(where, false), mdText(d.Message))
		}
		b.WriteString("\n</details>\n")
	}
	b.WriteString(mdSources(r))
	b.WriteString(mdGone(r))
	b.WriteString(mdOmitted(r))
	return b.String()
}

// mdMaxSources bounds the sources listed; all are in the JSON report.
const mdMaxSources = 50

// mdSources says how much of each source was recognised: a line for one
// source, a folded list for several, and in bold each source nothing in
// which was recognised.
func mdSources(r *Report) string {
	st := &r.Stats
	if len(st.Sources) == 0 {
		return ""
	}
	var b strings.Builder
	bad := st.Unrecognised()
	for _, s := range bad {
		fmt.Fprintf(&b, "\n**Nothing recognised in %s** (%s): not a YugabyteDB or Elasticsearch log in a form logsleuth reads.\n", mdCode(s.Source, false), plural(s.Lines, "line"))
	}
	known, lines := 0, 0
	for _, s := range st.Sources {
		known += Recognised(s)
		lines += s.Lines
	}
	head := fmt.Sprintf("%s: %d of %s recognised", plural(len(st.Sources), "source"), known, plural(lines, "line"))
	if len(st.Sources) == 1 {
		fmt.Fprintf(&b, "\n%s.\n", mdText(head))
		return b.String()
	}
	fmt.Fprintf(&b, "\n<details><summary>%s</summary>\n\n", htmlText(head))
	for i, s := range st.Sources {
		if i == mdMaxSources {
			fmt.Fprintf(&b, "- ... and %d more (see the JSON report)\n", len(st.Sources)-i)
			break
		}
		fmt.Fprintf(&b, "- %s: %d of %s recognised\n", mdCode(s.Source, false), Recognised(s), plural(s.Lines, "line"))
	}
	b.WriteString("\n</details>\n")
	return b.String()
}

// mdProvenance is the line under the title: which logsleuth, how run,
// and how many inputs the JSON report gives digests of.
func mdProvenance(p *Provenance) string {
	s := "Written by logsleuth " + mdCode(p.Version, false) + ": " + mdCode(p.CommandLine(), false)
	if n := len(p.Inputs); n > 0 {
		s += "; " + plural(n, "input") + " hashed (SHA-256 in the JSON report)"
	}
	return s + "."
}

// mdOmitted counts, by rule, the findings --max-findings left out.
func mdOmitted(r *Report) string {
	note := r.omittedNote()
	if note == "" {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s, of these rules:\n\n| Rule | Severity | Count |\n|---|---|---:|\n", mdText(note))
	for _, o := range r.Omitted {
		fmt.Fprintf(&b, "| %s | %s | %d |\n", mdCode(o.Rule, true), o.Severity, o.Count)
	}
	return b.String()
}

// mdMaxGone bounds the gone findings listed; all are in the JSON report.
const mdMaxGone = 50

// mdGone lists, folded, the baseline's findings this run did not find
// again.
func mdGone(r *Report) string {
	if len(r.Gone) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n<details><summary>%s gone since the baseline</summary>\n\n", htmlText(plural(len(r.Gone), "finding")))
	b.WriteString("| Rule | Severity | Subject | Was at |\n|---|---|---|---|\n")
	for i := range r.Gone {
		if i == mdMaxGone {
			fmt.Fprintf(&b, "\n... and %d more (see the JSON report's `gone`)\n", len(r.Gone)-i)
			break
		}
		f := &r.Gone[i]
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdCode(f.Rule, true), f.Severity, mdSubject(f.Subject, true), mdWhere(f, true))
	}
	b.WriteString("\n</details>\n")
	return b.String()
}

// mdTable is the summary table's header and one row per finding, each
// ending in a newline.
func mdTable(r *Report) (string, []string) {
	head := "| # | Rule | Severity | Subject | Where |\n|---:|---|---|---|---|\n"
	if r.HasBaseline {
		head = "| # | Rule | Severity | Subject | Where | Status |\n|---:|---|---|---|---|---|\n"
	}
	rows := make([]string, len(r.Findings))
	for i := range r.Findings {
		f := &r.Findings[i]
		row := fmt.Sprintf("| %d | %s | %s | %s | %s |", i+1, mdCode(f.Rule, true), f.Severity, mdSubject(f.Subject, true), mdWhere(f, true))
		if r.HasBaseline {
			if r.IsBaselined(i) {
				row += " baseline |"
			} else {
				row += " **new** |"
			}
		}
		rows[i] = row + "\n"
	}
	return head, rows
}

func mdSubject(s rules.Subject, inTable bool) string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+" "+mdCode(v, inTable))
		}
	}
	add("tablet", s.Tablet)
	add("peer", s.Peer)
	add("index", s.Index)
	if s.Shard != nil {
		parts = append(parts, fmt.Sprintf("shard %d", *s.Shard))
	}
	add("node", s.Node)
	add("allocation", s.Allocation)
	if len(parts) == 0 && s.System != "" {
		return mdCode(s.System, inTable)
	}
	return strings.Join(parts, " ")
}

func mdWhere(f *rules.Finding, inTable bool) string {
	if len(f.Evidence) == 0 {
		return ""
	}
	return mdCode(fmt.Sprintf("%s:%d", f.Evidence[0].Source, f.Evidence[0].Line), inTable)
}

func mdFinding(b *strings.Builder, r *Report, i int, fold bool) {
	f := &r.Findings[i]
	rule := r.Rule(f.Rule)
	title := ""
	if rule != nil {
		title = rule.Title
	}
	if fold {
		head := fmt.Sprintf("%d. %s %s", i+1, f.Severity, f.Rule)
		if title != "" {
			head += ": " + title
		}
		fmt.Fprintf(b, "<details><summary>%s</summary>\n\n", htmlText(head))
	}
	fmt.Fprintf(b, "### %d. %s %s", i+1, f.Severity, mdCode(f.Rule, false))
	if title != "" {
		b.WriteString(": " + mdProse(title))
	}
	b.WriteString("\n\n")
	meta := []string{"**Origin:** " + string(f.Origin)}
	if s := mdSubject(f.Subject, false); s != "" {
		meta = append([]string{"**Subject:** " + s}, meta...)
	}
	if r.HasBaseline {
		if r.IsBaselined(i) {
			meta = append(meta, "**Baseline:** already known")
		} else {
			meta = append(meta, "**Baseline:** new")
		}
	}
	b.WriteString(strings.Join(meta, " · "))
	b.WriteString("\n\n")
	fmt.Fprintf(b, "> %s\n\n", mdText(f.Message))
	if rule != nil && rule.Explain != "" {
		b.WriteString(mdProse(rule.Explain))
		if len(rule.Upstream) > 0 {
			b.WriteString(" Seen upstream:")
			for j, u := range rule.Upstream {
				if j > 0 {
					b.WriteString(",")
				}
				b.WriteString(" " + mdLink(u))
			}
			b.WriteString(".")
		}
		b.WriteString("\n\n")
	}
	if len(f.Evidence) > 0 {
		var ev strings.Builder
		for _, e := range f.Evidence {
			fmt.Fprintf(&ev, "%s:%d  %s\n", sanitizeInline(e.Source), e.Line, clipText(sanitizeInline(strings.TrimRight(e.Text, " \t")), mdMaxEvidenceLen))
		}
		mdBlock(b, fmt.Sprintf("Evidence (%s)", plural(len(f.Evidence), "line")), "**Evidence**", ev.String(), len(f.Evidence) > mdEvidenceOpen)
	}
	if len(f.Facts) > 0 {
		b.WriteString("**Numbers**\n\n| Fact | Value |\n|---|---|\n")
		keys := make([]string, 0, len(f.Facts))
		for k := range f.Facts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(b, "| %s | %s |\n", mdCode(k, true), mdCode(f.Facts[k], true))
		}
		b.WriteString("\n")
	}
	if len(f.State) > 0 {
		who := "the subject"
		if s := f.Subject.String(); s != "" {
			who = s
		}
		label := "**" + mdText("Replayed state of "+who+" just before the break") + "**"
		// The folded summary is raw HTML, where GitHub still links and
		// mentions: it carries no log text.
		folded := fmt.Sprintf("Replayed state just before the break (%s)", plural(len(f.State), "line"))
		mdBlock(b, folded, label, strings.Join(sanitizeAll(f.State), "\n")+"\n", len(f.State) > mdStateOpen)
	}
	if fold {
		b.WriteString("</details>\n\n")
	}
}

// mdBlock writes a code block under a bold label, or folded into a
// <details> whose summary is summaryText when folded is set. summaryText
// goes into raw HTML, where GitHub links URLs and mentions even when
// escaped: it must hold no log text.
func mdBlock(b *strings.Builder, summaryText, label, block string, folded bool) {
	block = SanitizeLines(block)
	fence := mdFence(block)
	if folded {
		fmt.Fprintf(b, "<details><summary>%s</summary>\n\n", htmlText(summaryText))
	} else {
		b.WriteString(label + "\n\n")
	}
	fmt.Fprintf(b, "%stext\n%s%s\n\n", fence, block, fence)
	if folded {
		b.WriteString("</details>\n\n")
	}
}

// mdLink writes a catalog URL as an autolink when it is a plain http(s)
// URL, else as escaped text: catalog text is ours, but a link is the one
// place markdown would execute a scheme.
func mdLink(u string) string {
	if (strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")) && !strings.ContainsAny(u, "<> \t\r\n\"'`") {
		return "<" + u + ">"
	}
	return mdText(u)
}
