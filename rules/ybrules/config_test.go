package ybrules_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

const configScenarios = "../../testdata/yb/config"

// configRewriting reports whether -rewrite was given (datadriven's flag
// when that package is linked in, which it is in this test binary).
func configRewriting() bool {
	f := flag.Lookup("rewrite")
	return f != nil && f.Value.String() == "true"
}

// configRun drives the pipeline as the command does: each file scanned,
// the streams sorted by name, merged, and the YugabyteDB pack run over
// them. It returns the findings and the pack, for its replayed state.
func configRun(t testing.TB, paths ...string) ([]rules.Finding, *ybrules.Pack) {
	t.Helper()
	texts := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		texts[filepath.Base(p)] = string(b)
	}
	return configRunText(t, texts)
}

// configRunText is configRun over texts named by source.
func configRunText(t testing.TB, texts map[string]string) ([]rules.Finding, *ybrules.Pack) {
	t.Helper()
	return runPack(t, texts)
}

// configOnly keeps the config and remote bootstrap findings.
func configOnly(fs []rules.Finding) []rules.Finding {
	var out []rules.Finding
	for _, f := range fs {
		if strings.HasPrefix(f.Rule, "yb/config/") || strings.HasPrefix(f.Rule, "yb/rbs/") {
			out = append(out, f)
		}
	}
	return out
}

func configSummary(fs []rules.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s %s %s:%d %s\n  %s\n", f.Severity, f.Rule, f.Origin, f.Pos().Source, f.Pos().Line, f.Subject, f.Message)
		var ev []string
		for _, e := range f.Evidence {
			ev = append(ev, fmt.Sprintf("%s:%d", e.Source, e.Line))
		}
		fmt.Fprintf(&b, "  evidence %s\n", strings.Join(ev, " "))
		keys := make([]string, 0, len(f.Facts))
		for k := range f.Facts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "  %s=%s\n", k, f.Facts[k])
		}
		for _, s := range f.State {
			fmt.Fprintf(&b, "  | %s\n", s)
		}
	}
	if b.Len() == 0 {
		return "no findings\n"
	}
	return b.String()
}

type configWant struct {
	rule   string
	source string
	line   int
	// numbers must all appear in the message.
	numbers []string
}

// configTruth is what each scenario under testdata/yb/config must give
// (config and RBS rules only). The golden files hold the full text; this
// table pins the verdicts so a careless -rewrite cannot change them.
var configTruth = map[string][]configWant{
	// The seed's race: D added (3.13), RBS A->D, D removed (3.14), the RBS
	// completes: D holds data outside the config, nobody deletes it.
	"race": {{ybrules.OrphanReplica, "new-replica-d.log", 8, []string{"d9e8f7a6b5c44d3e2f1a0b9c8d7e6f50", "opid_index 14"}}},
	// The fix: the master tombstones D after the removal.
	"fixed": nil,
	// D re-added (3.15, promoted 3.16) while its RBS ran: a member at the end.
	"readd": nil,
	// The master tombstones D while the ADD_SERVER adding it is pending.
	"delete-pending":        {{ybrules.DeleteOfPendingAdd, "new-replica-d.log", 8, []string{"ADD_SERVER", "still pending", "leader-a.log:7"}}},
	"rbs-failed-tombstoned": nil,
	// The fix's run with D's heartbeat read by the master after D was
	// tombstoned: a tombstoned replica keeps reporting its consensus
	// state, which proves no data; D's own completed delete outweighs it.
	"tombstoned-reports": nil,
	"rbs-failed-stuck":   {{ybrules.RBSStuck, "new-replica-d.log", 6, []string{"Unable to fetch data", "never tombstoned"}}},
}

func TestConfigScenarios(t *testing.T) {
	dirs := configScenarioDirs(t)
	require.Len(t, dirs, len(configTruth), "every scenario has its truth in configTruth")
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			wants, ok := configTruth[name]
			require.True(t, ok, "no truth for scenario %s", name)
			logs, err := filepath.Glob(filepath.Join(dir, "*.log"))
			require.NoError(t, err)
			all, _ := configRun(t, logs...)
			fs := configOnly(all)
			require.Len(t, fs, len(wants), configSummary(fs))
			for i, w := range wants {
				f := fs[i]
				assert.Equal(t, w.rule, f.Rule)
				assert.Equal(t, w.source, f.Pos().Source)
				assert.Equal(t, w.line, f.Pos().Line)
				for _, n := range w.numbers {
					assert.Contains(t, f.Message+" "+fmt.Sprint(f.Evidence), n)
				}
			}
			got := configSummary(fs)
			path := dir + ".findings.golden"
			if configRewriting() {
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test -rewrite")
			assert.Equal(t, string(want), got)
		})
	}
}

// configCorpusTruth is the config and RBS ground truth of corpus excerpts
// 21, 22 and 25 (testdata/corpus/yb/NN.md).
var configCorpusTruth = map[string][]configWant{
	// LEARNER 392553cb 10624 ops behind (l.2), removed at config index
	// 1347956 and tombstoned (l.3): a note, nothing at error level.
	"21-lagging-learner-removed-then-tombstoned.log": {
		{ybrules.LaggingMember, "21-lagging-learner-removed-then-tombstoned.log", 2, []string{"10624 ops behind", "1347956", "392553cb3b6a4601b9f2b9042bdfc233", "1.171 s"}},
	},
	// Eight `already in progress` refusals in 0.8 s.
	"22-rbs-already-in-progress-storm.log": {
		{ybrules.RBSDuplicateSession, "22-rbs-already-in-progress-storm.log", 1, []string{"8 remote bootstrap requests", "0.782 s", "8 tablet(s)", "cf63aaca47a940eca865ad29751b3417", "81d707c679ce42358c919bcad437c704"}},
	},
	// The master gave up deleting the removed replica on the dead TS.
	"25-orphan-replica-delete-failed-ts-dead.log": {
		{ybrules.OrphanReplica, "25-orphan-replica-delete-failed-ts-dead.log", 1, []string{"403614a2c4914714a6b73df59edeaaec", "000643ea42664910930985d197f80bb0", "ts-dead"}},
	},
}

func TestConfigCorpus(t *testing.T) {
	for name, wants := range configCorpusTruth {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(corpusYB, name)
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("corpus excerpt: %v", err)
			}
			all, _ := configRun(t, path)
			fs := configOnly(all)
			require.Len(t, fs, len(wants), configSummary(fs))
			for i, w := range wants {
				f := fs[i]
				assert.Equal(t, w.rule, f.Rule)
				assert.Equal(t, w.line, f.Pos().Line)
				for _, n := range w.numbers {
					assert.Contains(t, f.Message+" "+fmt.Sprint(f.Facts), n)
				}
			}
			for _, f := range all {
				if strings.HasPrefix(name, "21-") {
					assert.NotEqual(t, rules.Error, f.Severity, "21 has nothing at error level: %s %s", f.Rule, f.Message)
				}
			}
			t.Log("\n" + configSummary(fs))
		})
	}
}

// configScenarioDirs lists the scenario directories; their goldens sit
// beside them, so the directories hold only logs.
func configScenarioDirs(t *testing.T) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(configScenarios, "*"))
	require.NoError(t, err)
	var dirs []string
	for _, d := range all {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			dirs = append(dirs, d)
		}
	}
	require.NotEmpty(t, dirs)
	return dirs
}

// configsOf is ybrules.ConfigsOf, named for the tests.
var configsOf = ybrules.ConfigsOf
