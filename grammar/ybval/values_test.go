package ybval

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseHybridTime(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want HybridTime
	}{
		{"{ physical: 1696696747406942 }", HybridTime{Physical: 1696696747406942}},
		{"{ physical: 1696696747484844 logical: 4095 }", HybridTime{Physical: 1696696747484844, Logical: 4095}},
		{"<min>", HybridTime{Special: Min}},
		{"<max>", HybridTime{Special: Max}},
		{"<invalid>", HybridTime{Special: Invalid}},
		{"<initial>", HybridTime{Special: Initial}},
		// days 18101 05:48:43.458857 = 1563947323458857 (corpus 01).
		{"{ days: 18101 time: 05:48:43.458857 logical: 7 }", HybridTime{Physical: 1563947323458857, Logical: 7}},
		{"{ days: 18101 time: 05:48:43.461691 }", HybridTime{Physical: 1563947323461691}},
		{"{ days: 18101 time: 05:48:43.4 }", HybridTime{Physical: 1563947323400000}},
		{"6903626865979478016", HybridTime{Physical: 6903626865979478016 >> 12, Logical: 6903626865979478016 & 4095}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseHybridTime(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestParseHybridTimeErrors(t *testing.T) {
	for _, in := range []string{"", "{ physical: }", "{ foo: 1 }", "<uninitialized>", "{ physical: 12", "{ days: 1 time: 99 }", "{ physical: 99999999999999999999999 }"} {
		_, err := ParseHybridTime(in)
		assert.Error(t, err, "%q", in)
	}
}

func TestHybridTimeArithmetic(t *testing.T) {
	ht := HybridTime{Physical: 1696696747406942}
	bound := HybridTime{Physical: 1696696747484844, Logical: 4095}
	// The numbers mvcc.cc printed for this pair in the founding incident.
	assert.Equal(t, int64(-77902), ht.PhysicalDiff(bound))
	assert.Equal(t, int64(-319090687), ht.RawDiff(bound))
	assert.Equal(t, -1, ht.Compare(bound))
	assert.Equal(t, int64(6949669877378834432), ht.RawDiff(MinHT))
	assert.Equal(t, "1696696747484844.4095", bound.String())
	assert.Equal(t, "<min>", MinHT.String())
	assert.True(t, MinHT.Compare(ht) < 0)
	assert.True(t, HybridTime{Special: Max}.Compare(ht) > 0)
}

func TestParseOpID(t *testing.T) {
	for in, want := range map[string]OpID{
		"15.686817":                     {Term: 15, Index: 686817},
		"{ term: 4 index: 323 }":        {Term: 4, Index: 323},
		"term: 11 index: 1337331":       {Term: 11, Index: 1337331},
		"  { term: 0 index: 0 }  ":      {Term: 0, Index: 0},
		"{ index: 5 term: 2 }":          {Term: 2, Index: 5},
		"1.6":                           {Term: 1, Index: 6},
		"9223372036854775807.1":         {Term: 9223372036854775807, Index: 1},
		"{ term: 11 index: 1347955 }  ": {Term: 11, Index: 1347955},
	} {
		got, err := ParseOpID(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"15", "x.y", "{ term: 1 }", "99999999999999999999.1"} {
		_, err := ParseOpID(in)
		assert.Error(t, err, in)
	}
	assert.Equal(t, -1, OpID{Term: 15, Index: 9}.Compare(OpID{Term: 17, Index: 1}))
	assert.Equal(t, 0, OpID{Term: 1, Index: 6}.Compare(OpID{Term: 1, Index: 6}))
}

func TestParseDeadline(t *testing.T) {
	for in, want := range map[string]Deadline{
		"5413.586s":        {Millis: 5413586},
		"-0.077s":          {Millis: -77},
		"+inf":             {Inf: 1},
		"-inf":             {Inf: -1},
		"<uninitialized>":  {Inf: -1},
		"9223372036.855s":  {Inf: 1},
		"3.215s":           {Millis: 3215},
		"MonoTime::kMax":   {Inf: 1},
		"0.5s":             {Millis: 500},
		"12.345678s":       {Millis: 12345},
		"-9223372036.855s": {Inf: -1},
	} {
		got, err := ParseDeadline(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	assert.Equal(t, "5413.586s", Deadline{Millis: 5413586}.String())
	assert.Equal(t, "-0.077s", Deadline{Millis: -77}.String())
	_, err := ParseDeadline("5413")
	assert.Error(t, err)
}

func TestParseTraceItem(t *testing.T) {
	it, err := ParseTraceItem("SafeTime { min_allowed: <min> deadline: +inf ht_lease: { time: { physical: 1696696743038476 logical: 1 } lease: { physical: 1696696745036316 } } safe_time: { physical: 1696696743035531 logical: 4095 } }")
	require.NoError(t, err)
	assert.Equal(t, "SafeTime", it.Kind)
	lease, err := HybridTimeOf(it.Body.Get("ht_lease").Struct.Get("lease"))
	require.NoError(t, err)
	assert.Equal(t, uint64(1696696745036316), lease.Physical)
	d, err := DeadlineOf(it.Body.Get("deadline"))
	require.NoError(t, err)
	assert.Equal(t, 1, d.Inf)

	it, err = ParseTraceItem("SafeTimeForFollower { min_allowed: <min> deadline: <uninitialized> safe_time_with_source: { safe_time: { physical: 1688653740808613 } source: kPropagated } }")
	require.NoError(t, err)
	st, err := SafeTimeWithSourceOf(it.Body.Get("safe_time_with_source"))
	require.NoError(t, err)
	assert.Equal(t, SourcePropagated, st.Source)
	assert.Equal(t, uint64(1688653740808613), st.SafeTime.Physical)

	_, err = ParseTraceItem("SafeTime { min_allowed: { physical: 16886")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "1:")
}

func TestParseValueProtobufText(t *testing.T) {
	v, err := ParseValue(`{ opid_index: 12 peers { permanent_uuid: "a" member_type: VOTER last_known_private_addr { host: "h" port: 9100 } } peers { permanent_uuid: "b" member_type: PRE_VOTER } }`)
	require.NoError(t, err)
	var peers int
	for _, f := range v.Struct.Fields {
		if f.Key == "peers" {
			peers++
		}
	}
	assert.Equal(t, 2, peers)
	assert.Equal(t, "12", v.Struct.Get("opid_index").Token())
	l, err := ParseValue("[{ hybrid_time: { physical: 1 } op_id: 1.2 }, { hybrid_time: <min> op_id: 1.3 }]")
	require.NoError(t, err)
	assert.Len(t, l.List.Items, 2)
}

// The grammar is part of the contract with the log formats; a change to it
// must show up in review.
func TestEBNF(t *testing.T) {
	assert.Equal(t, `Value = Struct | List | <special> | <clock> | <seconds> | <dotted> | <int> | <string> | <ident> .
Struct = "{" Field* "}" .
Field = <ident> ":"? Value .
List = "[" (Value (","? Value)*)? "]" .
TraceItem = <ident> Struct .
Struct = "{" Field* "}" .
Field = <ident> ":"? Value .
Value = Struct | List | <special> | <clock> | <seconds> | <dotted> | <int> | <string> | <ident> .
List = "[" (Value (","? Value)*)? "]" .`, EBNF())
}

func FuzzParseValue(f *testing.F) {
	for _, s := range []string{
		"{ physical: 1696696747406942 }",
		"{ days: 18101 time: 05:48:43.458857 logical: 7 }",
		"{ safe_time: { physical: 1696696747484844 logical: 4095 } source: kNextInQueue }",
		"SafeTime { min_allowed: <min> deadline: +inf ht_lease: { time: { physical: 1 } lease: { physical: 2 } } safe_time: <min> }",
		"[{ hybrid_time: { physical: 1 } op_id: 1.2 }]",
		"term: 11 index: 1337331",
		"5413.586s",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, err := ParseValue(s); err == nil {
			_, _ = HybridTimeOf(v)
			_, _ = OpIDOf(v)
			_, _ = DeadlineOf(v)
			_, _ = SafeTimeWithSourceOf(v)
			_ = v.String()
		}
		if it, err := ParseTraceItem(s); err == nil {
			_ = it.Body.String()
		}
		_, _ = ParseOpID(s)
	})
}
