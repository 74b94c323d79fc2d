package catalog

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules"
)

func TestBuiltinCatalogChecks(t *testing.T) {
	c, err := Builtin()
	require.NoError(t, err)
	require.NotEmpty(t, c.Entries())
	assert.Empty(t, c.Check(), "every example is read by its own entry")
	systems := map[string]bool{}
	for _, e := range c.Entries() {
		systems[e.System] = true
		assert.True(t, rules.ValidID(e.Rule()), "%s: rule %q", e.Key(), e.Rule())
		assert.NotEmpty(t, e.Source, e.Key())
	}
	assert.True(t, systems["yb"] && systems["es"], "both systems have entries")
}

func TestShapeReads(t *testing.T) {
	for _, tc := range []struct {
		shape, msg string
		want       map[string]string // nil: no match
	}{
		{"global checkpoint [{gcp}] above [{lcp}]", "global checkpoint [566] above [560] and more", map[string]string{"gcp": "566", "lcp": "560"}},
		{"global checkpoint [{gcp}] above [{lcp}]", "global  checkpoint\n[566] above [560]", map[string]string{"gcp": "566", "lcp": "560"}},
		{"global checkpoint [{gcp}] above [{lcp}]", "local checkpoint [566] above [560]", nil},
		{"seq [{s}]", "seq [-2]", map[string]string{"s": "-2"}},
		{"seq [{s}]", "seq [abc]", nil},
		{"too low: {ht:ht}, op id: {op:opid}", "too low: { physical: 1696696747406942 logical: 3 }, op id: 17.686821", map[string]string{"ht": "1696696747406942.3", "op": "17.686821"}},
		{"too low: {ht:ht}, op id: {op:opid}", "too low: <invalid>, op id: { term: 3 index: 9 }", map[string]string{"ht": "<invalid>", "op": "3.9"}},
		{"x { physical: {p} } y", "x { physical: 12 } y", map[string]string{"p": "12"}},
		{"a {{b}} {c:word}", "a {b} hello world", map[string]string{"c": "hello"}},
		{"failed engine [{reason:text}]", "failed engine [merge failed [x]]", map[string]string{"reason": "merge failed [x]"}},
		{"{} received {n} ops", "[idx][0] received 5 ops", map[string]string{"n": "5"}},
		{"waited {d:duration} for {s:shard}", "waited 1.5m for [test][3]", map[string]string{"d": "1.5m", "s": "[test][3]"}},
		{"ends with {rest:text}", "ends with all of this\nbut not this", map[string]string{"rest": "all of this"}},
	} {
		sh, err := compileShape(tc.shape)
		require.NoError(t, err, tc.shape)
		vals, ok := sh.match(tc.msg)
		if tc.want == nil {
			assert.False(t, ok, "%q should not read %q", tc.shape, tc.msg)
			continue
		}
		require.True(t, ok, "%q should read %q", tc.shape, tc.msg)
		got := map[string]string{}
		for k, v := range vals {
			got[k] = v.canonical()
		}
		assert.Equal(t, tc.want, got, tc.shape)
	}
}

func TestShapeErrors(t *testing.T) {
	for shape, want := range map[string]string{
		"{a}{b} text":    "cannot be told apart",
		"x {a:bogus}":    `unknown kind "bogus"`,
		"x {a} and {a}":  "{a} appears twice",
		"{rest:text}":    "needs literal text",
		"":               "needs literal text",
		"just {} then x": "",
	} {
		_, err := compileShape(shape)
		if want == "" {
			assert.NoError(t, err, shape)
			continue
		}
		require.Error(t, err, shape)
		assert.Contains(t, err.Error(), want, shape)
	}
}

func TestComparisonStatements(t *testing.T) {
	sh, err := compileShape("a {a} b {b} h {h:ht} k {k:ht} o {o:opid} p {p:opid}")
	require.NoError(t, err)
	read := func(msg string) map[string]value {
		v, ok := sh.match(msg)
		require.True(t, ok, msg)
		return v
	}
	max, min := strconv.FormatInt(math.MaxInt64, 10), strconv.FormatInt(math.MinInt64, 10)
	for _, tc := range []struct {
		holds, msg, want string
		ok               bool
	}{
		{"a <= b", "a 566 b 560 h 1 k 1 o 1.1 p 1.1", "a 566 > b 560 (by 6)", false},
		{"a <= b", "a 1 b 2 h 1 k 1 o 1.1 p 1.1", "", true},
		{"a >= b", "a " + min + " b " + max + " h 1 k 1 o 1.1 p 1.1", "a " + min + " < b " + max + " (by 18446744073709551615)", false},
		{"h >= k", "a 1 b 1 h { physical: 10 logical: 1 } k { physical: 77912 } o 1.1 p 1.1", "h 10.1 < k 77912 (by 77902 us)", false},
		{"o > p", "a 1 b 1 h 1 k 1 o 3.5 p 3.7", "o 3.5 < p 3.7 (by 2 ops)", false},
		// <min> is below every time but has no physical part: no "by".
		{"h >= k", "a 1 b 1 h <min> k { physical: 77912 } o 1.1 p 1.1", "h <min> < k 77912", false},
		{"a != -1", "a -1 b 1 h 1 k 1 o 1.1 p 1.1", "a -1 == -1", false},
	} {
		c, err := parseComparison(tc.holds, sh)
		require.NoError(t, err, tc.holds)
		o, err := c.eval(read(tc.msg))
		require.NoError(t, err, tc.msg)
		assert.Equal(t, tc.ok, o.holds, tc.holds)
		if !tc.ok {
			assert.Equal(t, tc.want, o.statement())
		}
	}
	// A number too large for int64 is unknown: nothing is claimed.
	c, _ := parseComparison("a <= b", sh)
	_, err = c.eval(read("a 99999999999999999999 b 1 h 1 k 1 o 1.1 p 1.1"))
	assert.ErrorContains(t, err, "could not be read")
	c, _ = parseComparison("h <= k", sh)
	_, err = c.eval(read("a 1 b 1 h <invalid> k 3 o 1.1 p 1.1"))
	assert.ErrorContains(t, err, "not a point in time")

	for holds, want := range map[string]string{
		"a <= zz":   `"zz" is not a name`,
		"h <= 5":    "compares with a name",
		"a <= h":    `"a" is a int and "h" a ht`,
		"a => b":    "want NAME OP",
		"bogus < 1": `"bogus" is not a name`,
	} {
		_, err := parseComparison(holds, sh)
		require.Error(t, err, holds)
		assert.Contains(t, err.Error(), want, holds)
	}
}

func TestLoadErrorsNameEntryAndField(t *testing.T) {
	entry := func(extra string) string {
		return `system: es
entries:
  - id: tracker.one
    family: checkpoint
    title: the one
    shape: "gcp [{gcp}] lcp [{lcp}]"
    source: [{path: a/B.java, versions: "7.x"}]
    examples: [{message: "gcp [5] lcp [4]", numbers: {gcp: 5, lcp: 4}}]
` + extra
	}
	ok := entry("")
	_, err := Load([]byte(ok), "mine.yaml")
	require.NoError(t, err)
	for name, tc := range map[string]struct{ doc, want string }{
		"schema field":     {strings.Replace(ok, "    title: the one\n", "", 1), "mine.yaml: entry tracker.one: missing property 'title'"},
		"schema enum":      {strings.Replace(ok, "family: checkpoint", "family: weather", 1), "entry tracker.one field family"},
		"unknown field":    {strings.Replace(ok, "    title:", "    titel: x\n    title:", 1), "entry tracker.one: additional properties 'titel' not allowed"},
		"family of system": {strings.Replace(ok, "family: checkpoint", "family: mvcc", 1), `family "mvcc" is not a es family`},
		"rule of system":   {strings.Replace(ok, "    title:", "    rule: yb/mvcc/x\n    title:", 1), `rule "yb/mvcc/x" is not a es rule`},
		"duplicate id":     {ok + strings.SplitN(ok, "entries:\n", 2)[1], "entry tracker.one: id defined twice"},
		"bad shape":        {strings.Replace(ok, "[{lcp}]", "[{lcp:huge}]", 1), "entry tracker.one: shape: {lcp:huge}: unknown kind"},
		"bad holds":        {entry("    holds: [\"gcp <= nope\"]\n"), `entry tracker.one: holds[0] "gcp <= nope": "nope" is not a name`},
		"example not read": {strings.Replace(ok, "message: \"gcp [5]", "message: \"gcp [x]", 1), "entry tracker.one: examples[0]: the shape does not read"},
		"example numbers":  {strings.Replace(ok, "gcp: 5,", "gcp: 6,", 1), `examples[0]: numbers: gcp read as "5", the example says "6"`},
		"example raised":   {entry("    raised: [java.lang.AssertionError]\n") + "", ""},
		"not yaml":         {"system: [", "mine.yaml: yaml"},
		"no system":        {"entries: []", "missing property 'system'"},
	} {
		_, err := Load([]byte(tc.doc), "mine.yaml")
		if tc.want == "" {
			assert.NoError(t, err, name)
			continue
		}
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), tc.want, name)
	}
}

func TestMergeOverridesByKey(t *testing.T) {
	c, err := Builtin()
	require.NoError(t, err)
	mine, err := Load([]byte(`system: es
entries:
  - id: replication-tracker.gcp-above-lcp
    family: checkpoint
    severity: warning
    title: overridden
    shape: "supposedly in-sync shard copy received a global checkpoint [{gcp}]"
    source: [{path: x.java, versions: "8.x"}]
    examples: [{message: "supposedly in-sync shard copy received a global checkpoint [5]", numbers: {gcp: 5}}]
`), "mine.yaml")
	require.NoError(t, err)
	m := c.Merge(mine)
	assert.Equal(t, len(c.Entries()), len(m.Entries()), "replaced, not added")
	e, ok := m.Lookup("es:replication-tracker.gcp-above-lcp")
	require.True(t, ok)
	assert.Equal(t, "overridden", e.Title)
	assert.Equal(t, "mine.yaml", e.Origin)
	assert.Equal(t, rules.Warning, e.Sev())
	e, ok = m.Lookup("replication-tracker.gcp-above-lcp")
	require.True(t, ok, "an id one system has is found without its system")
	assert.Equal(t, "overridden", e.Title)
}

func TestMatchPrefersTheMoreSpecific(t *testing.T) {
	es, err := Load([]byte(`system: es
entries:
  - id: a.general
    family: engine
    title: general
    shape: "engine failed [{}]"
    source: [{path: x.java, versions: "8.x"}]
    examples: [{message: "engine failed [disk]"}]
  - id: a.specific
    family: engine
    title: specific
    shape: "engine failed [seq# {s} too low]"
    source: [{path: x.java, versions: "8.x"}]
    examples: [{message: "engine failed [seq# 5 too low]", numbers: {s: 5}}]
`), "t")
	require.NoError(t, err)
	c := New(es)
	assert.Empty(t, c.Check())
	m, ok := c.Match("es", &parse.AlarmText{Raised: "java.lang.IllegalStateException", Message: "engine failed [seq# 5 too low]"})
	require.True(t, ok)
	assert.Equal(t, "a.specific", m.Entry.ID)
	_, ok = c.Match("yb", &parse.AlarmText{Message: "engine failed [seq# 5 too low]"})
	assert.False(t, ok, "entries read only their own system's alarms")
}

func TestRaisedMatchesFullOrSimpleClass(t *testing.T) {
	e := &Entry{Raised: []string{"java.lang.AssertionError"}}
	assert.True(t, e.raisedBy("java.lang.AssertionError"))
	assert.True(t, e.raisedBy("AssertionError"))
	assert.False(t, e.raisedBy("java.lang.IllegalStateException"))
	assert.False(t, e.raisedBy("org.other.AssertionError"))
	assert.True(t, (&Entry{}).raisedBy("anything"))
}

func TestGuessFamily(t *testing.T) {
	for where, want := range map[string]string{
		"raft_consensus.cc:1234":          "raft",
		"../../src/yb/consensus/log.cc:9": "wal",
		"tablet_bootstrap.cc:77":          "bootstrap",
		"remote_bootstrap_client.cc:3":    "rbs",
		"mvcc.cc:395":                     "mvcc",
		"ts_tablet_manager.cc:1":          "tablet",
		"tablet_service.cc:1":             "",
	} {
		assert.Equal(t, want, guessFamily("yb", where), where)
	}
	for where, want := range map[string]string{
		"org.elasticsearch.index.seqno.ReplicationTracker":         "checkpoint",
		"org.opensearch.index.seqno.LocalCheckpointTracker":        "seqno",
		"org.elasticsearch.index.translog.TranslogWriter":          "translog",
		"org.elasticsearch.index.engine.InternalEngine":            "engine",
		"org.elasticsearch.indices.recovery.RecoverySourceHandler": "recovery",
		"org.elasticsearch.index.seqno.RetentionLeases":            "retention",
		"org.elasticsearch.cluster.service.ClusterApplierService":  "",
	} {
		assert.Equal(t, want, guessFamily("es", where), where)
	}
}
