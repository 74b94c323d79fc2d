package esrules

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/rules"
)

// confirmByScan is confirm as a scan of every finding for each reported
// one: the definition the indexed lookup is held to.
func confirmByScan(fs []*rules.Finding) []*rules.Finding {
	drop := map[*rules.Finding]bool{}
	for _, r := range fs {
		keys, ok := sameBreak[r.Rule]
		if !ok || r.Origin != rules.Reported {
			continue
		}
		for _, d := range fs {
			if d.Rule != r.Rule || d.Origin != rules.Derived || drop[d] || !compatible(r.Subject, d.Subject) {
				continue
			}
			match := true
			for _, k := range keys {
				if !read(r.Facts[k]) || r.Facts[k] != d.Facts[k] {
					match = false
				}
			}
			if !match {
				continue
			}
			r.Origin = rules.Confirmed
			r.Evidence = dedupe(append(r.Evidence, d.Evidence...))
			if r.Subject.Index == "" || r.Subject.Node == "" {
				r.Subject = d.Subject
			}
			if len(r.State) == 0 {
				r.State = d.State
			}
			r.Facts["derived_at"] = d.Pos().String()
			r.Message += "; replay derived the same break at " + d.Pos().String()
			drop[d] = true
			break
		}
	}
	var kept []*rules.Finding
	for _, f := range fs {
		if !drop[f] {
			kept = append(kept, f)
		}
	}
	return kept
}

// randomFindings are n reported and derived findings of the confirmable
// rules and one other, over few nodes, shards and numbers (so that many
// agree), some numbers unread, some subjects partial.
func randomFindings(seed uint64, n int) *Pack {
	rng := rand.New(rand.NewPCG(seed, 1))
	ruleIDs := []string{OpsRange, GCPAboveLCP, GCPBelowInSync, SeqNoConflict, CheckpointMismatch, UnsafeSafeCommit}
	num := func() string {
		switch rng.IntN(8) {
		case 0:
			return "-2"
		case 1:
			return ""
		}
		return strconv.Itoa(rng.IntN(6))
	}
	p := NewPack()
	for i := range n {
		origin := rules.Reported
		if rng.IntN(2) == 0 {
			origin = rules.Derived
		}
		subj := rules.Subject{System: "es", Index: "test"}
		if rng.IntN(3) > 0 {
			subj.Node = fmt.Sprintf("n%d", rng.IntN(3))
		}
		if rng.IntN(3) > 0 {
			sh := rng.IntN(2)
			subj.Shard = &sh
		}
		facts := map[string]string{}
		for _, k := range []string{"first_missing", "gcp", "lcp", "seq_no", "diff"} {
			if v := num(); v != "" {
				facts[k] = v
			}
		}
		p.add(ruleIDs[rng.IntN(len(ruleIDs))], origin, subj, fmt.Sprintf("finding %d", i),
			[]rules.Evidence{{Source: "a.log", Line: i + 1}}, facts, nil)
	}
	return p
}

// The indexed confirm merges exactly the pairs the scan of every finding
// merges, in the same order, with the same evidence, facts and messages.
func TestConfirmMatchesScan(t *testing.T) {
	merged := 0
	for seed := range uint64(30) {
		got, want := randomFindings(seed, 300), randomFindings(seed, 300)
		got.confirm()
		wantKept := confirmByScan(want.findings)
		require.Equal(t, len(wantKept), len(got.findings), "seed %d", seed)
		for i := range wantKept {
			require.Equal(t, *wantKept[i], *got.findings[i], "seed %d finding %d", seed, i)
		}
		merged += len(want.findings) - len(wantKept)
	}
	require.Greater(t, merged, 500, "the random findings merge too rarely to test anything")
}

// BenchmarkConfirm is the end of a run with 20,000 findings.
func BenchmarkConfirm(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		p := randomFindings(1, 20_000)
		b.StartTimer()
		p.confirm()
	}
}
