package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/rules"
)

// manyFindings is n findings shaped like a real lease-overlap run's: two
// long evidence lines, facts and a screen of replayed state each.
//
// Finding i is of rule i%3: yb/lease/overlap and yb/raft/election-storm
// are errors, yb/mvcc/ht-below-safe-time (i%3 == 1) a warning.
func manyFindings(n int) *Report {
	r := &Report{FailOn: rules.Error}
	for i := 0; i < n; i++ {
		sev := rules.Error
		if i%3 == 1 {
			sev = rules.Warning
		}
		f := rules.Finding{
			Rule: []string{"yb/lease/overlap", "yb/mvcc/ht-below-safe-time", "yb/raft/election-storm"}[i%3], Severity: sev, Origin: rules.Derived,
			Subject: rules.Subject{System: "yb", Tablet: fmt.Sprintf("%032x", i), Peer: "5b1b7bc5003d04e9809ae92433466933"},
			Message: fmt.Sprintf("op 17.%d at ht 16966944093973%02d falls inside the ht lease the term-15 leader held until 1696694410597272", 686821+i, i),
			Facts:   map[string]string{"ht": fmt.Sprint(1696694409397322 + i), "lease_term": "15"},
		}
		for j := 0; j < 2; j++ {
			f.Evidence = append(f.Evidence, rules.Evidence{Source: "yb-tserver.INFO", Line: 1000*i + j,
				Text: "I1007 16:39:07.497722 954679 mvcc.cc:395] T " + f.Subject.Tablet + " P " + f.Subject.Peer + ": " + strings.Repeat("UpdatePropagatedSafeTimeOnLeader { ht_lease: { time: { physical: 1696694409397472 } } } ", 3)})
		}
		for j := 0; j < 20; j++ {
			f.State = append(f.State, fmt.Sprintf("field %d: value of the replayed state %d", j, 1696694409397322+j))
		}
		r.Findings = append(r.Findings, f)
	}
	return r
}

// 70 findings make a markdown report far above what a GitHub comment
// holds; under the comment's budget it keeps the whole table and as many
// findings in full as fit, the failing ones first.
func TestMarkdownFitsAComment(t *testing.T) {
	r := manyFindings(70)
	var full, cut bytes.Buffer
	require.NoError(t, Markdown(&full, r, MarkdownOptions{}))
	t.Logf("70 findings: %d bytes whole", full.Len())
	assert.Greater(t, full.Len(), 65536)
	require.NoError(t, Markdown(&cut, r, MarkdownOptions{MaxBytes: 65536}))
	t.Logf("70 findings: %d bytes in a comment's budget", cut.Len())
	assert.LessOrEqual(t, utf8.RuneCount(cut.Bytes()), 65536)
	for i := 1; i <= 70; i++ {
		assert.Contains(t, cut.String(), fmt.Sprintf("\n| %d | ", i), "every finding is in the table")
	}
	assert.Contains(t, cut.String(), "### 1. error")
	assert.Regexp(t, `The [0-9]+ findings that matter most`, cut.String())
	// The warnings (every third from the second) are the first left out.
	assert.NotContains(t, cut.String(), "### 2. warning")
}

func TestLimitKeepsWhatMattersMost(t *testing.T) {
	r := manyFindings(9) // errors at 0, 2, 3, 5, 6, 8; warnings at 1, 4, 7
	r.Baselined = make([]bool, 9)
	r.Baselined[0] = true // an error already known: not failing
	want := []rules.Finding{r.Findings[2], r.Findings[3], r.Findings[5], r.Findings[6]}
	r.Limit(4)
	assert.Equal(t, want, r.Findings, "failing errors first, in report order")
	assert.Equal(t, []bool{false, false, false, false}, r.Baselined)
	assert.Equal(t, []Omitted{
		{Rule: "yb/lease/overlap", Severity: rules.Error, Count: 1}, // the baselined one
		{Rule: "yb/raft/election-storm", Severity: rules.Error, Count: 1, Failing: 1},
		{Rule: "yb/mvcc/ht-below-safe-time", Severity: rules.Warning, Count: 3},
	}, r.Omitted)
	assert.Equal(t, 5, r.OmittedCount())
	assert.Equal(t, 9, r.Counts()[rules.Error]+r.Counts()[rules.Warning], "counts keep the omitted")

	out := renderAll(t, r)
	note := "5 more findings not shown (--max-findings 4; a larger value, or 0, shows them)"
	for _, name := range []string{"report.txt", "report.md", "report.sarif"} {
		assert.Contains(t, string(out[name]), note, name)
	}
	assert.Contains(t, string(out["report.txt"]), "9 findings (6 errors, 3 warnings) in 0 sources")
	var js struct {
		Omitted []Omitted `json:"omitted"`
	}
	require.NoError(t, json.Unmarshal(out["report.json"], &js))
	assert.Equal(t, r.Omitted, js.Omitted)
	p := parseJUnit(t, r)
	fails := 0
	for _, s := range p.Suites {
		for _, c := range s.Cases {
			for _, f := range c.Failures {
				if strings.Contains(f.Message, "not shown") {
					fails++
					assert.Equal(t, "1 error of yb/raft/election-storm not shown (--max-findings 4)", f.Message)
				}
			}
		}
	}
	assert.Equal(t, 1, fails, "an omitted failing finding still fails its test case")

	r = manyFindings(3)
	r.Limit(0)
	assert.Len(t, r.Findings, 3)
	assert.Nil(t, r.Omitted)
}

func TestTextSummaryOnly(t *testing.T) {
	r := manyFindings(5)
	var b bytes.Buffer
	require.NoError(t, Text(&b, r, TextOptions{SummaryOnly: true}))
	assert.Equal(t, `   2 error   yb/lease/overlap
   1 error   yb/raft/election-storm
   2 warning yb/mvcc/ht-below-safe-time

5 findings (3 errors, 2 warnings) in 0 sources, 0 lines, 0 events, 0 unclaimed, 0 diagnostics
`, b.String())
}
