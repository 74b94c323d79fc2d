package rules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay"
	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/esrules"
	"github.com/logsleuth/logsleuth/rules/ybrules"
)

// claim is one thing a finding's message can assert, and what proves it:
// a cited evidence line of one of kinds (the event kinds that print that
// fact), or, for what the logs show by the absence of a line or by the
// whole replay (a negative, a count), the replayed fact the finding
// records under fact.
type claim struct {
	phrase *regexp.Regexp
	kinds  []string
	fact   string
}

func c(phrase string, kinds ...string) claim {
	return claim{phrase: regexp.MustCompile(phrase), kinds: kinds}
}

func f(phrase, fact string) claim { return claim{phrase: regexp.MustCompile(phrase), fact: fact} }

var (
	mvccLines  = []string{"yb.mvcc-dump", "yb.ht-too-low", "yb.check-failed", "yb.op-sequence-failure", "yb.follower-safe-time-back", "yb.leader-safe-time-back", "yb.mvcc-fatal"}
	leaseLines = []string{"yb.mvcc-dump", "yb.ht-too-low", "yb.lease-revoked", "yb.lease-reset", "yb.old-lease-wait"}
	leadLines  = []string{"yb.role-change", "yb.election-result", "yb.noop", "yb.active-role", "yb.update-rejected", "yb.tablet-report", "yb.vote", "yb.election-start", "yb.leader-transfer", "yb.lease-revoked", "yb.lease-reset", "yb.old-lease-wait"}
	cfgLines   = []string{"yb.config-commit", "yb.tablet-report", "yb.delete-tablet", "yb.master-change-config", "yb.master-delete"}
	deletes    = []string{"yb.delete-tablet", "yb.tablet-data-deleted", "yb.rbs", "yb.master-delete"}
	recLines   = []string{"es.recovery-source", "es.recovery-target", "es.recovery-commits", "es.translog-checkpoint", "es.commit-policy"}
)

// ruleClaims holds, per rule, the shapes of the messages it gives: every
// finding must match one of its rule's shapes (a new rule, or a new
// wording, fails until it is registered here with what proves it).
var ruleClaims = map[string][]claim{
	ybrules.HTBelowSafeTime:     {c(`(below|at or below|equal to) the .*safe time`, mvccLines...), c(`^op hybrid time at or below`, mvccLines...), c(`already served`, mvccLines...)},
	ybrules.HTBelowLastRepl:     {c(`the last replicated hybrid time`, mvccLines...)},
	ybrules.SafeTimeRegression:  {c(`safe time`, mvccLines...)},
	ybrules.QueueOrder:          {c(`pending|queue|op ids must increase|added after`, mvccLines...)},
	ybrules.PropagatedAbovePend: {c(`at or above pending`, mvccLines...)},
	ybrules.MvccInvariant:       {c(`^mvcc\.cc(:[0-9]+)? (asserted|check failed|refused|raised a FATAL)`, mvccLines...)},
	ybrules.LeaseOverlap:        {c(`falls inside the ht lease`, leaseLines...)},
	ybrules.EarlyRevocation:     {c(`cleared the (ht )?lease of`, "yb.lease-revoked"), c(`held a replicated .*lease of its own`, leaseLines...)},
	ybrules.DoubleVote:          {c(`grants its term-\d+ vote`, "yb.vote")},
	ybrules.TwoLeaders:          {c(`acts as leader of term|names .* leader of term`, leadLines...)},
	ybrules.TermRegression:      {c(`logs term \d+ after term \d+`, leadLines...)},
	ybrules.ElectionStorm:       {c(`\d+ election attempts`, "yb.election-start")},
	ybrules.OrphanReplica:       {c(`holds the tablet's data|keeps the tablet's data`, "yb.rbs", "yb.tablet-report", "yb.tablet-state", "yb.master-delete")},
	ybrules.DeleteOfPendingAdd:  {c(`deleted while`, "yb.delete-tablet", "yb.tablet-data-deleted", "yb.master-delete")},
	ybrules.LaggingMember:       {c(`ops behind|evicts`, "yb.peer-evicted", "yb.update-rejected", "yb.role-change")},
	ybrules.RBSStuck:            {c(`^remote bootstrap of tablet`, "yb.rbs")},
	ybrules.RBSDuplicateSession: {c(`refused as already in progress`, "yb.rbs-busy")},

	esrules.UnsafeSafeCommit:   {c(`peer recovery`, recLines...)},
	esrules.OpsRange:           {c(`recovery|required range`, append([]string{"es.replay-gap"}, recLines...)...)},
	esrules.SeqNoConflict:      {c(`seq# \d+`, "es.op", "es.seqno-twice")},
	esrules.GCPAboveLCP:        {c(`global checkpoint`, "es.tracker", "es.gcp-above-lcp", "es.seqno-stats", "es.seqno-stats-mismatch")},
	esrules.GCPBelowInSync:     {c(`global checkpoint`, "es.tracker", "es.gcp-below-insync")},
	esrules.AckedLost:          {c(`is missing on`, "es.doc-missing", "es.recovery-commits", "es.recovery-source", "es.recovery-target", "es.translog-checkpoint")},
	esrules.CheckpointMismatch: {c(`checkpoint`, "es.translog-checkpoint", "es.checkpoint-mismatch")},
	esrules.SyncIDDocCount:     {c(`share a sync_id`, "es.syncid-doc-count")},
	esrules.NodeNameReused:     {c(`names \d+ node ids`, "es.node", "es.nodes-added")},
	esrules.StaleTermRejected:  {c(`refused an operation of primary term \d+ while at term \d+`, "es.op-rejected")},
}

// sharedClaims are the phrases any rule may use; wherever one appears, its
// proof must be cited.
var sharedClaims = []claim{
	c(`not in the committed Raft config`, cfgLines...),
	c(`outside the Raft config`, cfgLines...),
	f(`no delete of it took effect`, "deletes_taken_effect"),
	c(`its last delete, .* came before`, deletes...),
	c(`the master gave up deleting`, "yb.master-delete"),
	c(`\(remote bootstrap (replaced its superblock|finished)`, "yb.rbs"),
	c(`\(reported the tablet to the master`, "yb.tablet-report"),
	c(`\(tablet running`, "yb.tablet-state"),
	f(`never tombstoned`, "tombstoned"),
	c(`the master tombstoned it`, "yb.delete-tablet"),
	c(`\btombstoned\b`, deletes...),
	c(`held until|still held its`, leaseLines...),
	c(`stepped down at the master's request`, "yb.master-step-down"),
	c(`the master's step-down of it failed`, "yb.master-step-down"),
	c(`a tablet report to the master names`, "yb.tablet-report"),
	c(`acknowledged via`, "es.doc-missing"),
	f(`no line shows it acknowledged`, "acknowledged"),
	c(`indexed on the primary`, "es.op"),
	c(`applied on \d+ other cop`, "es.op"),
	c(`replicated to`, "es.op"),
	c(`translog held every op of|retained by|retained history (the source checked|did not cover)`, "es.recovery-source"),
	f(`no line shows what history the source retained|no line shows the outcome`, "retained_history"),
	c(`partitioned`, "es.disruption"),
}

// inputs lists every incident the project holds: each scenario directory
// (one incident, several logs) and each single log.
func inputs(t *testing.T) [][]string {
	t.Helper()
	var out [][]string
	for _, pat := range []string{"../testdata/yb/config/*", "../testdata/yb/raft/*", "../testdata/es/*", "../testdata/yb/*.log", "../testdata/corpus/*/*.log"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if fi.IsDir() {
				logs, _ := filepath.Glob(filepath.Join(p, "*.log"))
				if len(logs) > 0 {
					sort.Strings(logs)
					out = append(out, logs)
				}
			} else if strings.HasSuffix(p, ".log") {
				out = append(out, []string{p})
			}
		}
	}
	if len(out) < 40 {
		t.Fatalf("only %d incidents found", len(out))
	}
	return out
}

type lineKey struct {
	src  string
	line int
}

// TestClaimsHaveProof runs both rule packs over every incident and holds
// each finding to its message: the message must have a registered shape,
// and every registered claim it makes must be proved by a cited line of a
// kind that prints that fact, or by the replayed fact the finding records.
func TestClaimsHaveProof(t *testing.T) {
	packs := []rules.Pack{ybrules.New(), esrules.New()}
	for _, r := range rules.Catalog(packs) {
		if len(ruleClaims[r.ID]) == 0 {
			t.Errorf("rule %s has no registered claims: add its message shapes and their proof to ruleClaims", r.ID)
		}
	}
	checked := map[string]int{}
	for _, files := range inputs(t) {
		var streams [][]parse.Event
		kinds := map[lineKey]map[string]bool{}
		for _, p := range files {
			fh, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			res, err := parse.Scan(fh, filepath.Base(p), []parse.System{yb.System, es.System}, parse.Options{})
			fh.Close()
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range res.Events {
				m := e.Info()
				last := max(m.Last, m.Pos.Line)
				for l := m.Pos.Line; l <= last; l++ {
					k := lineKey{m.Pos.Source, l}
					if kinds[k] == nil {
						kinds[k] = map[string]bool{}
					}
					kinds[k][e.Kind()] = true
				}
			}
			streams = append(streams, res.Events)
		}
		fs := rules.Run(replay.Merge(streams), []rules.Pack{ybrules.New(), esrules.New()})
		for _, fd := range fs {
			name := filepath.Dir(files[0]) + ":" + fd.Rule + " " + fd.Pos().Source + ":" + strconv.Itoa(fd.Pos().Line)
			for _, p := range problems(fd, kinds, checked) {
				t.Errorf("%s: %s", name, p)
			}
			checked[fd.Rule]++
		}
	}
	// The claims this issue is about are exercised somewhere.
	for _, p := range []string{`not in the committed Raft config`, `no delete of it took effect`, `acknowledged via`, `no line shows it acknowledged`,
		`applied on \d+ other cop`, `held until|still held its`, `the master's step-down of it failed`, `never tombstoned`} {
		if checked[p] == 0 {
			t.Errorf("no finding on testdata or the corpus makes the claim %q: the test proves nothing of it", p)
		}
	}
}

// problems lists what fd claims without proof, given the event kinds of
// every line, counting in checked the shared claims it makes.
func problems(fd rules.Finding, kinds map[lineKey]map[string]bool, checked map[string]int) []string {
	var out []string
	proved := func(cl claim) bool {
		if cl.fact != "" {
			return fd.Facts[cl.fact] != ""
		}
		for _, e := range fd.Evidence {
			for _, k := range cl.kinds {
				if kinds[lineKey{e.Source, e.Line}][k] {
					return true
				}
			}
		}
		return false
	}
	shaped := false
	for _, cl := range ruleClaims[fd.Rule] {
		if cl.phrase.MatchString(fd.Message) {
			shaped = true
			if !proved(cl) {
				out = append(out, fmt.Sprintf("%s claims %q with no cited line of %v: %s", fd.Rule, cl.phrase, cl.kinds, fd.Message))
			}
		}
	}
	if !shaped {
		out = append(out, fmt.Sprintf("message of %s matches none of its registered claims: %s", fd.Rule, fd.Message))
	}
	for _, cl := range sharedClaims {
		if cl.phrase.MatchString(fd.Message) {
			checked[cl.phrase.String()]++
			if !proved(cl) {
				out = append(out, fmt.Sprintf("%q with no proof (lines of %v, or fact %q): %s", cl.phrase, cl.kinds, cl.fact, fd.Message))
			}
		}
	}
	return out
}

// The checker itself: a claim without its proof, and a message of an
// unregistered shape, are caught.
func TestClaimCheckerCatches(t *testing.T) {
	kinds := map[lineKey]map[string]bool{{"d.log", 8}: {"yb.rbs": true}, {"a.log", 13}: {"yb.config-commit": true}}
	orphan := rules.Finding{Rule: ybrules.OrphanReplica,
		Message:  "replica d holds the tablet's data (remote bootstrap finished, d.log:8) but is not in the committed Raft config (...); no delete of it took effect",
		Evidence: []rules.Evidence{{Source: "d.log", Line: 8}, {Source: "a.log", Line: 13}},
		Facts:    map[string]string{"deletes_taken_effect": "none"}}
	if p := problems(orphan, kinds, map[string]int{}); len(p) != 0 {
		t.Fatalf("a proved finding was refused: %v", p)
	}
	noFact := orphan
	noFact.Facts = nil
	if p := problems(noFact, kinds, map[string]int{}); len(p) != 1 || !strings.Contains(p[0], "no delete of it took effect") {
		t.Errorf("a negative claim with no replayed fact passed: %v", p)
	}
	noConfig := orphan
	noConfig.Evidence = orphan.Evidence[:1]
	if p := problems(noConfig, kinds, map[string]int{}); len(p) != 1 || !strings.Contains(p[0], "committed Raft config") {
		t.Errorf("a config claim with no config line cited passed: %v", p)
	}
	odd := orphan
	odd.Message = "replica d is lonely"
	if p := problems(odd, kinds, map[string]int{}); len(p) != 1 || !strings.Contains(p[0], "none of its registered claims") {
		t.Errorf("an unregistered message shape passed: %v", p)
	}
}
