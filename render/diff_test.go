package render

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/rules"
)

// Copies count: two identical findings before and one after is one gone.
func TestDiffIsAMultiset(t *testing.T) {
	a, b, c := baseFinding(), baseFinding(), baseFinding()
	b.Rule = "yb/lease/overlap"
	c.Message = "op 17.686822 at ht 1696696747406943 is 1 us below the safe time"
	moved := baseFinding()
	moved.Evidence[0].Source, moved.Evidence[0].Line = "-", 1039
	d := NewDiff([]rules.Finding{a, a, b}, []rules.Finding{c, moved})
	assert.Equal(t, []rules.Finding{c}, d.New)
	assert.Equal(t, []rules.Finding{a, b}, d.Gone, "the second copy of a, and b")
	assert.Equal(t, []rules.Finding{moved}, d.Unchanged, "the same finding read from stdin at another line")
	assert.Equal(t, "1 new, 2 gone, 1 unchanged", d.Summary())

	var out bytes.Buffer
	require.NoError(t, DiffText(&out, d, TextOptions{}))
	assert.Equal(t, `new (1):
  error   yb/mvcc/ht-below-safe-time  op 17.686822 at ht 1696696747406943 is 1 us below the safe time
          tablet 35ef peer daf8  bundle/node-1/tserver.log:39

gone (2):
  error   yb/mvcc/ht-below-safe-time  op 17.686821 at ht 1696696747406942 is 77902 us below the safe time 1696696747484844.4095
          tablet 35ef peer daf8  bundle/node-1/tserver.log:39
  error   yb/lease/overlap  op 17.686821 at ht 1696696747406942 is 77902 us below the safe time 1696696747484844.4095
          tablet 35ef peer daf8  bundle/node-1/tserver.log:39

unchanged (1):
  error   yb/mvcc/ht-below-safe-time  op 17.686821 at ht 1696696747406942 is 77902 us below the safe time 1696696747484844.4095
          tablet 35ef peer daf8  -:1039

1 new, 2 gone, 1 unchanged
`, out.String())

	out.Reset()
	require.NoError(t, DiffJSON(&out, NewDiff(nil, nil)))
	var got map[string][]json.RawMessage
	require.NoError(t, json.Unmarshal(out.Bytes(), &got))
	assert.Len(t, got, 3)
	for _, k := range []string{"new", "gone", "unchanged"} {
		assert.NotNil(t, got[k], "%s is present even when empty", k)
	}
}

// With a baseline every format says what went away.
func TestGoneInEveryFormat(t *testing.T) {
	r := sampleReport()
	old := baseFinding()
	old.Rule = "yb/lease/overlap"
	r.HasBaseline = true
	r.Baselined, r.Gone = NewBaseline(append(r.Findings[:1:1], old)).Compare(r.Findings)
	out := renderAll(t, r)
	assert.Contains(t, string(out["report.txt"]), "; 3 new, 1 gone, 1 unchanged since the baseline\n")
	assert.Contains(t, string(out["report.txt"]), "gone since the baseline (1):\n  error   yb/lease/overlap")
	assert.Contains(t, string(out["report.md"]), "3 new, 1 gone, 1 unchanged since the baseline")
	assert.Contains(t, string(out["report.md"]), "<details><summary>1 finding gone since the baseline</summary>")
	var js struct {
		Gone []struct {
			Rule        string `json:"rule"`
			Fingerprint string `json:"fingerprint"`
		} `json:"gone"`
	}
	require.NoError(t, json.Unmarshal(out["report.json"], &js))
	require.Len(t, js.Gone, 1)
	assert.Equal(t, Fingerprint(&old), js.Gone[0].Fingerprint)
	var sarif struct {
		Runs []struct {
			Results []struct {
				RuleID        string `json:"ruleId"`
				BaselineState string `json:"baselineState"`
			} `json:"results"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal(out["report.sarif"], &sarif))
	states := map[string]int{}
	for _, res := range sarif.Runs[0].Results {
		states[res.BaselineState]++
	}
	assert.Equal(t, map[string]int{"new": 3, "unchanged": 1, "absent": 1}, states)

	// Without a baseline there is no "gone" at all.
	r = sampleReport()
	out = renderAll(t, r)
	assert.NotContains(t, string(out["report.json"]), `"gone"`)
	assert.NotContains(t, string(out["report.txt"]), "baseline")
}
