package esrules

import (
	"io"
	"os"
	"path/filepath"
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
