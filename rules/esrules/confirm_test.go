package esrules

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse/es"
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

// tieMissingByScan is tieMissing as a scan of every finding for each
// missing doc (with no lost doc replayed, as in randomMissing): the
// definition the lookup by node is held to.
func tieMissingByScan(p *Pack) {
	for _, m := range p.missing {
		var cause *rules.Finding
		n := 0
		for _, f := range p.findings {
			if f.Rule == UnsafeSafeCommit && f.Subject.Node == m.ev.Checked &&
				(m.f.Subject.Index == "" || m.f.Subject.Index == f.Subject.Index) {
				if cause == nil {
					cause = f
				}
				n++
			}
		}
		if cause == nil {
			continue
		}
		m.f.Subject = cause.Subject
		m.f.Evidence = dedupe(append(m.f.Evidence, cause.Evidence...))
		m.f.Facts["tied_to"] = fmt.Sprintf("%s at %s", UnsafeSafeCommit, cause.Pos())
		if n > 1 {
			m.f.Facts["tied_to"] += fmt.Sprintf(" (first of %d on %s)", n, m.ev.Checked)
		}
		m.f.Message += fmt.Sprintf("; %s %s recovered from an unsafe commit (%s), which can leave exactly such a doc out",
			cause.Subject.Node, shardText(cause.Subject), cause.Pos())
		m.f.State = cause.State
		m.tied = true
	}
}

// randomMissing is a pack with n unsafe-commit findings and n missing
// docs over few nodes and indexes, some missing docs with no index.
func randomMissing(seed uint64, n int) *Pack {
	rng := rand.New(rand.NewPCG(seed, 2))
	p := NewPack()
	for i := range n {
		sh := rng.IntN(2)
		subj := rules.Subject{System: "es", Index: fmt.Sprintf("i%d", rng.IntN(3)), Node: fmt.Sprintf("n%d", rng.IntN(4)), Shard: &sh}
		p.add(UnsafeSafeCommit, rules.Derived, subj, fmt.Sprintf("unsafe %d", i), []rules.Evidence{{Source: "a.log", Line: 2*i + 1}}, map[string]string{}, []string{fmt.Sprint(i)})
		ev := &es.DocMissing{DocID: fmt.Sprint(i), Checked: fmt.Sprintf("n%d", rng.IntN(5))}
		ms := rules.Subject{System: "es", Node: ev.Checked}
		if rng.IntN(3) > 0 {
			ms.Index = fmt.Sprintf("i%d", rng.IntN(3))
		}
		f := p.add(AckedLost, rules.Reported, ms, "missing "+ev.DocID, []rules.Evidence{{Source: "b.log", Line: 2*i + 2}}, map[string]string{}, nil)
		p.missing = append(p.missing, &missingDoc{f: f, ev: ev})
	}
	return p
}

// Looking the unsafe commits up by node ties every missing doc to the
// cause the scan of every finding ties it to, with the same facts.
func TestTieMissingMatchesScan(t *testing.T) {
	tied := 0
	for seed := range uint64(20) {
		got, want := randomMissing(seed, 200), randomMissing(seed, 200)
		got.tieMissing()
		tieMissingByScan(want)
		require.Equal(t, len(want.findings), len(got.findings))
		for i := range want.findings {
			require.Equal(t, *want.findings[i], *got.findings[i], "seed %d finding %d", seed, i)
		}
		for _, m := range got.missing {
			if m.tied {
				tied++
			}
		}
	}
	require.Greater(t, tied, 1000, "too few ties to test anything")
}

// BenchmarkTieMissing is the end of a run with 5,000 unsafe commits and
// 5,000 missing docs.
func BenchmarkTieMissing(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		p := randomMissing(1, 5000)
		b.StartTimer()
		p.tieMissing()
	}
}
