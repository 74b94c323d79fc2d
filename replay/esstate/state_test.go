package esstate

import (
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
)

func fold(t *testing.T, log string) *State {
	t.Helper()
	res, err := parse.Scan(strings.NewReader(log), "t.log", []parse.System{es.System}, parse.Options{})
	require.NoError(t, err)
	require.Empty(t, res.Diags)
	s := New()
	for _, e := range res.Events {
		s.Apply(e)
	}
	return s
}

const dump = `[2018-01-01T00:00:00,000][DEBUG][o.e.c.s.ClusterApplierService] [n0] processing
nodes: 
   {n0}{ID0000000000000000000a}{e0}{127.0.0.1}{127.0.0.1:9300}, local, master
   {n1}{ID1111111111111111111b}{e1}{127.0.0.1}{127.0.0.1:9301}
routing_table (version 3):
--------[i][0], node[ID1111111111111111111b], [P], s[STARTED], a[id=A1]
--------[i][0], node[ID0000000000000000000a], [R], s[STARTED], a[id=A0]
--------[i][0], node[IDunknown000000000000c], [R], s[INITIALIZING], a[id=A2]
`

// Copies are keyed by node id and named by the dump's names.
func TestRoutingKeysCopiesByNodeID(t *testing.T) {
	s := fold(t, dump)
	sh := s.Shards[ShardID{"i", 0}]
	require.NotNil(t, sh)
	assert.Equal(t, "ID1111111111111111111b", sh.Primary)
	assert.Equal(t, "n1", sh.Copies[sh.Primary].Node)
	var nodes []string
	for _, c := range sh.CopiesSorted() {
		nodes = append(nodes, c.Node)
	}
	// The copy on a node no dump named keeps its id.
	assert.Equal(t, []string{"IDunknown000000000000c", "n0", "n1"}, nodes)
	assert.True(t, sh.Copies["ID0000000000000000000a"].InSync)
	assert.False(t, sh.Copies["IDunknown000000000000c"].InSync)
	assert.True(t, sh.Copies["IDunknown000000000000c"].Recovering())
	assert.Equal(t, int64(3), sh.Version)
}

// Ops a cut-off primary logs are stale once another copy is promoted, even
// when the disruption line comes after them in the file (line order is
// not time order).
func TestFailoverMakesIsolatedOpsStale(t *testing.T) {
	s := fold(t, dump+`[2018-01-01T00:00:01,000][TRACE][o.e.i.s.IndexShard       ] [n1] [i][0] index [t][x] (seq# [-2])
[2018-01-01T00:00:03,000][TRACE][o.e.i.s.IndexShard       ] [n1] [i][0] index [t][y] (seq# [-2])
[2018-01-01T00:00:02,000][INFO ][o.e.t.d.NetworkDisruption] start disrupting (disruption type: network unresponsive, disrupted links: two partitions (partition 1: [n0] and partition 2: [n1]))
routing_table (version 4):
--------[i][0], node[ID0000000000000000000a], [P], s[STARTED], a[id=A0]
`)
	sh := s.Shards[ShardID{"i", 0}]
	assert.Equal(t, "n0", sh.Copies[sh.Primary].Node)
	assert.Equal(t, int64(2), sh.Term)
	assert.True(t, sh.TermCounted)
	old := s.ByName(ShardID{"i", 0}, "n1")
	require.Len(t, old.Stale, 1)
	assert.Equal(t, "y", old.Stale[0].Doc)
	assert.Equal(t, int64(1), old.Stale[0].Seq, "the -2 trace gets the copy's next seq#")
	assert.True(t, old.Stale[0].Estimated)
	assert.Equal(t, 11, old.Stale[0].IsolatedBy.Line, "cites the disruption line")
	assert.Equal(t, "", old.State, "a copy the newer table does not list is gone")
	assert.False(t, sh.History.Has(1), "a stale op is not part of the live history")
	h, _ := sh.History.Get(0)
	assert.Equal(t, "x", h.Doc)
}

func TestRecoveryLifecycle(t *testing.T) {
	s := fold(t, dump+`[2018-01-01T00:00:05,000][TRACE][o.e.i.s.IndexShard       ] [n0] [i][0] index [t][a] (seq# [4])
[2018-01-01T00:00:05,100][TRACE][o.e.i.s.IndexShard       ] [n0] [i][0] index [t][b] (seq# [5])
[2018-01-01T00:00:06,000][INFO ][o.e.i.r.PeerRecoveryTargetService] [n0] --> [i][0] peer recovery existing commits[[{local_checkpoint=1, max_seq_no=1, translog_uuid=T}, {local_checkpoint=6, max_seq_no=6, translog_uuid=T}]], safe commit [{local_checkpoint=1, max_seq_no=1, translog_uuid=T}], gcp[3]
[2018-01-01T00:00:06,100][TRACE][o.e.i.r.RecoverySourceHandler] [n1] [i][0][recover to n0] recovery [phase2]: sending transaction log operations (seq# from [2], required [2:6]
[2018-01-01T00:00:06,200][TRACE][o.e.i.s.IndexShard       ] [n0] [i][0] index [t][c] (seq# [2])
[2018-01-01T00:00:06,300][TRACE][o.e.i.r.RecoverySourceHandler] [n1] [i][0][recover to n0] finalizing recovery
`)
	c := s.ByName(ShardID{"i", 0}, "n0")
	require.NotNil(t, c)
	require.Len(t, c.Recoveries, 1)
	r := c.Recovery()
	assert.Equal(t, "ops", r.Kind)
	assert.Equal(t, "n1", r.Source)
	assert.Equal(t, int64(3), r.GCP)
	assert.Equal(t, int64(2), r.ReqFrom)
	assert.Equal(t, int64(6), r.ReqTo)
	assert.True(t, r.Finalized)
	assert.Contains(t, r.Received, int64(2))
	// The ops-based recovery replaced the history from #2 on.
	assert.Equal(t, []int64{2}, seqs(&c.Ops))
	// The newer commit must go: the recovery started from the older one.
	require.Len(t, c.Commits, 2)
	assert.False(t, c.Commits[0].ShouldDelete)
	assert.True(t, c.Commits[1].ShouldDelete)
	assert.Equal(t, 11, c.Commits[1].ShouldDeleteAt.Line)
}

func seqs(w *Window) []int64 {
	var out []int64
	for o := range w.All() {
		out = append(out, o.Seq)
	}
	return out
}

func TestFileBasedRecoveryClearsStaleStore(t *testing.T) {
	s := New()
	sh := s.Shard(ShardID{"i", 0})
	c := sh.Copy("n0", "n0")
	c.Stale = []OpRef{{Seq: 1, Doc: "y"}}
	c.Commits = []*CommitRef{{}}
	res, err := parse.Scan(strings.NewReader("[2018-01-01T00:00:06,100][TRACE][o.e.i.r.RecoverySourceHandler] [n1] [i][0][recover to n0] recovery [phase1]: recovering_files [3] with total_size [4kb], reusing_files [0] with total_size [0b]\n"),
		"t.log", []parse.System{es.System}, parse.Options{})
	require.NoError(t, err)
	s.Apply(res.Events[0])
	assert.Empty(t, c.Stale)
	assert.True(t, c.Commits[0].Deleted)
	assert.Equal(t, "file", c.Recovery().Kind)
}

func TestEffectiveLCP(t *testing.T) {
	c := &Copy{LCP: 4}
	for _, q := range []int64{5, 6, 8} {
		c.Ops.Put(OpRef{Seq: q})
	}
	assert.Equal(t, int64(6), c.EffectiveLCP())
	c.LCP = Unknown
	assert.Equal(t, Unknown, c.EffectiveLCP())
}

// Same events, same printout: no map order leaks into String or Describe.
func TestDescribeIsDeterministic(t *testing.T) {
	data, err := os.ReadFile("../../testdata/es/safe-commit-not-safe.log")
	require.NoError(t, err)
	first := fold(t, string(data)).String()
	for range 5 {
		assert.Equal(t, first, fold(t, string(data)).String())
	}
	var b strings.Builder
	require.NoError(t, fold(t, string(data)).Describe(&b, "test", 1))
	out := b.String()
	assert.Contains(t, out, "[test][1] primary node_t2 (t.log:29)")
	assert.Contains(t, out, "should have been deleted by the recovery at t.log:57")
	assert.Contains(t, out, "stale ops: #1? doc 12 term 1, #2? doc 15 term 1")
	b.Reset()
	require.NoError(t, New().Describe(&b, "nope", 0))
	assert.Equal(t, "[nope][0]: no events\n", b.String())
}

func TestDescribeFilters(t *testing.T) {
	s := fold(t, dump+"routing_table (version 4):\n--------[j][2], node[ID0000000000000000000a], [P], s[STARTED], a[id=J2]\n")
	var all, idx, one strings.Builder
	require.NoError(t, s.Describe(&all, "", 0))
	require.NoError(t, s.Describe(&idx, "j", -1))
	require.NoError(t, s.Describe(&one, "i", 0))
	assert.Contains(t, all.String(), "[i][0] primary n1")
	assert.Contains(t, all.String(), "[j][2] primary n0")
	assert.NotContains(t, idx.String(), "[i][0]")
	assert.Contains(t, idx.String(), "[j][2]")
	assert.Equal(t, all.String(), one.String()+idx.String())
	var none strings.Builder
	require.NoError(t, s.Describe(&none, "k", -1))
	assert.Equal(t, "[k]: no events\n", none.String())
}

// A log that printed no primary change still says the shard's term in its
// ops: an op of term N means a primary of term N.
func TestPrintedOpTermsRaiseTheShardTerm(t *testing.T) {
	s := fold(t, `[2023-10-04T10:00:00,000][TRACE][o.e.i.s.IndexShard       ] [node_t0] [test][0] index [a] seq# [1] allocation-id [[id=a0]] primaryTerm [3] operationPrimaryTerm [3] origin [PRIMARY]
[2023-10-04T10:00:00,001][TRACE][o.e.i.s.IndexShard       ] [node_t1] [test][0] index [a] seq# [1] allocation-id [[id=a1]] primaryTerm [3] operationPrimaryTerm [3] origin [REPLICA]
`)
	sh := s.Shards[ShardID{"test", 0}]
	require.NotNil(t, sh)
	assert.Equal(t, int64(3), sh.Term)
	assert.False(t, sh.TermCounted, "printed, not counted")
	assert.Equal(t, int64(3), s.ByName(ShardID{"test", 0}, "node_t1").Term)
}

// The fold itself keeps what it learns of a recovery's starting commit,
// with no rule pack: elastic/elasticsearch#28405 replayed leaves node_t1's
// second recovery judged unsafe at its commit diagnostic, and docs 30 and
// 14 of the live history lost where the stale commit held 12 and 15.
func TestFoldJudgesRecoveryAndKeepsLostDocs(t *testing.T) {
	b, err := os.ReadFile("../../testdata/es/safe-commit-not-safe.log")
	require.NoError(t, err)
	s := fold(t, string(b))
	c := s.ByName(ShardID{"test", 1}, "node_t1")
	require.NotNil(t, c)
	r := c.Recovery()
	require.NotNil(t, r)
	assert.Equal(t, 108, r.UnsafeAt.Line, "judged at the commit diagnostic")
	assert.True(t, c.Judged())
	assert.Nil(t, c.Suspect, "the diagnostic settled the suspect")
	var lost []string
	for _, l := range s.LostDocs() {
		assert.Same(t, c, l.Copy)
		assert.Equal(t, 108, l.Recovery.Line)
		lost = append(lost, l.Op.Primary.Doc+"<-"+l.Op.Stale.Doc)
	}
	assert.ElementsMatch(t, []string{"30<-12", "14<-15"}, lost)
}

// A recovering copy whose persisted gcp covers its abandoned ops is a
// pending suspect until a line shows the choice; a file-based recovery
// settles it.
func TestSuspectPendingUntilTheRecoveryShowsItsChoice(t *testing.T) {
	b, err := os.ReadFile("../../testdata/es/safe-commit-not-safe.log")
	require.NoError(t, err)
	// Up to the second recovery's translog checkpoint (gcp 3), before its
	// commit diagnostic.
	lines := strings.Split(string(b), "\n")
	upTo := lines
	for i, l := range lines {
		if strings.Contains(l, "peer recovery existing commits") {
			upTo = lines[:i]
		}
	}
	s := fold(t, strings.Join(upTo, "\n")+"\n")
	sus := s.Suspects()
	require.Len(t, sus, 1)
	c := sus[0]
	assert.Equal(t, "node_t1", c.Node)
	require.NotNil(t, c.Suspect)
	assert.NotEmpty(t, c.Suspect.Stale)
	assert.Equal(t, int64(3), c.Suspect.GCP)
	s.Apply(&es.RecoverySource{Meta: parse.Meta{Pos: parse.Pos{Source: "t.log", Line: 999}}, Where: es.Where{Node: "node_t2", Index: "test", Shard: 1},
		Target: "node_t1", Step: es.StepPhase1Files, Start: -2, End: -2, ReqFrom: -2, ReqTo: -2})
	assert.Empty(t, s.Suspects(), "files replace the store: no stale commit can be used")
}

// The names a shard and its copies keep for the run are their own
// strings, not slices of the line that first named them: a line's text
// shares a block with the lines around it, which they would keep alive.
func TestKeptNamesDoNotHoldTheLine(t *testing.T) {
	line := "[2023-10-04T10:00:00,000][TRACE][o.e.i.s.IndexShard       ] [node_t1] [test][0] index [63z] seq# [1] allocation-id [[id=a0node_t1]] primaryTerm [1] operationPrimaryTerm [1] origin [REPLICA]\n"
	res, err := parse.Scan(strings.NewReader(line), "t.log", []parse.System{es.System}, parse.Options{})
	require.NoError(t, err)
	require.Len(t, res.Events, 1)
	ev := res.Events[0].(*es.Op)
	s := New()
	s.Apply(ev)
	sh := s.Shards[ShardID{"test", 0}]
	require.NotNil(t, sh)
	c := sh.find(s.CopyKey("t.log", "node_t1"))
	require.NotNil(t, c)
	text := ev.Info().Text
	lo := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	inLine := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		return p >= lo && p < lo+uintptr(len(text))
	}
	require.True(t, inLine(ev.AllocationID), "the event's fields are slices of its line")
	for what, kept := range map[string]string{"index": sh.ID.Index, "copy key": c.Key, "copy node": c.Node, "allocation id": c.AllocID} {
		assert.False(t, inLine(kept), "%s %q is a slice of the line", what, kept)
	}
	assert.Equal(t, "a0node_t1", c.AllocID)
	for id := range s.Shards {
		assert.False(t, inLine(id.Index), "the shard map's key is a slice of the line")
	}
}
