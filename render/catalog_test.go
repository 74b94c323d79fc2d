package render

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/rules"
)

func TestCatalogGolden(t *testing.T) {
	rs := sampleReport().Rules
	var b bytes.Buffer
	require.NoError(t, RulesText(&b, rs))
	golden(t, "rules.txt", b.Bytes())

	b.Reset()
	require.NoError(t, RulesJSON(&b, rs))
	golden(t, "rules.json", b.Bytes())
	var back []rules.Rule
	require.NoError(t, json.Unmarshal(b.Bytes(), &back))
	assert.Equal(t, rs[1].Explain, back[1].Explain)
	assert.Equal(t, rules.Error, back[1].Severity)

	b.Reset()
	require.NoError(t, Explain(&b, rs[1]))
	golden(t, "explain.txt", b.Bytes())
}

func TestExplainStripsControls(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Explain(&b, rules.Rule{ID: "a/b/c", Title: "t\x1b[2J", Explain: "e\x1b]0;x\x07", Example: "l1\x1b[31m\nl2", Upstream: []string{"u\x1b[0m"}}))
	assert.NotContains(t, b.String(), "\x1b")
	assert.Contains(t, b.String(), "  | l1\\x1b[31m\n  | l2\n", "the escape is shown, inert")
}

func TestWrap(t *testing.T) {
	assert.Equal(t, []string{"aa bb", "cc", "dddddddd"}, wrap("aa bb cc dddddddd", 5))
	assert.Nil(t, wrap("  ", 5))
}
