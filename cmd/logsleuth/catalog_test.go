package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/rules"
)

// TestRulesListsTheCatalog: rules, explain and SARIF read the packs'
// catalog, so every rule a pack declares is listed, in ID order.
func TestRulesListsTheCatalog(t *testing.T) {
	catalog := rules.Catalog(newPacks())
	require.NotEmpty(t, catalog)
	r := logsleuth(t, "", nil, "rules")
	require.Equal(t, exitClean, r.code, r.stderr)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	require.Len(t, lines, len(catalog)+1)
	for i, rule := range catalog {
		fields := strings.Fields(lines[i+1])
		assert.Equal(t, rule.ID, fields[0])
		assert.Equal(t, rule.Severity.String(), fields[1])
		assert.True(t, strings.HasSuffix(lines[i+1], " "+rule.Title), lines[i+1])
	}

	r = logsleuth(t, "", nil, "rules", "--format", "json")
	var got []rules.Rule
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	require.Len(t, got, len(catalog))
	for i := range catalog {
		assert.Equal(t, catalog[i].ID, got[i].ID)
		assert.Equal(t, catalog[i].Explain, got[i].Explain)
	}

	// Every rule explains itself.
	for _, rule := range catalog {
		r := logsleuth(t, "", nil, "explain", rule.ID)
		assert.Equal(t, exitClean, r.code, rule.ID)
		assert.True(t, strings.HasPrefix(r.stdout, rule.ID+"  ("+rule.Severity.String()+")\n"+rule.Title+"\n"), rule.ID)
	}

	// SARIF carries the catalog as rule metadata, JUnit one case per rule.
	r = logsleuth(t, "", nil, "analyze", "--format", "sarif", sample)
	var sarif struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID string } `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &sarif))
	require.Len(t, sarif.Runs[0].Tool.Driver.Rules, len(catalog))
	r = logsleuth(t, "", nil, "analyze", "--format", "junit", sample)
	assert.Equal(t, len(catalog), strings.Count(r.stdout, "<testcase "))
}

func TestSelectRules(t *testing.T) {
	cat := []rules.Rule{{ID: "es/seqno/a"}, {ID: "yb/lease/overlap"}, {ID: "yb/mvcc/ht-below-safe-time"}, {ID: "yb/mvcc/queue-order"}}
	ids := func(pattern string) []string {
		sel, err := selectRules(pattern, cat)
		require.NoError(t, err, pattern)
		var out []string
		for _, r := range cat {
			if sel.has(r.ID) {
				out = append(out, r.ID)
			}
		}
		return out
	}
	assert.Len(t, ids(""), 4)
	assert.Equal(t, []string{"yb/lease/overlap", "yb/mvcc/ht-below-safe-time", "yb/mvcc/queue-order"}, ids("yb"))
	assert.Equal(t, []string{"yb/mvcc/ht-below-safe-time", "yb/mvcc/queue-order"}, ids("yb/mvcc/"))
	assert.Equal(t, []string{"yb/mvcc/queue-order"}, ids("yb/mvcc/queue-order"))
	assert.Equal(t, []string{"es/seqno/a", "yb/lease/overlap"}, ids("es,*/lease"))
	assert.Equal(t, []string{"es/seqno/a", "yb/lease/overlap", "yb/mvcc/queue-order"}, ids("!yb/mvcc/ht-*"))
	assert.Equal(t, []string{"yb/mvcc/queue-order"}, ids("yb/mvcc, !yb/mvcc/ht-below-safe-time"))
	assert.Equal(t, []string{"yb/lease/overlap", "yb/mvcc/ht-below-safe-time", "yb/mvcc/queue-order"}, ids("yb/*"))
	for _, bad := range []string{"yb/mv", "zz", "[", "!nothing", ","} {
		_, err := selectRules(bad, cat)
		assert.Error(t, err, bad)
		assert.Equal(t, exitUsage, exitCode(err), bad)
	}
}
