package esrules

import (
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/rules"
)

const (
	maxS = "9223372036854775807"
	minS = "-9223372036854775808"
)

func TestSeqNoArithmetic(t *testing.T) {
	n, ok := after(math.MaxInt64)
	assert.False(t, ok, "no seq# after MaxInt64: %d", n)
	_, ok = after(-2)
	assert.False(t, ok, "UNASSIGNED_SEQ_NO is no checkpoint to count from")
	n, ok = after(-1)
	assert.True(t, ok)
	assert.Equal(t, int64(0), n, "after NO_OPS_PERFORMED comes #0")
	assert.Equal(t, "9223372036854775808", opsAbove(math.MaxInt64, -1))
	assert.Equal(t, "1", opsAbove(math.MaxInt64, math.MaxInt64-1))
	assert.Equal(t, "-18446744073709551615", signedDiff(math.MinInt64, math.MaxInt64))
	assert.Equal(t, "+18446744073709551615", signedDiff(math.MaxInt64, math.MinInt64))
	assert.Equal(t, "0", signedDiff(7, 7))
	for fact, want := range map[string]bool{"": false, "-2": false, minS: false, "-3": false, "-1": true, "0": true, maxS: true, "translog-4.ckp": true} {
		assert.Equal(t, want, read(fact), "read(%q)", fact)
	}
	assert.False(t, gcpAbove(5, -2), "an unassigned lcp is no lcp for the gcp to be above")
	assert.True(t, gcpAbove(5, -1))
	assert.False(t, gcpAbove(-2, -1))
	assert.True(t, gcpAbove(math.MaxInt64, math.MaxInt64-1))
}

// extremes runs one log through the pack and returns its findings.
func extremes(t *testing.T, log string) []rules.Finding {
	t.Helper()
	fs, _, diags := analyse(t, map[string]io.Reader{"node.log": strings.NewReader(log)})
	require.Empty(t, diags)
	return fs
}

// ES's own assertions with the extreme values an int64 can print: the
// finding counts exactly, counts nothing from a sentinel, and says so.
func TestExtremeNumbersInESMessages(t *testing.T) {
	gcpLCP := func(gcp, lcp string) string {
		return "java.lang.AssertionError: supposedly in-sync shard copy received a global checkpoint [" + gcp + "] that is higher than its local checkpoint [" + lcp + "]\n"
	}
	for _, tc := range []struct {
		name, log string
		want      []string // in the one finding's message
		not       []string
		facts     map[string]string
	}{
		{"gcp max over no ops", gcpLCP(maxS, "-1"), []string{"9223372036854775808 ops, #0..#" + maxS, "-1 (no operations processed)"}, nil,
			map[string]string{"gcp": maxS, "lcp": "-1"}},
		{"lcp max-1", gcpLCP(maxS, "9223372036854775806"), []string{"(1 ops, #" + maxS + "..#" + maxS}, nil, nil},
		{"lcp unassigned", gcpLCP("5", "-2"), []string{"-2 (unassigned)", "no count"}, []string{"7 ops", "ops,"}, nil},
		{"lcp min", gcpLCP(maxS, minS), []string{"no checkpoint"}, []string{"ops,", "18446744073709551615"}, nil},
		{"gcp not above", gcpLCP("3", "5"), []string{"do not put the global checkpoint above"}, []string{"-2 ops", "ops,"}, nil},
		{"doc counts at the ends of int64", "java.lang.IllegalStateException: try to recover [idx][0] from primary shard with sync id but number of docs differ: " + maxS + " (a, primary) vs " + minS + "(b)\n",
			[]string{"(-18446744073709551615)"}, nil, map[string]string{"primary_docs": maxS, "replica_docs": minS}},
		{"replay gap without its first missing op", "java.lang.IllegalStateException: translog replay failed to cover required sequence numbers (required range [0:" + maxS + ")\n",
			[]string{"not printed"}, []string{"#-2"}, map[string]string{"required_to": maxS}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := extremes(t, tc.log)
			require.Len(t, fs, 1, formatFindings(fs))
			f := fs[0]
			assert.Equal(t, rules.Reported, f.Origin)
			for _, w := range tc.want {
				assert.Contains(t, f.Message, w)
			}
			for _, n := range tc.not {
				assert.NotContains(t, f.Message, n)
			}
			for k, v := range tc.facts {
				assert.Equal(t, v, f.Facts[k], k)
			}
			if tc.name == "replay gap without its first missing op" {
				_, ok := f.Facts["first_missing"]
				assert.False(t, ok, "a first missing op the line did not print is no fact")
			}
		})
	}
}

// A number too large for an int64 is not read as any number: the dedicated
// reader leaves a diagnostic and the alarm to the catalogue, and no rule of
// this pack states a number for it.
func TestOutOfRangeNumberIsNotRead(t *testing.T) {
	log := "java.lang.AssertionError: supposedly in-sync shard copy received a global checkpoint [9223372036854775808] that is higher than its local checkpoint [1]\n"
	fs, _, diags := analyse(t, map[string]io.Reader{"node.log": strings.NewReader(log)})
	assert.Len(t, diags, 1)
	assert.Empty(t, fs, "no finding of this pack rests on an unread number")
}

// A reported and a derived finding agreeing only on an unassigned value
// are not one break confirmed.
func TestNoConfirmationOnUnreadNumbers(t *testing.T) {
	p := NewPack()
	subj := rules.Subject{System: "es", Index: "test", Node: "n1"}
	rep := p.add(GCPAboveLCP, rules.Reported, subj, "reported", []rules.Evidence{{Source: "a.log", Line: 1}}, map[string]string{"gcp": "-2", "lcp": "-2"}, nil)
	p.add(GCPAboveLCP, rules.Derived, subj, "derived", []rules.Evidence{{Source: "a.log", Line: 2}}, map[string]string{"gcp": "-2", "lcp": "-2"}, nil)
	gap := p.add(OpsRange, rules.Reported, subj, "reported gap", []rules.Evidence{{Source: "a.log", Line: 3}}, map[string]string{"required_from": "0"}, nil)
	p.add(OpsRange, rules.Derived, subj, "derived gap", []rules.Evidence{{Source: "a.log", Line: 4}}, map[string]string{"first_missing": "7"}, nil)
	p.confirm()
	assert.Equal(t, rules.Reported, rep.Origin)
	assert.Equal(t, rules.Reported, gap.Origin)
	assert.Len(t, p.findings, 4)

	// The same with numbers read is one break, confirmed.
	p = NewPack()
	rep = p.add(GCPAboveLCP, rules.Reported, subj, "reported", []rules.Evidence{{Source: "a.log", Line: 1}}, map[string]string{"gcp": maxS, "lcp": "-1"}, nil)
	p.add(GCPAboveLCP, rules.Derived, subj, "derived", []rules.Evidence{{Source: "a.log", Line: 2}}, map[string]string{"gcp": maxS, "lcp": "-1"}, nil)
	p.confirm()
	assert.Equal(t, rules.Confirmed, rep.Origin)
	assert.Len(t, p.findings, 1)
}

// A safe commit whose local checkpoint is MaxInt64 has no seq# after it:
// the ops-based start is not held to a wrapped-around one.
func TestSafeCommitAtMaxInt64(t *testing.T) {
	log := "" +
		"  1> [2019-04-01T10:00:00,100][TRACE][o.e.i.r.PeerRecoveryTargetService] [node_t1] [cats][0] preparing shard for peer recovery\n" +
		"  1> [2019-04-01T10:00:00,101][INFO ][o.e.i.r.PeerRecoveryTargetService] [node_t1] --> [cats][0] peer recovery existing commits[[{local_checkpoint=" + maxS + ", max_seq_no=" + maxS + ", translog_uuid=Tc1, history_uuid=Hc1}]], safe commit [{local_checkpoint=" + maxS + ", max_seq_no=" + maxS + ", translog_uuid=Tc1, history_uuid=Hc1}], gcp[" + maxS + "]\n" +
		"  1> [2019-04-01T10:00:00,112][TRACE][o.e.i.r.RecoverySourceHandler] [node_t0] [cats][0][recover to node_t1] recovery [phase2]: sending transaction log operations (seq# from [8], required [8:12]\n"
	for _, f := range extremes(t, log) {
		assert.NotContains(t, f.Message, minS, f.Message)
		assert.NotContains(t, f.Message, "must start at", f.Message)
	}
	// An unassigned gcp qualifies no commit and no max_seq_no is above it.
	log = "  1> [2019-04-01T10:00:00,101][INFO ][o.e.i.r.PeerRecoveryTargetService] [node_t1] --> [cats][0] peer recovery existing commits[[{local_checkpoint=-1, max_seq_no=-1, translog_uuid=Tc1}, {local_checkpoint=2, max_seq_no=2, translog_uuid=Tc1}]], safe commit [{local_checkpoint=-1, max_seq_no=-1, translog_uuid=Tc1}], gcp[-2]\n"
	assert.Empty(t, extremes(t, log))
	// Against a gcp it knows, the same commits give the newer one.
	log = strings.Replace(log, "gcp[-2]", "gcp["+strconv.Itoa(5)+"]", 1)
	fs := extremes(t, log)
	require.Len(t, fs, 1)
	assert.Contains(t, fs[0].Message, "a newer commit (lcp 2, max_seq_no 2) also qualifies")
}
