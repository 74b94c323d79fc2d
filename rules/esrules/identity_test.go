package esrules

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/replay/esstate"
	"github.com/logsleuth/logsleuth/rules"
)

// Two clusters' logs, each naming its own data node es-data-0 (another id
// in each nodes: dump), each applying seq# 5 and 6 of its own [logs][0]:
// keyed by name the two were one copy that bound each seq# to two docs
// under one term; keyed by id they are two copies, and a note says the
// name named two ids.
func TestTwoClustersOneNodeName(t *testing.T) {
	dir := filepath.Join(logs, "two-clusters-one-name")
	src := map[string]io.Reader{}
	for _, n := range []string{"cluster-a.log", "cluster-b.log"} {
		b, err := os.ReadFile(filepath.Join(dir, n))
		require.NoError(t, err)
		src[n] = strings.NewReader(string(b))
	}
	fs, p, diags := analyse(t, src)
	require.Empty(t, diags)
	for _, f := range fs {
		assert.NotEqual(t, rules.Error, f.Severity, formatFindings(fs))
	}
	var notes []string
	for _, f := range fs {
		if f.Rule == NodeNameReused {
			notes = append(notes, f.Subject.Node+" "+f.Facts["node_ids"])
		}
	}
	assert.Contains(t, notes, "es-data-0 Xk3m9QvTRe2aPl0sWn4c8A,Yq7Lr2ZuS5yBnd8Ho1tK3w")
	sh := p.State().Shards[esstate.ShardID{Index: "logs", Shard: 0}]
	require.NotNil(t, sh)
	cs := sh.CopiesSorted()
	require.Len(t, cs, 2, "one copy per node id")
	for _, c := range cs {
		assert.Equal(t, "es-data-0", c.Node, "the name is kept for display")
		assert.Equal(t, c.Key, c.NodeID)
		assert.Equal(t, 2, c.Ops.Len())
		o, _ := c.Ops.Get(5)
		// Each copy holds its own cluster's doc at #5.
		want := map[string]string{"Xk3m9QvTRe2aPl0sWn4c8A": "a-105", "Yq7Lr2ZuS5yBnd8Ho1tK3w": "b-105"}[c.NodeID]
		assert.Equal(t, want, o.Doc, c.NodeID)
	}
}

// A node restarted with an empty data path comes back under its name with
// a new id (`added {{n1}{NEW}...}`): its copy is a new one, not the old
// store's, and the finding of a break on it names the new id.
func TestNodeRestartedWithNewID(t *testing.T) {
	log := `[2019-05-02T10:00:00,000][DEBUG][o.e.c.s.ClusterApplierService] [n0] processing [apply cluster state]: execute
nodes: 
    {n0}{ID0aaaaaaaaaaaaaaaaaaa}{e0}{127.0.0.1}{127.0.0.1:9300}, local, master
    {n1}{ID1oldoldoldoldoldoldo}{e1}{127.0.0.1}{127.0.0.1:9301}
routing_table (version 3):
--------[i][0], node[ID0aaaaaaaaaaaaaaaaaaa], [P], s[STARTED], a[id=AP]
--------[i][0], node[ID1oldoldoldoldoldoldo], [R], s[STARTED], a[id=AR1]
[2019-05-02T10:00:01,000][TRACE][o.e.i.s.IndexShard       ] [n1] [i][0] index [t][x] (seq# [3])
[2019-05-02T10:00:05,000][INFO ][o.e.c.s.ClusterApplierService] [n0] removed {{n1}{ID1oldoldoldoldoldoldo}{e1}{127.0.0.1}{127.0.0.1:9301}}, term: 1, version: 4, reason: Publication{term=1, version=4}
[2019-05-02T10:00:09,000][INFO ][o.e.c.s.ClusterApplierService] [n0] added {{n1}{ID1newnewnewnewnewnew}{e2}{127.0.0.1}{127.0.0.1:9301}}, term: 1, version: 5, reason: Publication{term=1, version=5}
[2019-05-02T10:00:10,000][TRACE][o.e.i.s.IndexShard       ] [n1] [i][0] index [t][y] (seq# [3])
`
	fs, p, diags := analyse(t, map[string]io.Reader{"n.log": strings.NewReader(log)})
	require.Empty(t, diags)
	sh := p.State().Shards[esstate.ShardID{Index: "i", Shard: 0}]
	require.NotNil(t, sh)
	var n1 []*esstate.Copy
	for _, c := range sh.CopiesSorted() {
		if c.Node == "n1" {
			n1 = append(n1, c)
		}
	}
	require.Len(t, n1, 2, "two copies named n1, not one")
	old, nw := n1[0], n1[1]
	if old.NodeID != "ID1oldoldoldoldoldoldo" {
		old, nw = nw, old
	}
	assert.Equal(t, "ID1oldoldoldoldoldoldo", old.NodeID)
	assert.Equal(t, "ID1newnewnewnewnewnew", nw.NodeID)
	o, _ := old.Ops.Get(3)
	assert.Equal(t, "x", o.Doc)
	o, _ = nw.Ops.Get(3)
	assert.Equal(t, "y", o.Doc)
	var rulesSeen []string
	for _, f := range fs {
		rulesSeen = append(rulesSeen, f.Rule)
	}
	assert.NotContains(t, rulesSeen, SeqNoConflict, "the new store never held doc x at #3: %s", formatFindings(fs))
	assert.Contains(t, rulesSeen, NodeNameReused)
}

// 6.x: [events] deleted (`[events/uuid] deleting index`) and created again,
// its op lines printing no allocation id: only the delete line says the
// new #0 and gcp 0 are another index's. With it, nothing; without it, the
// same lines are one history bound twice at #0 and a gcp going back.
func TestIndexDeletedAndCreatedIsAnotherIndex(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(logs, "index-recreated-6x-benign.log"))
	require.NoError(t, err)
	fs, p, diags := analyse(t, map[string]io.Reader{"es.log": strings.NewReader(string(b))})
	require.Empty(t, diags)
	assert.Empty(t, fs, formatFindings(fs))
	st := p.State()
	require.Len(t, st.Deleted, 1)
	old := st.Deleted[0].Shard
	assert.Equal(t, "Ev1ccccccccccccccccccc", old.UUID)
	assert.Equal(t, int64(1), old.GCP, "the deleted incarnation keeps its own numbers")
	nw := st.Shards[esstate.ShardID{Index: "events", Shard: 0}]
	require.NotNil(t, nw)
	assert.Empty(t, nw.UUID, "no line printed the new index's uuid")
	assert.Equal(t, int64(0), nw.GCP)
	var out strings.Builder
	require.NoError(t, st.DescribeAll(&out))
	assert.Contains(t, out.String(), "deleted es.log:14, index uuid Ev1ccccccccccccccccccc: [events][0] primary node_t0", "state shows the deleted index as it was")

	var kept []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.Contains(l, "deleting index") {
			kept = append(kept, l)
		}
	}
	fs, _, _ = analyse(t, map[string]io.Reader{"es.log": strings.NewReader(strings.Join(kept, "\n"))})
	var seen []string
	for _, f := range fs {
		seen = append(seen, f.Rule)
	}
	assert.Contains(t, seen, SeqNoConflict, formatFindings(fs))
	assert.Contains(t, seen, GCPBelowInSync, formatFindings(fs))
}

// A routing dump naming the index by another uuid is another incarnation:
// the first one's shard is parked, not judged against, and comes back when
// a dump names its uuid again (two clusters' logs with one index name).
func TestRoutingUUIDKeysTheIncarnation(t *testing.T) {
	dump := func(ver int, uuid, aid string) string {
		return `[2021-03-01T10:00:0` + string(rune('0'+ver)) + `,000][DEBUG][o.e.c.s.ClusterApplierService] [n0] processing [apply cluster state]: execute
routing_table (version ` + string(rune('0'+ver)) + `):
-- index [[events/` + uuid + `]]
----shard_id [events][0]
--------[events][0], node[ID0aaaaaaaaaaaaaaaaaaa], [P], s[STARTED], a[id=` + aid + `]
`
	}
	log := dump(1, "Uuid1aaaaaaaaaaaaaaaaa", "A1") +
		"[2021-03-01T10:00:01,500][TRACE][o.e.i.s.ReplicationTracker] [n0] [events][0] updated global checkpoint to [40]\n" +
		dump(2, "Uuid2bbbbbbbbbbbbbbbbb", "A2") +
		"[2021-03-01T10:00:02,500][TRACE][o.e.i.s.ReplicationTracker] [n0] [events][0] updated global checkpoint to [3]\n" +
		dump(3, "Uuid1aaaaaaaaaaaaaaaaa", "A1")
	fs, p, diags := analyse(t, map[string]io.Reader{"n0.log": strings.NewReader(log)})
	require.Empty(t, diags)
	assert.Empty(t, fs, formatFindings(fs))
	sh := p.State().Shards[esstate.ShardID{Index: "events", Shard: 0}]
	require.NotNil(t, sh)
	assert.Equal(t, "Uuid1aaaaaaaaaaaaaaaaa", sh.UUID)
	assert.Equal(t, int64(40), sh.GCP, "the first incarnation's state, back")
}

// retentionLease prints a lease as 7.4+ RetentionLease.toString does:
// "RetentionLease{" + "id='" + id + '\” + ", retainingSequenceNumber=" +
// retainingSequenceNumber + ", timestamp=" + timestamp + ", source='" +
// source + '\” + '}'.
func retentionLease(id string, retaining, timestamp int64, source string) string {
	return "RetentionLease{" + "id='" + id + "'" + ", retainingSequenceNumber=" + strconv.FormatInt(retaining, 10) +
		", timestamp=" + strconv.FormatInt(timestamp, 10) + ", source='" + source + "'" + "}"
}

// 7.4+ RecoverySourceHandler logs `history is retained by {}` with the
// target's peer-recovery lease when the lease keeps every op the recovery
// needs (its retainingSequenceNumber at most the requested start). The
// history is kept from the lease's seq#, not from the start the next line
// names, and the lease's timestamp is no seq#: here the lease keeps #6 on,
// so #6..#7, which the recovery wrongly skipped, were there to send.
func TestRetentionLeaseLineKeepsHistoryFromItsSeqNo(t *testing.T) {
	lease := retentionLease("peer_recovery/Ab3dEfGhIjKlMnOpQrStUv", 6, 1580551200105, "peer recovery")
	log := `[2020-02-01T10:00:00,000][DEBUG][o.e.c.s.ClusterApplierService] [node_t0] processing [apply cluster state]: execute
nodes: 
   {node_t0}{Zz9yXxWwVvUuTtSsRrQqPp}{e0}{127.0.0.1}{127.0.0.1:9300}{dilmrt}, local, master
   {node_t1}{Ab3dEfGhIjKlMnOpQrStUv}{e1}{127.0.0.1}{127.0.0.1:9301}{dilmrt}
routing_table (version 7):
--------[cats][0], node[Zz9yXxWwVvUuTtSsRrQqPp], [P], s[STARTED], a[id=CatsPrim00000000000000]
--------[cats][0], node[Ab3dEfGhIjKlMnOpQrStUv], [R], recovery_source[peer recovery], s[INITIALIZING], a[id=CatsRepl00000000000000]
[2020-02-01T10:00:00,101][INFO ][o.e.i.r.PeerRecoveryTargetService] [node_t1] --> [cats][0] peer recovery existing commits[[{local_checkpoint=5, max_seq_no=5, translog_uuid=Tc1, history_uuid=Hc1}]], safe commit [{local_checkpoint=5, max_seq_no=5, translog_uuid=Tc1, history_uuid=Hc1}], gcp[9]
[2020-02-01T10:00:00,105][TRACE][o.e.i.r.RecoverySourceHandler] [node_t0] [cats][0][recover to node_t1] history is retained by ` + lease + `
[2020-02-01T10:00:00,110][TRACE][o.e.i.r.RecoverySourceHandler] [node_t0] [cats][0][recover to node_t1] performing sequence numbers based recovery. starting at [8]
[2020-02-01T10:00:00,112][TRACE][o.e.i.r.RecoverySourceHandler] [node_t0] [cats][0][recover to node_t1] recovery [phase2]: sending transaction log operations (from [8] to [12]
`
	fs, p, diags := analyse(t, map[string]io.Reader{"n.log": strings.NewReader(log)})
	require.Empty(t, diags)
	c := p.State().ByName(esstate.ShardID{Index: "cats", Shard: 0}, "node_t1")
	require.NotNil(t, c)
	r := c.Recovery()
	require.NotNil(t, r)
	require.NotNil(t, r.Retained)
	h := r.Retained
	assert.Equal(t, "lease", h.By)
	assert.Equal(t, "peer_recovery/Ab3dEfGhIjKlMnOpQrStUv", h.Lease)
	assert.Equal(t, int64(6), h.From, "the lease's retaining seq#, not the start (8) nor the timestamp")
	assert.True(t, h.Decided && h.Covered)
	require.Len(t, fs, 1, formatFindings(fs))
	f := fs[0]
	assert.Equal(t, OpsRange, f.Rule)
	assert.Equal(t, "covered", f.Facts["retained_history"], f.Message)
	assert.Contains(t, f.Message, "history from #6 was complete and retained by lease peer_recovery/Ab3dEfGhIjKlMnOpQrStUv")
}
