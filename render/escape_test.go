package render

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/rules"
)

func TestMarkdownEscaping(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain 1.2 text", "plain 1.2 text"},
		{"*a* _b_ `c` [d](e) <f> &g; |h| ~i~ !j $m \\n", `\*a\* \_b\_ \` + "`" + `c\` + "`" + ` \[d\](e) \<f\> \&g; \|h\| \~i\~ \!j \$m \\n`},
		{"two\nlines\r\nhere", "two lines here"},
		{"esc \x1b[31mred\x1b[0m", `esc \\x1b\[31mred\\x1b\[0m`},
		// What GitHub links, mentions or references whatever the
		// escaping is a code span.
		{"ping @admin and #123 or GH-9, see https://x.io/a_b or www.evil.com, mail a@b.co", "ping `@admin` and `#123` or `GH-9,` see `https://x.io/a_b` or `www.evil.com,` mail `a@b.co`"},
		{"ftp://h/x FTP://H/X Www.x.org gh-12 owner/repo#1", "`ftp://h/x` `FTP://H/X` `Www.x.org` `gh-12` `owner/repo#1`"},
		{"ok: gh- and www and http: stay text", "ok: gh- and www and http: stay text"},
	} {
		assert.Equal(t, tc.want, mdText(tc.in), tc.in)
	}
}

func TestMarkdownCode(t *testing.T) {
	assert.Equal(t, "`a`", mdCode("a", false))
	assert.Equal(t, "`` a`b ``", mdCode("a`b", false)[0:2]+" a`b "+"``")
	assert.Equal(t, "`` `x ``", mdCode("`x", false))
	assert.Equal(t, "`a\\|b`", mdCode("a|b", true))
	assert.Equal(t, "`a|b`", mdCode("a|b", false))
	assert.Equal(t, "` `", mdCode("", false))
}

// TestMarkdownFenceCannotBeClosed: however many backticks a log line has,
// the block around it outlasts them.
func TestMarkdownFenceCannotBeClosed(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 10} {
		block := "x " + strings.Repeat("`", n) + " y\n"
		fence := mdFence(block)
		assert.GreaterOrEqual(t, len(fence), 3)
		assert.Greater(t, len(fence), n)
	}
}

func TestMarkdownProse(t *testing.T) {
	assert.Equal(t, "aborts with `ht >= x_` \\*now\\*", mdProse("aborts with `ht >= x_` *now*"))
	assert.Equal(t, "odd \\` tick", mdProse("odd ` tick"))
}

func TestHTMLText(t *testing.T) {
	assert.Equal(t, "a &lt;b&gt; &amp; &#34;c&#34; d", htmlText("a <b> & \"c\"\nd"))
}

func TestMarkdownLongReportFolds(t *testing.T) {
	r := sampleReport()
	for len(r.Findings) <= mdFindingsOpen {
		r.Findings = append(r.Findings, r.Findings[0])
	}
	var b strings.Builder
	assert.NoError(t, Markdown(&b, r, MarkdownOptions{}))
	out := b.String()
	assert.Equal(t, len(r.Findings)+1, strings.Count(out, "<details><summary>"), "each finding folded, plus the long evidence")
	assert.Equal(t, strings.Count(out, "<details>"), strings.Count(out, "</details>\n"))

	b.Reset()
	assert.NoError(t, Markdown(&b, r, MarkdownOptions{SummaryOnly: true}))
	assert.NotContains(t, b.String(), "### ")
	assert.Contains(t, b.String(), "| 11 | `yb/mvcc/ht-below-safe-time` |")
}

// TestMarkdownMaxBytes: a report over its budget drops the sections, then
// table rows (findings that fail the run kept longest), never cuts a
// line, and says what it left out and where the rest is.
func TestMarkdownMaxBytes(t *testing.T) {
	r := sampleReport() // FailOn warning: the note does not fail
	base := r.Findings
	r.Findings = nil
	for i := 0; i < 2000; i++ {
		f := base[i%len(base)]
		f.Evidence = append([]rules.Evidence(nil), f.Evidence...)
		f.Evidence[0].Line = 1000 + i
		r.Findings = append(r.Findings, f)
	}
	failing := 0
	for i := range r.Findings {
		if r.Failing(i) {
			failing++
		}
	}
	var full strings.Builder
	require.NoError(t, Markdown(&full, r, MarkdownOptions{}))
	var b strings.Builder
	require.NoError(t, Markdown(&b, r, MarkdownOptions{MaxBytes: 10 * len(full.String())}))
	assert.Equal(t, full.String(), b.String(), "a report within its budget is whole")

	var table strings.Builder
	require.NoError(t, Markdown(&table, r, MarkdownOptions{SummaryOnly: true}))
	b.Reset()
	require.NoError(t, Markdown(&b, r, MarkdownOptions{MaxBytes: table.Len() + 400, FullReport: "The full report: report.md."}))
	assert.LessOrEqual(t, b.Len(), table.Len()+400)
	assert.NotContains(t, b.String(), "### ")
	assert.Equal(t, 2000, strings.Count(b.String(), "\n| ")-1, "every row, without the sections")
	assert.Contains(t, b.String(), "The per-finding sections are left out to stay within")
	assert.True(t, strings.HasSuffix(b.String(), "The full report: report.md.\n"), b.String()[b.Len()-200:])

	for _, budget := range []int{20 << 10, 100 << 10, 3000} {
		b.Reset()
		require.NoError(t, Markdown(&b, r, MarkdownOptions{MaxBytes: budget, FullReport: "The full report: report.md."}))
		out := b.String()
		assert.LessOrEqual(t, len(out), budget)
		var shown []int
		for _, l := range strings.Split(out, "\n") {
			if !strings.HasPrefix(l, "| ") || strings.HasPrefix(l, "| #") {
				continue
			}
			require.True(t, strings.HasSuffix(l, " |"), "row cut: %q", l)
			var n int
			_, err := fmt.Sscanf(l, "| %d |", &n)
			require.NoError(t, err, l)
			shown = append(shown, n)
		}
		require.NotEmpty(t, shown, "budget %d", budget)
		assert.True(t, sort.IntsAreSorted(shown), "rows in report order")
		assert.Less(t, len(shown), failing, "budget %d shows fewer rows than fail", budget)
		for _, n := range shown {
			assert.True(t, r.Failing(n-1), "row %d does not fail the run but was kept over one that does", n)
		}
		assert.Contains(t, out, fmt.Sprintf("Showing %d of 2000 findings (those that fail the run first)", len(shown)))
		assert.True(t, strings.HasSuffix(out, "The full report: report.md.\n"))
	}

	// A budget below the head still says what was found and where.
	b.Reset()
	require.NoError(t, Markdown(&b, r, MarkdownOptions{MaxBytes: 10, FullReport: "See report.md."}))
	assert.Contains(t, b.String(), "2000 findings")
	assert.Contains(t, b.String(), "Showing 0 of 2000 findings")
}
