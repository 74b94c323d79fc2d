package ybstate_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay"
	"github.com/logsleuth/logsleuth/replay/ybstate"
)

// foldDir folds a scenario's logs, merged by time, into one State, the way
// the command does before any rule runs.
func foldDir(t *testing.T, dir string) *ybstate.State {
	t.Helper()
	logs, err := filepath.Glob(filepath.Join(dir, "*.log"))
	require.NoError(t, err)
	sort.Strings(logs)
	var streams [][]parse.Event
	for _, p := range logs {
		f, err := os.Open(p)
		require.NoError(t, err)
		res, err := parse.Scan(f, filepath.Base(p), []parse.System{yb.System}, parse.Options{})
		f.Close()
		require.NoError(t, err)
		streams = append(streams, res.Events)
	}
	st := ybstate.New()
	for _, e := range replay.Merge(streams) {
		st.Apply(e)
	}
	return st
}

// One fold fills every view: the MVCC replicas, the Raft view and the
// config history, with no rule pack involved.
func TestStateFoldsEveryView(t *testing.T) {
	st := foldDir(t, "../../testdata/yb/config/race")
	tab := "6f0e2c1ad4b84e5f9a7c3b2d1e0f4a58"
	tc := st.Configs().LookupTablet(tab)
	require.NotNil(t, tc, "config history folded by State.Apply")
	assert.Equal(t, int64(14), tc.Committed.Index)
	d := tc.Lookup("d9e8f7a6b5c44d3e2f1a0b9c8d7e6f50")
	require.NotNil(t, d)
	require.Len(t, d.Sessions, 1)
	assert.True(t, d.Sessions[0].Finished())

	tr := st.Raft().Tablet(tab)
	require.NotNil(t, tr, "Raft view folded by State.Apply")
	ls := tr.Leaders(3)
	require.Len(t, ls, 1)
	assert.Equal(t, "3f1c0a9b5e7d4c2a8b6e0f1d2c3b4a59", ls[0].Peer)
	assert.NotNil(t, st.Lookup(ybstate.Key{Tablet: tab, Peer: "3f1c0a9b5e7d4c2a8b6e0f1d2c3b4a59"}))
}

// The writes the lease rules weigh are replayed state too: the seed's
// term-3 op below the term-1 lease is there after the fold alone.
func TestStateKeepsWrites(t *testing.T) {
	st := foldDir(t, "../../testdata/yb/raft/seed-early-revocation")
	var tablets []string
	for _, r := range st.Replicas() {
		tablets = append(tablets, r.Tablet)
	}
	require.NotEmpty(t, tablets)
	ws := st.Writes(tablets[0])
	require.NotEmpty(t, ws)
	terms := map[int64]bool{}
	for _, w := range ws {
		assert.Equal(t, tablets[0], w.Tablet)
		assert.NotZero(t, w.From.Pos.Line)
		terms[w.Term] = true
	}
	assert.True(t, terms[3], "a term-3 write: %v", ws)
}
