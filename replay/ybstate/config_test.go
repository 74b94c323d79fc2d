package ybstate_test

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay"
	"github.com/logsleuth/logsleuth/replay/ybstate"
)

func init() {
	if flag.Lookup("rewrite") == nil {
		flag.Bool("rewrite", false, "rewrite the golden files under testdata/yb/config")
	}
}

func rewriting() bool {
	f := flag.Lookup("rewrite")
	return f != nil && f.Value.String() == "true"
}

const (
	tab = "6f0e2c1ad4b84e5f9a7c3b2d1e0f4a58"
	pa  = "3f1c0a9b5e7d4c2a8b6e0f1d2c3b4a59"
	pb  = "8e2d4f6a1b3c4d5e9f0a7b6c5d4e3f21"
	pd  = "d9e8f7a6b5c44d3e2f1a0b9c8d7e6f50"
)

// fold scans named logs (name -> text), merges them in name order and
// folds every event into fresh Configs.
func fold(t *testing.T, logs map[string]string) *ybstate.Configs {
	t.Helper()
	names := make([]string, 0, len(logs))
	for n := range logs {
		names = append(names, n)
	}
	sort.Strings(names)
	var streams [][]parse.Event
	for _, n := range names {
		res, err := parse.Scan(strings.NewReader(logs[n]), n, []parse.System{yb.System}, parse.Options{Year: 2026})
		require.NoError(t, err)
		streams = append(streams, res.Events)
	}
	c := ybstate.NewConfigs()
	for _, e := range replay.Merge(streams) {
		c.Apply(e)
	}
	return c
}

func peerPB(u, mt string) string {
	return `peers { permanent_uuid: "` + u + `" member_type: ` + mt + ` }`
}

// TestConfigsScenarioState folds each scenario and compares what
// `logsleuth state` would print with state.golden beside its logs.
func TestConfigsScenarioState(t *testing.T) {
	all, err := filepath.Glob("../../testdata/yb/config/*")
	require.NoError(t, err)
	var dirs []string
	for _, d := range all {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			dirs = append(dirs, d)
		}
	}
	require.NotEmpty(t, dirs)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			paths, err := filepath.Glob(filepath.Join(dir, "*.log"))
			require.NoError(t, err)
			logs := map[string]string{}
			for _, p := range paths {
				b, err := os.ReadFile(p)
				require.NoError(t, err)
				logs[filepath.Base(p)] = string(b)
			}
			var out strings.Builder
			fold(t, logs).Describe(&out, "")
			path := dir + ".state.golden"
			if rewriting() {
				require.NoError(t, os.WriteFile(path, []byte(out.String()), 0o644))
				return
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test -rewrite")
			assert.Equal(t, string(want), out.String())
		})
	}
}

// The target of a pending config is the peer that differs from the
// committed config; without a committed config, the peer of the request
// the leader received just before.
func TestConfigsPendingTarget(t *testing.T) {
	pfx := "I0310 10:00:00.%s  4411 raft_consensus.cc:1] T " + tab + " P " + pa + " [term 3 LEADER]: "
	line := func(us, msg string) string { return strings.Replace(pfx, "%s", us, 1) + msg + "\n" }
	pending := line("000002", "Setting replicate pending config "+peerPB(pa, "VOTER")+" "+peerPB(pd, "PRE_VOTER")+", type = ADD_SERVER")

	// No committed config: the request names the target.
	c := fold(t, map[string]string{"a.log": line("000001", `Received ChangeConfig request tablet_id: "`+tab+`" type: ADD_SERVER server { permanent_uuid: "`+pd+`" member_type: PRE_VOTER } cas_config_opid_index: 12`) + pending})
	p := c.LookupTablet(tab).Pending
	require.NotNil(t, p)
	assert.Equal(t, pd, p.Target)
	assert.True(t, p.Adds(pd))
	assert.False(t, p.Adds(pb))

	// A committed config known: the diff names it, even with no request.
	commit := line("000000", "Committing config change with OpId 3.12. Old config: { opid_index: 11 "+peerPB(pa, "VOTER")+" "+peerPB(pb, "VOTER")+" }. New config: { opid_index: 12 "+peerPB(pa, "VOTER")+" }")
	c = fold(t, map[string]string{"a.log": commit + pending})
	assert.Equal(t, pd, c.LookupTablet(tab).Pending.Target)
	assert.Equal(t, int64(12), c.LookupTablet(tab).Committed.Index)
}

// Every replica prints each commit; a late one (a lagging follower
// applying an old change) must not end a newer pending change.
func TestConfigsStaleCommitKeepsPending(t *testing.T) {
	leader := "I0310 10:00:01.000000  4420 replica_state.cc:731] T " + tab + " P " + pa + " [term 3 LEADER]: Committing config change with OpId 3.13. Old config: { opid_index: 12 " + peerPB(pa, "VOTER") + " }. New config: { opid_index: 13 " + peerPB(pa, "VOTER") + " " + peerPB(pb, "VOTER") + " }\n" +
		"I0310 10:00:02.000000  4411 raft_consensus.cc:1] T " + tab + " P " + pa + " [term 3 LEADER]: Setting replicate pending config " + peerPB(pa, "VOTER") + " " + peerPB(pb, "VOTER") + " " + peerPB(pd, "PRE_VOTER") + ", type = ADD_SERVER\n"
	follower := "I0310 10:00:03.000000  5520 replica_state.cc:731] T " + tab + " P " + pb + " [term 3 FOLLOWER]: Committing config change with OpId 3.13. Old config: { opid_index: 12 " + peerPB(pa, "VOTER") + " }. New config: { opid_index: 13 " + peerPB(pa, "VOTER") + " " + peerPB(pb, "VOTER") + " }\n"
	c := fold(t, map[string]string{"a.log": leader, "b.log": follower})
	tc := c.LookupTablet(tab)
	require.NotNil(t, tc.Pending)
	assert.True(t, tc.Pending.Adds(pd))
	assert.Equal(t, "a.log", tc.Committed.From.Pos.Source, "the first commit line of index 13 stays the evidence")
}

// tablet_service.cc's DeleteTablet prints no peer: it is placed on the
// tablet server the source's own prefixes show, and not placed at all when
// a source shows two servers.
func TestConfigsPlacesPeerlessLinesBySource(t *testing.T) {
	own := "I0310 10:00:00.000000  7301 ts_tablet_manager.cc:1480] T " + tab + " P " + pd + ":  Initiating RemoteBootstrap from Peer " + pa + " (10.0.0.1:9100)\n"
	del := "I0310 10:00:01.000000  7355 tablet_service.cc:1262] Processing DeleteTablet for tablet " + tab + " with delete_type TABLET_DATA_TOMBSTONED (Replica not wanted) from 10.0.0.9:51830\n"
	c := fold(t, map[string]string{"d.log": own + del})
	r := c.LookupTablet(tab).Lookup(pd)
	require.NotNil(t, r)
	require.Len(t, r.Deletes, 1)
	assert.Equal(t, "Replica not wanted", r.Deletes[0].Reason)
	assert.False(t, r.HoldsData())

	other := "I0310 10:00:00.500000  7301 ts_tablet_manager.cc:1480] T " + tab + " P " + pb + ":  Initiating RemoteBootstrap from Peer " + pa + " (10.0.0.1:9100)\n"
	c = fold(t, map[string]string{"mixed.log": own + other + del})
	for _, r := range c.LookupTablet(tab).Replicas() {
		assert.Empty(t, r.Deletes, "peer %q: a source with two servers places no peerless line", r.Peer)
	}
}

// The two sides of one remote bootstrap join into one session; a second
// `Initiating` on the destination after a failure is a new attempt.
func TestConfigsRBSSessions(t *testing.T) {
	dest := "I0310 10:00:01.000000  7301 ts_tablet_manager.cc:1480] T " + tab + " P " + pd + ":  Initiating RemoteBootstrap from Peer " + pa + " (10.0.0.1:9100)\n" +
		"W0310 10:00:02.000000  7301 ts_tablet_manager.cc:2410] T " + tab + " P " + pd + ": Remote bootstrap: Unable to fetch data from remote peer " + pa + " (10.0.0.1:9100): Timed out\n" +
		"I0310 10:00:02.100000  7301 ts_tablet_manager.cc:2414] T " + tab + " P " + pd + ": Tombstoning tablet after failed remote bootstrap\n" +
		"I0310 10:00:05.000000  7301 ts_tablet_manager.cc:1480] T " + tab + " P " + pd + ":  Initiating RemoteBootstrap from Peer " + pa + " (10.0.0.1:9100)\n" +
		"I0310 10:00:09.000000  7301 ts_tablet_manager.cc:1577] T " + tab + " P " + pd + ": Remote bootstrap for tablet ended successfully\n"
	src := "I0310 10:00:01.100000  5102 remote_bootstrap_service.cc:187] Beginning new remote bootstrap session on tablet " + tab + " from peer " + pd + " at 10.0.0.4:40122: session id = " + pd + "-" + tab + "-1\n" +
		"I0310 10:00:05.100000  5102 remote_bootstrap_service.cc:187] Beginning new remote bootstrap session on tablet " + tab + " from peer " + pd + " at 10.0.0.4:40122: session id = " + pd + "-" + tab + "-2\n" +
		"I0310 10:00:09.100000  5102 remote_bootstrap_service.cc:311] Remote bootstrap session " + pd + "-" + tab + "-2 completed. Stats: files: 3\n"
	c := fold(t, map[string]string{"a.log": src, "d.log": dest})
	r := c.LookupTablet(tab).Lookup(pd)
	require.NotNil(t, r)
	require.Len(t, r.Sessions, 2)
	first, second := r.Sessions[0], r.Sessions[1]
	assert.Equal(t, pd+"-"+tab+"-1", first.Session)
	assert.True(t, first.Ended() && !first.Finished(), "failed and tombstoned")
	assert.Equal(t, pd+"-"+tab+"-2", second.Session)
	assert.True(t, second.Finished())
	assert.Equal(t, "d.log", second.Done.Pos.Source, "the destination's own line marks the end")
	assert.True(t, r.HoldsData())
}

// A master log's own prefixes (its sys catalog peer) must not place a
// report that does not say who sent it.
func TestConfigsMasterLinesNotPlacedBySource(t *testing.T) {
	const master = "0a0b0c0d0e0f40a1b2c3d4e5f6a7b8c9"
	log := "I0310 10:00:00.000000  2201 raft_consensus.cc:1] T 00000000000000000000000000000000 P " + master + " [term 1 LEADER]: Setting replicate pending config " + peerPB(master, "VOTER") + ", type = ADD_SERVER\n" +
		"I0310 10:00:01.000000  2240 catalog_manager.cc:1] Tablet: " + tab + " reported consensus state change. New consensus state: current_term: 3 config { opid_index: 14 " + peerPB(pa, "VOTER") + " }\n"
	c := fold(t, map[string]string{"master.log": log})
	tc := c.LookupTablet(tab)
	require.NotNil(t, tc)
	assert.Equal(t, int64(14), tc.Committed.Index)
	assert.Nil(t, tc.Lookup(master), "the report is not the master's replica")
}

// The source's ChangeRole after a copy belongs to the session that copied:
// it neither opens another nor reopens it.
func TestConfigsRBSChangeRole(t *testing.T) {
	dest := "I0310 10:00:01.000000  7301 ts_tablet_manager.cc:1480] T " + tab + " P " + pd + ":  Initiating RemoteBootstrap from Peer " + pa + " (10.0.0.1:9100)\n" +
		"I0310 10:00:09.000000  7301 ts_tablet_manager.cc:1577] T " + tab + " P " + pd + ": Remote bootstrap for tablet ended successfully\n"
	for _, tc := range []struct{ line, status string }{
		{"I0310 10:00:09.200000  5102 remote_bootstrap_service.cc:331] ChangeRole succeeded for bootstrap session " + pd + "-" + tab + "-1\n", ""},
		{"W0310 10:00:09.200000  5102 remote_bootstrap_service.cc:334] ChangeRole failed for bootstrap session " + pd + "-" + tab + "-1, error : Illegal state (yb/consensus/raft_consensus.cc:2011): Leader is not ready for Config Change, can try again.\n",
			"Illegal state (yb/consensus/raft_consensus.cc:2011): Leader is not ready for Config Change, can try again."},
	} {
		src := "I0310 10:00:01.100000  5102 remote_bootstrap_service.cc:187] Beginning new remote bootstrap session on tablet " + tab + " from peer " + pd + " at 10.0.0.4:40122: session id = " + pd + "-" + tab + "-1\n" +
			"I0310 10:00:09.100000  5102 remote_bootstrap_service.cc:311] Remote bootstrap session " + pd + "-" + tab + "-1 completed. Stats: files: 3\n" + tc.line
		c := fold(t, map[string]string{"a.log": src, "d.log": dest})
		r := c.LookupTablet(tab).Lookup(pd)
		require.NotNil(t, r)
		require.Len(t, r.Sessions, 1)
		s := r.Sessions[0]
		assert.True(t, s.Finished())
		if tc.status == "" {
			require.NotNil(t, s.RoleChanged)
			assert.Equal(t, 3, s.RoleChanged.Pos.Line)
			assert.Nil(t, s.RoleFailed)
			assert.Contains(t, s.String(), "role changed a.log:3")
		} else {
			require.NotNil(t, s.RoleFailed)
			assert.Nil(t, s.RoleChanged)
			assert.Equal(t, tc.status, s.RoleStatus)
			assert.Contains(t, s.String(), "role change failed a.log:3")
		}
	}
}
