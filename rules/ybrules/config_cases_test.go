package ybrules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	cTab = "6f0e2c1ad4b84e5f9a7c3b2d1e0f4a58"
	cA   = "3f1c0a9b5e7d4c2a8b6e0f1d2c3b4a59"
	cB   = "8e2d4f6a1b3c4d5e9f0a7b6c5d4e3f21"
	cD   = "d9e8f7a6b5c44d3e2f1a0b9c8d7e6f50"
)

func cPeer(u, mt string) string {
	return `peers { permanent_uuid: "` + u + `" member_type: ` + mt + ` }`
}

// glog builds one line at second s of 10:00 on 2026-03-10. Each test
// file starts with its header, so its first glog line is line 2.
func glog(s, src, msg string) string {
	return "I0310 10:00:" + s + ".000000  4411 " + src + "] " + msg + "\n"
}

func leaderLine(s, msg string) string {
	return glog(s, "raft_consensus.cc:1", "T "+cTab+" P "+cA+" [term 3 LEADER]: "+msg)
}

func destLine(s, msg string) string {
	return glog(s, "ts_tablet_manager.cc:1", "T "+cTab+" P "+cD+": "+msg)
}

// commitABD commits a config of A, B and D (D a PRE_VOTER) at index 13.
var commitABD = leaderLine("01", "Committing config change with OpId 3.13. Old config: { opid_index: 12 "+cPeer(cA, "VOTER")+" "+cPeer(cB, "VOTER")+" }. New config: { opid_index: 13 "+cPeer(cA, "VOTER")+" "+cPeer(cB, "VOTER")+" "+cPeer(cD, "PRE_VOTER")+" }")

// commitAB removes D again at index 14.
var commitAB = leaderLine("05", "Committing config change with OpId 3.14. Old config: { opid_index: 13 "+cPeer(cA, "VOTER")+" "+cPeer(cB, "VOTER")+" "+cPeer(cD, "PRE_VOTER")+" }. New config: { opid_index: 14 "+cPeer(cA, "VOTER")+" "+cPeer(cB, "VOTER")+" }")

// reportFromD is the master's reading of D's heartbeat at second sec: D
// reports its consensus state, the config at index 14 without it.
func reportFromD(sec string) string {
	return glog(sec, "master_heartbeat_service.cc:942", "Tablet server "+cD+" sent incremental report for "+cTab+", prev state op id: 14, prev state term: 3, prev state has_leader_uuid: 1. Consensus state: current_term: 3 leader_uuid: \""+cA+"\" config { opid_index: 14 "+cPeer(cA, "VOTER")+" "+cPeer(cB, "VOTER")+" }")
}

var rbsDone = destLine("02", " Initiating RemoteBootstrap from Peer "+cA+" (10.0.0.1:9100)") +
	destLine("09", "Remote bootstrap for tablet ended successfully")

// TestConfigCases pins the edges of each rule: what must and must not be
// reported.
func TestConfigCases(t *testing.T) {
	header := "Log file created at: 2026/03/10 10:00:00\n"
	for _, tc := range []struct {
		name string
		logs map[string]string
		want []string // "rule file:line"
	}{
		{
			name: "a dropped table deletes members: not a delete of a pending replica",
			logs: map[string]string{"a.log": commitABD, "d.log": rbsDone + destLine("12", "Deleting tablet data with delete state TABLET_DATA_DELETED") + destLine("12", "Tablet deleted. Last logged OpId: 3.20")},
		},
		{
			name: "a member tombstoned: delete of a replica in the committed config",
			logs: map[string]string{"a.log": commitABD, "d.log": rbsDone + glog("12", "tablet_service.cc:1262", "Processing DeleteTablet for tablet "+cTab+" with delete_type TABLET_DATA_TOMBSTONED (Replica moved) from 10.0.0.9:1") + destLine("12", "Deleting tablet data with delete state TABLET_DATA_TOMBSTONED")},
			want: []string{"yb/config/delete-of-pending-replica d.log:4"},
		},
		{
			name: "the master saw a newer config than the logs: trust the delete's reason",
			logs: map[string]string{"a.log": commitABD, "d.log": rbsDone + glog("12", "tablet_service.cc:1262", "Processing DeleteTablet for tablet "+cTab+" with delete_type TABLET_DATA_TOMBSTONED (TS "+cD+" not found in new config with opid_index 14) from 10.0.0.9:1")},
		},
		{
			name: "removed while copying, the master's delete fails its CAS check: orphan",
			logs: map[string]string{
				"a.log": commitABD + commitAB,
				"d.log": rbsDone,
				"m.log": glog("10", "async_rpc_tasks.cc:1", "DeleteTablet RPC for tablet "+cTab+" (t) on TS="+cD+" (task=0x1, state=kRunning): TS "+cD+": delete failed for tablet "+cTab+" due to a CAS failure. No further retry: Illegal state: Request specified cas_config_opid_index_less_or_equal of 13 but the committed config has opid_index of 14"),
			},
			want: []string{"yb/config/orphan-replica d.log:3"},
		},
		{
			name: "outside the config but its ADD is pending again: not an orphan",
			logs: map[string]string{
				"a.log": commitABD + commitAB + leaderLine("10", "Setting replicate pending config "+cPeer(cA, "VOTER")+" "+cPeer(cB, "VOTER")+" "+cPeer(cD, "PRE_VOTER")+", type = ADD_SERVER"),
				"d.log": rbsDone,
			},
		},
		{
			name: "the pending ADD aborted: orphan again",
			logs: map[string]string{
				"a.log": commitABD + commitAB + leaderLine("10", "Setting replicate pending config "+cPeer(cA, "VOTER")+" "+cPeer(cB, "VOTER")+" "+cPeer(cD, "PRE_VOTER")+", type = ADD_SERVER") +
					leaderLine("11", "CHANGE_CONFIG_OP [3.15] replication failed: Aborted: Op aborted by new leader"),
				"d.log": rbsDone,
			},
			want: []string{"yb/config/orphan-replica d.log:3"},
		},
		{
			name: "a session failure seen only from the source: not judged stuck",
			logs: map[string]string{"a.log": commitABD +
				glog("02", "remote_bootstrap_service.cc:1", "Beginning new remote bootstrap session on tablet "+cTab+" from peer "+cD+" at 10.0.0.4:1: session id = "+cD+"-"+cTab+"-1") +
				glog("04", "remote_bootstrap_service.cc:2", "Remote bootstrap session "+cD+"-"+cTab+"-1 on tablet "+cTab+" with peer "+cD+" failed. session_succeeded = 0")},
		},
		{
			name: "a session that starts and is never heard of again: stuck",
			logs: map[string]string{"a.log": commitABD, "d.log": destLine("02", " Initiating RemoteBootstrap from Peer "+cA+" (10.0.0.1:9100)")},
			want: []string{"yb/rbs/stuck d.log:2"},
		},
		{
			name: "an unreachable follower evicted: one note, not repeated by its removal",
			logs: map[string]string{"a.log": commitABD +
				glog("03", "consensus_queue.cc:1", "T "+cTab+" P "+cA+" [LEADER]: Attempting to remove follower "+cD+" from the Raft config at commit index 13. Reason: Leader has been unable to successfully communicate with Peer "+cD+" for more than 300 seconds (300.412s)") +
				commitAB},
			want: []string{"yb/config/lagging-member a.log:3"},
		},
		{
			name: "removed, tombstoned on its node, then reported: a tombstone's report proves no data",
			logs: map[string]string{
				"a.log": commitABD + commitAB,
				"d.log": rbsDone + glog("06", "tablet_service.cc:1262", "Processing DeleteTablet for tablet "+cTab+" with delete_type TABLET_DATA_TOMBSTONED (TS "+cD+" not found in new config with opid_index 14) from 10.0.0.9:1") +
					destLine("06", "Deleting tablet data with delete state TABLET_DATA_TOMBSTONED") + destLine("06", "Tablet deleted. Last logged OpId: 3.14"),
				"m.log": reportFromD("30"),
			},
		},
		{
			name: "tombstoned, bootstrapped again, removed again and not deleted: orphan, and the message says the delete came first",
			logs: map[string]string{
				"a.log": commitABD + leaderLine("06", "Committing config change with OpId 3.14. Old config: { opid_index: 13 "+cPeer(cA, "VOTER")+" "+cPeer(cB, "VOTER")+" "+cPeer(cD, "PRE_VOTER")+" }. New config: { opid_index: 14 "+cPeer(cA, "VOTER")+" "+cPeer(cB, "VOTER")+" }"),
				"d.log": destLine("00", "Tablet deleted. Last logged OpId: 3.12") + rbsDone,
				"m.log": reportFromD("30"),
			},
			want: []string{"yb/config/orphan-replica d.log:4"},
		},
		{
			name: "one refusal is not a storm",
			logs: map[string]string{"d.log": glog("01", "tablet_service.cc:1325", "Start remote bootstrap failed: Illegal state (yb/tserver/ts_tablet_manager.cc:868): State transition of tablet "+cTab+" already in progress: remote bootstrapping tablet from peer "+cA)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var paths []string
			for name, text := range tc.logs {
				p := filepath.Join(dir, name)
				require.NoError(t, os.WriteFile(p, []byte(header+text), 0o644))
				paths = append(paths, p)
			}
			all, _ := configRun(t, paths...)
			fs := configOnly(all)
			var got []string
			for _, f := range fs {
				got = append(got, f.Rule+" "+f.Pos().Source+":"+itoa(f.Pos().Line))
			}
			assert.Equal(t, strings.Join(tc.want, "\n"), strings.Join(got, "\n"), configSummary(fs))
		})
	}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	if n == 0 {
		return "0"
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// TestConfigOrderIndependence renames each scenario's files so they sort
// the other way round: the verdicts must not depend on the names.
func TestConfigOrderIndependence(t *testing.T) {
	for _, dir := range configScenarioDirs(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			logs, err := filepath.Glob(filepath.Join(dir, "*.log"))
			require.NoError(t, err)
			base, _ := configRun(t, logs...)
			tmp := t.TempDir()
			var renamed []string
			rename := map[string]string{}
			for i, l := range logs {
				b, err := os.ReadFile(l)
				require.NoError(t, err)
				name := string(rune('z'-i)) + "-" + filepath.Base(l)
				rename[name] = filepath.Base(l)
				p := filepath.Join(tmp, name)
				require.NoError(t, os.WriteFile(p, b, 0o644))
				renamed = append(renamed, p)
			}
			other, _ := configRun(t, renamed...)
			summary := func(fs []string) string { return strings.Join(fs, "\n") }
			var a, b []string
			for _, f := range configOnly(base) {
				a = append(a, f.Rule+" "+f.Pos().Source+":"+itoa(f.Pos().Line)+" "+f.Message)
			}
			for _, f := range configOnly(other) {
				msg := f.Message
				for n, o := range rename {
					msg = strings.ReplaceAll(msg, n, o)
				}
				b = append(b, f.Rule+" "+rename[f.Pos().Source]+":"+itoa(f.Pos().Line)+" "+msg)
			}
			assert.Equal(t, summary(a), summary(b))
		})
	}
}
