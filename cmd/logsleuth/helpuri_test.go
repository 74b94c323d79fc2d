package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/render"
)

// Every rule in SARIF links to its page in the repository's docs/rules,
// and the page is there.
func TestSARIFHelpURIIsTheRulePage(t *testing.T) {
	r := logsleuth(t, "", nil, "analyze", "--fail-on", "none", "--format", "sarif", sample)
	require.Equal(t, exitClean, r.code, r.stderr)
	var doc struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID      string `json:"id"`
						HelpURI string `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc))
	rs := doc.Runs[0].Tool.Driver.Rules
	require.Greater(t, len(rs), 20, "every rule that ran")
	for _, rule := range rs {
		require.True(t, strings.HasPrefix(rule.HelpURI, render.RuleDocsBase), "%s: helpUri %q", rule.ID, rule.HelpURI)
		page := strings.TrimPrefix(rule.HelpURI, render.RuleDocsBase)
		assert.Equal(t, strings.ReplaceAll(rule.ID, "/", ".")+".md", page)
		_, err := os.Stat(filepath.Join("..", "..", "docs", "rules", page))
		assert.NoError(t, err, "%s: its page", rule.ID)
	}
}
