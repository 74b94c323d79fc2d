package ybrules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// raftScope says whether a rule is one the Raft corpus test judges.
func raftScope(id string) bool {
	return strings.HasPrefix(id, "yb/raft/") || id == ybrules.EarlyRevocation
}

// raftTruth is the Raft ground truth of testdata/corpus/yb (README.md and
// each NN.md): 17 is an election storm; every other excerpt holds no Raft
// break (11's breaks are MVCC and lease ones, judged by TestCorpusMvcc).
var raftTruth = map[string][]want{
	"17-election-storm-reportfaildetected.log": {
		{ybrules.ElectionStorm, 1, rules.Warning, []string{"5 election attempts", "15.268 s", "03:45:19.108985", "03:45:34.377466", "all started in term 24"}},
	},
}

func readCorpus(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusYB, name))
	if err != nil {
		t.Fatalf("corpus file %s: %v", name, err)
	}
	return string(b)
}

func TestCorpusRaft(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusYB, "*.log"))
	if len(files) == 0 {
		t.Fatal("testdata/corpus/yb holds no excerpt")
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			fs := analyzeLogs(t, map[string]string{name: readCorpus(t, name)})
			matched := map[int]bool{}
			for _, w := range raftTruth[name] {
				found := false
				for i, f := range fs {
					if f.Rule != w.rule || f.Pos().Line != w.line || f.Severity != w.severity {
						continue
					}
					ok := true
					for _, n := range w.numbers {
						ok = ok && strings.Contains(f.Message, n)
					}
					if ok {
						found, matched[i] = true, true
						break
					}
				}
				if !found {
					t.Errorf("missing %s %s at line %d with %v; got:\n%s", w.severity, w.rule, w.line, w.numbers, summarize(fs))
				}
			}
			for i, f := range fs {
				if !matched[i] && raftScope(f.Rule) {
					t.Errorf("unexpected Raft finding:\n%s", summarize([]rules.Finding{f}))
				}
			}
		})
	}
}

// Corpus 17's storm, with its numbers in the facts.
func TestCorpusStormFacts(t *testing.T) {
	name := "17-election-storm-reportfaildetected.log"
	fs := analyzeLogs(t, map[string]string{name: readCorpus(t, name)})
	if len(fs) != 1 {
		t.Fatalf("want one finding, got:\n%s", summarize(fs))
	}
	f := fs[0]
	for k, v := range map[string]string{"attempts": "5", "window_s": "15.268", "min_term": "24", "max_term": "24", "leaders_elected": "0",
		"peers": "07c4d6051edb487c85276c4309e7793b"} {
		if f.Facts[k] != v {
			t.Errorf("fact %s = %q, want %q", k, f.Facts[k], v)
		}
	}
	if len(f.Evidence) != 5 || f.Subject.Tablet != "6388fff4f85d4227b6de5f15dd2154f4" || f.Subject.Peer != "07c4d6051edb487c85276c4309e7793b" {
		t.Errorf("evidence or subject: %s", summarize(fs))
	}
}

// Corpus 15 interleaves three masters' lines out of time order. Given as
// the three hosts' own files (as a support bundle holds them), the merged
// timeline shows one leader in term 15 and a revocation of a lease long
// over: nothing to report.
func TestCorpusMastersAsThreeFiles(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(readCorpus(t, "15-master-revoked-old-leader-ht-lease.log")), "\n")
	if len(lines) != 4 {
		t.Fatalf("corpus 15 changed: %d lines", len(lines))
	}
	hdr := "Log file created at: 2020/10/29 11:00:00\n"
	logs := map[string]string{
		"yb-master-0/yb-master.INFO": hdr + lines[0] + "\n",
		"yb-master-1/yb-master.INFO": hdr + lines[1] + "\n" + lines[2] + "\n",
		"yb-master-2/yb-master.INFO": hdr + lines[3] + "\n",
	}
	fs := analyzeLogs(t, logs)
	for _, f := range fs {
		if f.Severity >= rules.Warning {
			t.Errorf("unexpected finding:\n%s", summarize([]rules.Finding{f}))
		}
	}
	p := replayLogs(t, logs)
	tr := p.Raft().Tablet("00000000000000000000000000000000")
	if tr == nil || len(tr.Revocations()) != 1 {
		t.Fatalf("want the one revocation replayed")
	}
	rv := tr.Revocations()[0]
	if rv.By != "96917a923dac4172b3d576159dacae2b" || rv.ByTerm != 15 || rv.Holder != "d9d0b751df44490f9542d2c7cff32769" ||
		rv.Expiry.Physical != 1603970045789953 || rv.From.Pos.Source != "yb-master-1/yb-master.INFO" || rv.From.Pos.Line != 3 {
		t.Errorf("revocation: %+v", rv)
	}
	if ls := tr.Leaders(15); len(ls) != 1 || ls[0].Peer != "96917a923dac4172b3d576159dacae2b" {
		t.Errorf("leaders of term 15: %+v", ls)
	}
}
