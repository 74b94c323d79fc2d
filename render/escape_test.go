package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMarkdownEscaping(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain 1.2 text", "plain 1.2 text"},
		{"*a* _b_ `c` [d](e) <f> &g; |h| ~i~ !j @k #l $m \\n", `\*a\* \_b\_ \` + "`" + `c\` + "`" + ` \[d\](e) \<f\> \&g; \|h\| \~i\~ \!j \@k \#l \$m \\n`},
		{"two\nlines\r\nhere", "two lines here"},
		{"esc \x1b[31mred\x1b[0m", "esc red"},
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
