package yb_test

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

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// rewriting reports whether -rewrite was given. The flag is
// cockroachdb/datadriven's when that package is linked into the test binary
// (it defines -rewrite itself), else ours.
func rewriting() bool {
	f := flag.Lookup("rewrite")
	return f != nil && f.Value.String() == "true"
}

func init() {
	if flag.Lookup("rewrite") == nil {
		flag.Bool("rewrite", false, "rewrite the golden files under testdata/yb/config")
	}
}

const configTestdata = "../../testdata/yb/config"

// short keeps the first 8 characters of a uuid, so golden lines stay
// readable; the full ids are in the logs beside them.
func short(u string) string {
	if len(u) > 8 {
		return u[:8]
	}
	if u == "" {
		return "-"
	}
	return u
}

func peers(c yb.RaftConfig) string {
	var b strings.Builder
	fmt.Fprintf(&b, "idx=%d [", c.Index)
	for i, p := range c.Peers {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(short(p.UUID) + ":" + p.MemberType)
	}
	b.WriteString("]")
	if c.Cut {
		b.WriteString(" cut")
	}
	return b.String()
}

// describeEvent prints one config event on one line, for golden files.
func describeEvent(e parse.Event) string {
	ye, ok := e.(yb.ConfigEvent)
	if !ok {
		return ""
	}
	r := ye.Rep()
	loc := ye.LocalInfo()
	head := fmt.Sprintf("%s:%d %s T=%s P=%s self=%s", filepath.Base(e.Info().Pos.Source), e.Info().Pos.Line, e.Kind(), short(r.Tablet), short(r.Peer), short(loc.Self))
	if loc.Partial {
		head += " partial"
	}
	var body string
	switch ev := e.(type) {
	case *yb.ConfigRequest:
		body = fmt.Sprintf("type=%s server=%s member=%s cas=%d", ev.Type, short(ev.Server), ev.MemberType, ev.CasIndex)
	case *yb.ConfigPending:
		body = fmt.Sprintf("type=%s config=%s", ev.Type, peers(ev.Config))
	case *yb.ConfigCommit:
		body = fmt.Sprintf("op=%s ignored=%v old=%s new=%s", ev.Op, ev.Ignored, peers(ev.Old), peers(ev.New))
	case *yb.ConfigAbort:
		body = fmt.Sprintf("op=%s status=%q", ev.Op, ev.Status)
	case *yb.PeerEvicted:
		body = fmt.Sprintf("leader=%s index=%d why=%s seconds=%g", short(ev.Leader), ev.CommitIndex, ev.Why, ev.Seconds)
	case *yb.PeerNeedsRBS:
		body = fmt.Sprintf("leader=%s", short(ev.Leader))
	case *yb.MasterChangeConfig:
		body = fmt.Sprintf("leader=%s type=%s ok=%v final=%v", short(ev.Leader), ev.Type, ev.OK, ev.Final)
	case *yb.TabletReport:
		body = fmt.Sprintf("reporter=%s term=%d leader=%s config=%s", short(ev.Reporter), ev.Term, short(ev.LeaderUUID), peers(ev.Config))
	case *yb.DeleteTablet:
		body = fmt.Sprintf("type=%s reason_index=%d from=%s reason=%q", ev.DeleteType, ev.ReasonIndex, ev.From, ev.Reason)
	case *yb.TabletDataDeleted:
		body = fmt.Sprintf("state=%s done=%v startup=%v", ev.State, ev.Done, ev.Startup)
	case *yb.MasterDelete:
		body = fmt.Sprintf("outcome=%s final=%v", ev.Outcome, ev.Final)
	case *yb.RBS:
		body = fmt.Sprintf("phase=%s source_side=%v other=%s", ev.Phase, ev.SourceSide, short(ev.Other))
	case *yb.RBSBusy:
		body = fmt.Sprintf("from=%s asker=%s", short(ev.From), short(ev.Asker))
	case *yb.TabletStateChange:
		body = fmt.Sprintf("%s -> %s", ev.From, ev.To)
	}
	return head + " " + body
}

func scanFile(t testing.TB, path string) *parse.Result {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	res, err := parse.Scan(f, path, []parse.System{yb.System}, parse.Options{})
	require.NoError(t, err)
	return res
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if rewriting() {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test -rewrite")
	assert.Equal(t, string(want), got)
}

// TestConfigEventsGolden reads every scenario's logs and compares the
// config events and diagnostics with events.golden beside them.
func TestConfigEventsGolden(t *testing.T) {
	dirs := scenarioDirs(t)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			logs, err := filepath.Glob(filepath.Join(dir, "*.log"))
			require.NoError(t, err)
			sort.Strings(logs)
			var b strings.Builder
			for _, l := range logs {
				res := scanFile(t, l)
				for _, e := range res.Events {
					if s := describeEvent(e); s != "" {
						b.WriteString(s + "\n")
					}
				}
				for _, d := range res.Diags {
					fmt.Fprintf(&b, "diag %s:%d %s\n", filepath.Base(d.Pos.Source), d.Pos.Line, d.Message)
				}
				assert.Zero(t, res.Stats.Unclaimed, "%s: every line of the scenario is a config line or a header", l)
			}
			golden(t, dir+".events.golden", b.String())
		})
	}
}

// TestConfigLines reads single lines in the wordings the corpus and the
// format notes give, including cut and prefix-less ones.
func TestConfigLines(t *testing.T) {
	const (
		tab = "6f0e2c1ad4b84e5f9a7c3b2d1e0f4a58"
		a   = "3f1c0a9b5e7d4c2a8b6e0f1d2c3b4a59"
		d   = "d9e8f7a6b5c44d3e2f1a0b9c8d7e6f50"
	)
	for _, tc := range []struct {
		name, line, want string
		diags            int
	}{
		{
			name: "corpus 25: master delete given up, no envelope",
			line: "DeleteTablet RPC for tablet 000643ea42664910930985d197f80bb0 (transactions [id=cede99fdfaa34f75bcf702d1bd5c6248]) on TS=403614a2c4914714a6b73df59edeaaec (task=0x00005633fddf1c18, state=kRunning): TS 403614a2c4914714a6b73df59edeaaec: delete failed for tablet 000643ea42664910930985d197f80bb0. TS is DEAD. No further retry.",
			want: "t.log:1 yb.master-delete T=000643ea P=403614a2 self=- outcome=ts-dead final=true",
		},
		{
			name: "corpus 21: tserver DeleteTablet names the peer in its reason",
			line: "I0503 18:19:21.969815 27912 tablet_service.cc:638] Processing DeleteTablet for tablet 56f8818e09994135824932993816a507 with delete_type TABLET_DATA_TOMBSTONED (TS 392553cb3b6a4601b9f2b9042bdfc233 not found in new config with opid_index 1347956) from 10.150.0.255:38613",
			want: `t.log:1 yb.delete-tablet T=56f8818e P=392553cb self=- type=TABLET_DATA_TOMBSTONED reason_index=1347956 from=10.150.0.255:38613 reason="TS 392553cb3b6a4601b9f2b9042bdfc233 not found in new config with opid_index 1347956"`,
		},
		{
			name: "corpus 22: destination refusing a second RBS, no prefix",
			line: "W0523 08:22:44.397490 130937 tablet_service.cc:1325] Start remote bootstrap failed: Illegal state (yb/tserver/ts_tablet_manager.cc:868): State transition of tablet cf63aaca47a940eca865ad29751b3417 already in progress: remote bootstrapping tablet from peer 5ea77fe2333046f39cd21282dff2dec1",
			want: "t.log:1 yb.rbs-busy T=cf63aaca P=- self=- from=5ea77fe2 asker=-",
		},
		{
			name: "corpus 22: the leader's side names the refusing peer after the arrow",
			line: `W0523 08:22:44.401643 109745 consensus_peers.cc:354] T 81d707c679ce42358c919bcad437c704 P becaec012be94318a8ad7caba7a1692a -> Peer 224e25a4d011423d93a468396029b563 (10.147.165.41:9100): Unable to begin remote bootstrap on peer: error { code: UNKNOWN_ERROR status { code: ILLEGAL_STATE message: "State transition of tablet 81d707c679ce42358c919bcad437c704 already in progress: remote bootstrapping tablet from peer becaec012be94318a8ad7caba7a1692a" } }`,
			want: "t.log:1 yb.rbs-busy T=81d707c6 P=224e25a4 self=becaec01 from=becaec01 asker=becaec01",
		},
		{
			name:  "commit cut inside the new config",
			line:  "I0310 10:00:00.451002  4420 replica_state.cc:731] T " + tab + " P " + a + ` [term 3 LEADER]: Committing config change with OpId 3.13. Old config: { opid_index: 12 peers { permanent_uuid: "` + a + `" member_type: VOTER } }. New config: { opid_index: 13 peers { permanent_uuid: "` + a + `" member_type: VOTER } peers { permanent_uuid: "` + d + `" member_ty`,
			want:  "t.log:1 yb.config-commit T=6f0e2c1a P=3f1c0a9b self=3f1c0a9b partial op=3.13 ignored=false old=idx=12 [3f1c0a9b:VOTER] new=idx=13 [3f1c0a9b:VOTER d9e8f7a6:] cut",
			diags: 1,
		},
		{
			name:  "pending config cut before its type",
			line:  "I0310 10:00:00.201456  4411 raft_consensus.cc:3412] T " + tab + " P " + a + ` [term 3 LEADER]: Setting replicate pending config peers { permanent_uuid: "` + a + `" member_type: VOTER } peers { permanent_uuid: "` + d + `" member_type: PRE_VOTER } peers { permanent_uuid: "8e2d`,
			want:  "t.log:1 yb.config-pending T=6f0e2c1a P=3f1c0a9b self=3f1c0a9b partial type= config=idx=-1 [3f1c0a9b:VOTER d9e8f7a6:PRE_VOTER] cut",
			diags: 1,
		},
		{
			name: "old OpIdPB op id in a commit",
			line: "I0310 10:00:00.451002  4420 replica_state.cc:731] T " + tab + " P " + a + ` [term 3 FOLLOWER]: Committing config change with OpId term: 3 index: 13. Old config: { opid_index: 12 }. New config: { opid_index: 13 peers { permanent_uuid: "` + d + `" member_type: PRE_VOTER } }`,
			want: "t.log:1 yb.config-commit T=6f0e2c1a P=3f1c0a9b self=3f1c0a9b op=3.13 ignored=false old=idx=12 [] new=idx=13 [d9e8f7a6:PRE_VOTER]",
		},
		{
			name: "change config aborted",
			line: "I0310 10:00:02.000001  4420 raft_consensus.cc:3573] T " + tab + " P " + a + " [term 4 FOLLOWER]: CHANGE_CONFIG_OP [3.13] replication failed: Aborted (yb/consensus/replica_state.cc:1207): Op aborted by new leader",
			want: `t.log:1 yb.config-abort T=6f0e2c1a P=3f1c0a9b self=3f1c0a9b op=3.13 status="Aborted (yb/consensus/replica_state.cc:1207): Op aborted by new leader"`,
		},
		{
			name: "eviction of an unreachable follower",
			line: "I0310 10:05:00.000001  4431 consensus_queue.cc:1213] T " + tab + " P " + a + " [LEADER]: Attempting to remove follower " + d + " from the Raft config at commit index 14. Reason: Leader has been unable to successfully communicate with Peer " + d + " for more than 900 seconds (900.123s)",
			want: "t.log:1 yb.peer-evicted T=6f0e2c1a P=d9e8f7a6 self=3f1c0a9b leader=3f1c0a9b index=14 why=unreachable seconds=900",
		},
		{
			name: "master gives up a ChangeConfig",
			line: "W0310 10:00:03.000001  2230 async_rpc_tasks.cc:1128] RemoveServer ChangeConfig RPC for tablet " + tab + " (ysql.yugabyte.orders [id=000033e8000030008000000000004000]) on peer " + a + " with cas_config_opid_index 13. Reason: x (task=0x1, state=kRunning): ChangeConfig() failed on leader " + a + ". No further retry: Illegal state (yb/consensus/raft_consensus.cc:2011): Request specified cas_config_opid_index of 13 but the committed config has opid_index of 14",
			want: "t.log:1 yb.master-change-config T=6f0e2c1a P=- self=- leader=3f1c0a9b type=REMOVE_SERVER ok=false final=true",
		},
		{
			name: "report with the reporter appended",
			line: "I0310 10:00:05.000001  2240 master_heartbeat_service.cc:901] Tablet: " + tab + ` reported consensus state change. New consensus state: current_term: 3 leader_uuid: "` + a + `" config { opid_index: 14 peers { permanent_uuid: "` + a + `" member_type: VOTER } } from ` + a,
			want: "t.log:1 yb.tablet-report T=6f0e2c1a P=3f1c0a9b self=- reporter=3f1c0a9b term=3 leader=3f1c0a9b config=idx=14 [3f1c0a9b:VOTER]",
		},
		{
			name: "RBS source session expired",
			line: "I0310 10:30:00.000001  5102 remote_bootstrap_service.cc:455] Remote bootstrap session " + d + "-" + tab + "-1773136801104 has expired. Terminating session.",
			want: "t.log:1 yb.rbs T=6f0e2c1a P=d9e8f7a6 self=- phase=expired source_side=true other=-",
		},
		{
			name: "RBS source: ChangeRole failed after the copy",
			line: "W0310 10:30:00.000001  5102 remote_bootstrap_service.cc:334] ChangeRole failed for bootstrap session " + d + "-" + tab + "-1773136801104, error : Illegal state (yb/consensus/raft_consensus.cc:2011): Leader is not ready for Config Change, can try again.",
			want: "t.log:1 yb.rbs T=6f0e2c1a P=d9e8f7a6 self=- phase=role-failed source_side=true other=-",
		},
		{
			name: "successfully done under another task is not a delete",
			line: "I0310 10:30:00.000001  2251 async_rpc_tasks.cc:380] PrepareDeleteTransactionTablet RPC for tablet " + tab + " (t) on TS=" + d + " (task=0x1, state=kRunning): TS " + d + ": tablet " + tab + " (table t) successfully done",
			want: "",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := parse.Scan(strings.NewReader(tc.line+"\n"), "t.log", []parse.System{yb.System}, parse.Options{Year: 2026})
			require.NoError(t, err)
			var got []string
			for _, e := range res.Events {
				got = append(got, describeEvent(e))
			}
			assert.Equal(t, tc.want, strings.Join(got, "\n"))
			assert.Len(t, res.Diags, tc.diags, "%v", res.Diags)
		})
	}
}

func TestLogMatchingLag(t *testing.T) {
	// Corpus 21, line 2: a LEARNER 10624 ops behind its leader.
	const line = "Refusing update from remote peer 2b45a794d9104d6d9be695ad4219fba6: Log matching property violated. Preceding OpId in replica: term: 11 index: 1337331. Preceding OpId from leader: term: 11 index: 1347955. (index mismatch)"
	leader, mine, leaders, ok := yb.LogMatchingLag(line)
	require.True(t, ok)
	assert.Equal(t, "2b45a794d9104d6d9be695ad4219fba6", leader)
	assert.Equal(t, "11.1337331", mine.String())
	assert.Equal(t, "11.1347955", leaders.String())
	_, _, _, ok = yb.LogMatchingLag("Refusing update from remote peer x: Log matching property violated. Preceding OpId in replica: term: 11 ind")
	assert.False(t, ok)
}

// scenarioDirs lists the scenario directories under testdata/yb/config;
// their goldens sit beside them (race.events.golden), so that `logsleuth
// analyze testdata/yb/config/race` reads only the logs.
func scenarioDirs(t *testing.T) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(configTestdata, "*"))
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

func TestJoinConfigText(t *testing.T) {
	for _, tc := range []struct{ head, tail, want string }{
		{`peers { permanent_uuid: "d9e8f7a6b5c4`, `4d3e2f1a0b9c8d7e6f50" member_type: VOTER }`, `peers { permanent_uuid: "d9e8f7a6b5c44d3e2f1a0b9c8d7e6f50" member_type: VOTER }`},
		{`peers { permanent_uuid: "a" member_ty`, `pe: PRE_VOTER }`, `peers { permanent_uuid: "a" member_type: PRE_VOTER }`},
		{`member_type: VOTER`, `last_known_private_addr { host: "h" }`, `member_type: VOTER last_known_private_addr { host: "h" }`},
		{`member_type: VOTER `, `  last_known_private_addr {`, `member_type: VOTER last_known_private_addr {`},
		{`{ opid_index: 13`, `47956 peers {`, `{ opid_index: 1347956 peers {`},
		{`{ opid_index: 13 }`, `peers {`, `{ opid_index: 13 } peers {`},
		{`member_type: PRE_`, `VOTER }`, `member_type: PRE_VOTER }`},
	} {
		assert.Equal(t, tc.want, yb.JoinConfigText(tc.head, tc.tail), "%q + %q", tc.head, tc.tail)
	}
}

// An excerpt that wrapped a config line is read as the one line it was,
// whichever way the wrap fell; a cut one still says so.
func TestWrappedConfigLine(t *testing.T) {
	const (
		tab = "6f0e2c1ad4b84e5f9a7c3b2d1e0f4a58"
		a   = "3f1c0a9b5e7d4c2a8b6e0f1d2c3b4a59"
		d   = "d9e8f7a6b5c44d3e2f1a0b9c8d7e6f50"
	)
	head := "I0310 10:00:00.451002  4420 replica_state.cc:731] T " + tab + " P " + a + ` [term 3 LEADER]: Committing config change with OpId 3.13. Old config: { opid_index: 12 peers { permanent_uuid: "` + a + `" member_type: VOTER } }. New config: { opid_index: 13 peers { permanent_uuid: "` + a + `" member_type: VOTER } peers { permanent_uuid: "` + d[:10]
	rest := d[10:] + `" member_ty` + "\n" + `  pe: PRE_VOTER } }` + "\n"
	next := "I0310 10:00:01.000000  4420 raft_consensus.cc:900] T " + tab + " P " + a + " [term 3 LEADER]: Becoming Leader. State: Replica: " + a + "\n"
	res, err := parse.Scan(strings.NewReader(head+"\n"+rest+next), "t.log", []parse.System{yb.System}, parse.Options{Year: 2026})
	require.NoError(t, err)
	assert.Empty(t, res.Diags)
	require.Len(t, res.Events, 2)
	assert.Equal(t, "t.log:1 yb.config-commit T=6f0e2c1a P=3f1c0a9b self=3f1c0a9b op=3.13 ignored=false old=idx=12 [3f1c0a9b:VOTER] new=idx=13 [3f1c0a9b:VOTER d9e8f7a6:PRE_VOTER]", describeEvent(res.Events[0]))
	assert.Equal(t, 3, res.Events[0].Info().Last, "the event spans the wrapped lines")
	assert.Equal(t, 4, res.Events[1].Info().Pos.Line, "the next message is read as before")
	assert.Equal(t, 4, res.Stats.Claimed)

	// Cut, not wrapped: the next line is a new message.
	res, err = parse.Scan(strings.NewReader(head+"\n"+next), "t.log", []parse.System{yb.System}, parse.Options{Year: 2026})
	require.NoError(t, err)
	require.Len(t, res.Events, 2)
	assert.Contains(t, describeEvent(res.Events[0]), " partial ")
	assert.Equal(t, 1, res.Events[0].Info().Last)
	require.Len(t, res.Diags, 1)
	assert.Contains(t, res.Diags[0].String(), "t.log:1: config commit")

	// Wrapped, and the excerpt ends before the config closes.
	res, err = parse.Scan(strings.NewReader(head+"\n"+d[10:]+`" member_type: PRE_VOTER }`+"\n"), "t.log", []parse.System{yb.System}, parse.Options{Year: 2026})
	require.NoError(t, err)
	require.Len(t, res.Events, 1)
	assert.Contains(t, describeEvent(res.Events[0]), "d9e8f7a6:PRE_VOTER] cut")
	assert.Equal(t, 2, res.Events[0].Info().Last)
}
