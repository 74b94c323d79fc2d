package timeline_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/render/timeline"
)

// laneIn finds the lane titled title in the group labelled group on pane p
// of m: lane ids are opaque, so a test names a lane as the page shows it.
func laneIn(t *testing.T, m *timeline.Model, p int, group, title string) *timeline.Lane {
	t.Helper()
	require.Greater(t, len(m.Panes), p)
	var found *timeline.Lane
	for _, g := range m.Panes[p].Groups {
		if g.Label != group {
			continue
		}
		for _, l := range g.Lanes {
			if l.Title == title {
				require.Nil(t, found, "two lanes %q in %q on pane %d", title, group, p)
				found = l
			}
		}
	}
	require.NotNil(t, found, "no lane %q in %q on pane %d", title, group, p)
	return found
}

// ybLane is the lane of a YugabyteDB replica on pane p.
func ybLane(t *testing.T, m *timeline.Model, p int, tablet, peer string) *timeline.Lane {
	t.Helper()
	return laneIn(t, m, p, "tablet "+tablet, "peer "+peer)
}

// esLane is the lane of an Elasticsearch shard copy.
func esLane(t *testing.T, m *timeline.Model, index string, shard int, node string) *timeline.Lane {
	t.Helper()
	return laneIn(t, m, 0, fmt.Sprintf("shard [%s][%d]", index, shard), "copy on node "+node)
}

func marksOf(l *timeline.Lane, kind string) []timeline.Mark {
	var out []timeline.Mark
	for _, m := range l.Marks {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

func bandsOf(l *timeline.Lane, kind string) []timeline.Band {
	var out []timeline.Band
	for _, b := range l.Bands {
		if b.Kind == kind {
			out = append(out, b)
		}
	}
	return out
}

const (
	foundingTablet = "35ef051e15e047b199c820302dc42998"
	foundingPeer   = "daf8ed30f5e54b3a9911994285a554ef"
)

// TestFoundingIncidentPicture pins what the founding incident looks like:
// on the hybrid-time pane the new op of term 17 sits below the safe time
// entry 28 published (and the bound mvcc.cc says it broke), inside entry
// 28's ht lease; both findings are flagged at that op.
func TestFoundingIncidentPicture(t *testing.T) {
	events, rep := analyze(t, seeds[0].path)
	m := timeline.Build(events, rep)
	require.Len(t, m.Panes, 2)
	assert.Equal(t, timeline.Wall, m.Panes[0].Axis)
	assert.Equal(t, timeline.Hybrid, m.Panes[1].Axis)

	h := ybLane(t, m, 1, foundingTablet, foundingPeer)
	assert.Equal(t, 33, h.Rows, "32 dump entries and the too-low op's row")
	assert.Equal(t, "mvcc-ht-too-low.log", h.Sub)

	low := marksOf(h, "op-too-low")
	require.Len(t, low, 1)
	assert.Equal(t, int64(1696696747406942), low[0].At)
	assert.Equal(t, 32, low[0].Row)

	var violated []int64
	for _, mk := range marksOf(h, "bound-violated") {
		violated = append(violated, mk.At)
		assert.Equal(t, 32, mk.Row)
	}
	assert.Equal(t, []int64{1696696747484844, 1696696747484844}, violated, "with-lease and propagated bounds")

	// Entry 28 (row 27): the propagated safe time and the ht lease the op
	// of term 17 falls in.
	var prop *timeline.Series
	for _, s := range h.Series {
		if s.Kind == "propagated" {
			prop = s
		}
	}
	require.NotNil(t, prop)
	lastProp := prop.Pts[len(prop.Pts)-1]
	assert.Equal(t, [2]int64{1696696747484844, 27}, [2]int64{lastProp[0], lastProp[1]})
	assert.Equal(t, 34, m.Lines[lastProp[2]].Line, "cites entry 28's line")
	var lease *timeline.Band
	for i, b := range h.Bands {
		if b.Row == 27 {
			lease = &h.Bands[i]
		}
	}
	require.NotNil(t, lease)
	assert.Equal(t, "ht-lease", lease.Kind)
	assert.Equal(t, int64(1696696747485783), lease.From)
	assert.Equal(t, int64(1696696748602112), lease.To)
	assert.Contains(t, lease.Text, "(term 15)", "the lease belongs to the term of the ops before it")
	// Ops: 4 added, 2 replicated, 4 aborted.
	assert.Len(t, marksOf(h, "op-pending"), 4)
	assert.Len(t, marksOf(h, "op-replicated"), 2)
	assert.Len(t, marksOf(h, "op-aborted"), 4)

	// The wall pane has the dump and the FATAL, at the FATAL line's time.
	w := ybLane(t, m, 0, foundingTablet, foundingPeer)
	at := time.Date(2023, 10, 7, 16, 39, 7, 497722000, time.UTC).UnixMicro()
	require.Len(t, marksOf(w, "dump"), 1)
	require.Len(t, marksOf(w, "assert"), 1)
	assert.Equal(t, at, marksOf(w, "assert")[0].At)

	require.Len(t, m.Findings, 2)
	for _, f := range m.Findings {
		require.Len(t, f.Locs, 2, f.Rule)
		assert.Equal(t, timeline.Loc{Pane: 0, Lane: w.ID, At: at, Lo: at, Hi: at}, f.Locs[0], f.Rule)
		assert.Equal(t, h.ID, f.Locs[1].Lane)
		assert.Equal(t, int64(1696696747406942), f.Locs[1].At, f.Rule)
		assert.Equal(t, 32, f.Locs[1].Row)
	}
	// Selecting the safe-time finding zooms to span the op and the bound.
	f := m.Findings[1]
	assert.Equal(t, "yb/mvcc/ht-below-safe-time", f.Rule)
	assert.Equal(t, int64(1696696747406942), f.Locs[1].Lo)
	assert.Equal(t, int64(1696696747484844), f.Locs[1].Hi)
	assert.Equal(t, map[string]int{"error": 2}, m.Counts)
}

// TestRaftSeedPicture pins the Raft seed's story on the wall pane: ts-1
// leads term 1 and keeps its lease until 16:39:06.9; ts-3 leads term 3
// from 16:39:05.66 and revokes ts-2's lease at 16:39:05.72, while ts-1's
// still runs; the early-revocation finding is flagged at the revocation.
func TestRaftSeedPicture(t *testing.T) {
	events, rep := analyze(t, seeds[1].path)
	m := timeline.Build(events, rep)
	const tablet = "7c1e0a5b3f9d4e2a8b6c5d4e3f2a1b0c"
	us := func(s string) int64 {
		tm, err := time.Parse("15:04:05.000000", s)
		require.NoError(t, err)
		return time.Date(2023, 10, 7, tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC).UnixMicro()
	}
	ts1 := ybLane(t, m, 0, tablet, "1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b")
	ts2 := ybLane(t, m, 0, tablet, "2a4c6e8f0b1d4f3a5c7e9a0b2d4f6a8c")
	ts3 := ybLane(t, m, 0, tablet, "3b5d7f9a1c3e4a6b8d0f2a4c6e8a0c2e")
	assert.Equal(t, "ts-1.log", ts1.Sub)

	lead := func(l *timeline.Lane) []string {
		var out []string
		for _, b := range bandsOf(l, "leader") {
			out = append(out, fmt.Sprintf("%s %s..%s", b.Text, time.UnixMicro(b.From).UTC().Format("05.000000"), time.UnixMicro(b.To).UTC().Format("05.000000")))
		}
		return out
	}
	assert.Equal(t, []string{"term 1 LEADER 00.105000..07.500000"}, lead(ts1))
	assert.Equal(t, []string{"term 2 LEADER 05.220000..05.650000"}, lead(ts2))
	assert.Equal(t, []string{"term 3 LEADER 05.660000..07.600000"}, lead(ts3))

	own := bandsOf(ts1, "lease")
	require.Len(t, own, 1)
	assert.Equal(t, us("16:39:06.900200"), own[0].To, "reset 0.6 s after it ran out")
	rev := bandsOf(ts2, "lease-revoked")
	require.Len(t, rev, 1)
	assert.Equal(t, us("16:39:05.720000"), rev[0].From)
	assert.Equal(t, us("16:39:07.600000"), rev[0].To, "1.880 s left")
	require.Len(t, marksOf(ts3, "revoke"), 2, "lease and ht lease")

	var early *timeline.Finding
	for _, f := range m.Findings {
		if f.Rule == "yb/lease/early-revocation" {
			early = f
		}
	}
	if early == nil {
		t.Skip("the Raft pack in this tree has no yb/lease/early-revocation yet")
	}
	require.NotEmpty(t, early.Locs)
	assert.Equal(t, ts3.ID, early.Locs[0].Lane)
	assert.Equal(t, us("16:39:05.720000"), early.Locs[0].At)
}

// custom is an event type the timeline has never heard of.
type custom struct {
	parse.Meta
	tablet, peer string
}

func (*custom) Kind() string                          { return "yb.brand-new" }
func (c *custom) Subject() (tablet, peer string)      { return c.tablet, c.peer }
func (*shardy) Kind() string                          { return "xx.shard-thing" }
func (s *shardy) ShardSubject() (string, int, string) { return "idx", 3, "node-a" }
func (*orphan) Kind() string                          { return "xx.orphan" }

type shardy struct{ parse.Meta }
type orphan struct{ parse.Meta }

// TestUnknownEventsGetAMark: an event type added after this package still
// shows, as a generic mark on its subject's lane, or on its source's lane
// when it names no subject, so new parsers never break the page.
func TestUnknownEventsGetAMark(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	meta := func(line int) parse.Meta {
		return parse.Meta{Pos: parse.Pos{Source: "x.log", Line: line}, Last: line, Time: at, Timed: true, Text: fmt.Sprintf("line %d", line)}
	}
	events := []parse.Event{
		&custom{Meta: meta(1), tablet: "tab", peer: "peer"},
		&shardy{Meta: meta(2)},
		&orphan{Meta: meta(3)},
	}
	m := timeline.Build(events, &render.Report{})
	for _, c := range []struct {
		lane *timeline.Lane
		kind string
	}{
		{ybLane(t, m, 0, "tab", "peer"), "yb.brand-new"},
		{esLane(t, m, "idx", 3, "node-a"), "xx.shard-thing"},
		{laneIn(t, m, 0, "Events that name no tablet or shard", "events of x.log that name no tablet or shard"), "xx.orphan"},
	} {
		l := c.lane
		require.Len(t, l.Marks, 1, c.kind)
		assert.Equal(t, "event", l.Marks[0].Kind)
		assert.Equal(t, c.kind, l.Marks[0].Text)
		assert.Equal(t, at.UnixMicro(), l.Marks[0].At)
	}
	assert.Len(t, m.Panes, 1, "no hybrid-time pane without MVCC data")
	assert.NotEmpty(t, m.Notes)
}

// TestUntimedLogsUseEventOrder: a pasted excerpt with no wall times gets
// an event-order axis, labelled as such, not a 1970 clock.
func TestUntimedLogsUseEventOrder(t *testing.T) {
	var events []parse.Event
	for i := 1; i <= 3; i++ {
		events = append(events, &custom{Meta: parse.Meta{Pos: parse.Pos{Source: "p.txt", Line: i}, Last: i, Text: "x"}, tablet: "t", peer: "p"})
	}
	m := timeline.Build(events, &render.Report{})
	assert.Equal(t, timeline.Order, m.Panes[0].Axis)
	l := ybLane(t, m, 0, "t", "p")
	require.Len(t, l.Marks, 3)
	assert.Equal(t, []int64{0, 1_000_000, 2_000_000}, []int64{l.Marks[0].At, l.Marks[1].At, l.Marks[2].At})
}

// manyPeers makes a run of one tablet with n peers, each logging k votes
// and term changes a millisecond apart, for the scale test.
func manyPeers(n, k int) ([]parse.Event, *render.Report) {
	start := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	var events []parse.Event
	line := 0
	for i := 0; i < k; i++ {
		for p := 0; p < n; p++ {
			line++
			peer := fmt.Sprintf("%08x%024x", p, 0)
			base := yb.Base{
				Meta:    parse.Meta{Pos: parse.Pos{Source: "big.log", Line: line}, Last: line, Time: start.Add(time.Duration(i*n+p) * time.Millisecond), Timed: true, Text: fmt.Sprintf("vote %d from %s", i, peer)},
				Replica: yb.Replica{Tablet: "big", Peer: peer, Term: int64(i/10 + 1), Role: "FOLLOWER"},
			}
			events = append(events, &yb.Vote{Base: base, Granted: i%3 != 0, Candidate: "c", Term: int64(i/10 + 1)})
		}
	}
	return events, &render.Report{}
}

// BenchmarkBuildAndWrite measures a page of 400 peers and 40,000 events,
// the scale the browser test draws.
func BenchmarkBuildAndWrite(b *testing.B) {
	events, rep := manyPeers(400, 100)
	b.ReportAllocs()
	for b.Loop() {
		var buf bytes.Buffer
		if err := timeline.Write(&buf, events, rep); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(buf.Len()))
	}
}

// TestESSeedPicture pins the Elasticsearch seed: the two network
// disruptions shade the pane; node_t1's two peer recoveries are bands
// from "preparing" to "recovery done" that carry the ranges the primary
// sent; the global checkpoint it reached is a step line; and the unsafe
// safe commit is flagged on node_t1's lane at the second recovery's
// commit diagnostic.
func TestESSeedPicture(t *testing.T) {
	events, rep := analyze(t, seeds[2].path)
	m := timeline.Build(events, rep)
	at := func(s string) int64 {
		tm, err := time.Parse("2006-01-02T15:04:05.000", s)
		require.NoError(t, err)
		return tm.UnixMicro()
	}
	var spans [][2]int64
	for _, s := range m.Panes[0].Spans {
		assert.Equal(t, "disruption", s.Kind)
		spans = append(spans, [2]int64{s.From, s.To})
	}
	assert.Equal(t, [][2]int64{
		{at("2018-01-27T10:58:14.151"), at("2018-01-27T10:58:24.600")},
		{at("2018-01-27T10:58:28.400"), at("2018-01-27T10:58:32.700")},
	}, spans)

	t1 := esLane(t, m, "test", 1, "node_t1")
	rec := bandsOf(t1, "recovery")
	require.Len(t, rec, 2)
	assert.Equal(t, [2]int64{at("2018-01-27T10:58:25.060"), at("2018-01-27T10:58:25.092")}, [2]int64{rec[0].From, rec[0].To})
	assert.Equal(t, [2]int64{at("2018-01-27T10:58:33.085"), at("2018-01-27T10:58:33.110")}, [2]int64{rec[1].From, rec[1].To})
	assert.False(t, rec[0].Open)
	assert.Contains(t, rec[0].Text, "required [0:3]")
	assert.Contains(t, rec[1].Text, "required [3:4]")

	var gcp *timeline.Series
	for _, s := range t1.Series {
		if s.Kind == "gcp" {
			gcp = s
		}
	}
	require.NotNil(t, gcp)
	assert.Equal(t, int64(3), gcp.Pts[len(gcp.Pts)-1][1])

	var unsafe *timeline.Finding
	for _, f := range m.Findings {
		if f.Rule == "es/recovery/unsafe-safe-commit" {
			unsafe = f
		}
	}
	require.NotNil(t, unsafe)
	require.NotEmpty(t, unsafe.Locs)
	assert.Equal(t, t1.ID, unsafe.Locs[0].Lane)
	assert.Equal(t, at("2018-01-27T10:58:33.091"), unsafe.Locs[0].At)
}

// TestConfigRacePicture pins the config race scenario: the new replica
// d9e8f7a6 is a PRE_VOTER from the ADD_SERVER commit until the
// REMOVE_SERVER commit, while its remote bootstrap session (one band, for
// the source's and the destination's lines alike) runs on past its removal:
// the orphan the finding names, flagged on its lane.
func TestConfigRacePicture(t *testing.T) {
	events, rep := analyze(t, "../../testdata/yb/config/race")
	m := timeline.Build(events, rep)
	const tablet = "6f0e2c1ad4b84e5f9a7c3b2d1e0f4a58"
	d := ybLane(t, m, 0, tablet, "d9e8f7a6b5c44d3e2f1a0b9c8d7e6f50")
	member := bandsOf(d, "member-pre_voter")
	require.Len(t, member, 1)
	rbs := bandsOf(d, "rbs")
	require.Len(t, rbs, 1, "one session")
	assert.False(t, member[0].Open, "removed")
	assert.Less(t, member[0].To, rbs[0].To, "the session outlives the membership")
	assert.Less(t, rbs[0].From, member[0].To)
	assert.Contains(t, rbs[0].Text, "3f1c0a9b")

	leader := ybLane(t, m, 0, tablet, "3f1c0a9b5e7d4c2a8b6e0f1d2c3b4a59")
	require.Len(t, bandsOf(leader, "config-pending"), 2, "ADD_SERVER, then REMOVE_SERVER")
	voter := bandsOf(leader, "member-voter")
	require.Len(t, voter, 1)
	assert.Equal(t, m.Panes[0].Min, voter[0].From, "a member before the logs start is drawn from the start")

	require.NotEmpty(t, m.Findings)
	assert.Equal(t, d.ID, m.Findings[0].Locs[0].Lane)
}

// The source's ChangeRole after a copy is drawn on the session's band
// without reopening it; a failed one is flagged.
func TestRBSChangeRoleKeepsTheSessionClosed(t *testing.T) {
	const (
		tab = "6f0e2c1ad4b84e5f9a7c3b2d1e0f4a58"
		src = "3f1c0a9b5e7d4c2a8b6e0f1d2c3b4a59"
		dst = "d9e8f7a6b5c44d3e2f1a0b9c8d7e6f50"
	)
	log := "I0310 10:00:01.000000  7301 ts_tablet_manager.cc:1480] T " + tab + " P " + dst + ":  Initiating RemoteBootstrap from Peer " + src + " (10.0.0.1:9100)\n" +
		"I0310 10:00:09.000000  7301 ts_tablet_manager.cc:1577] T " + tab + " P " + dst + ": Remote bootstrap for tablet ended successfully\n" +
		"W0310 10:00:09.200000  5102 remote_bootstrap_service.cc:334] ChangeRole failed for bootstrap session " + dst + "-" + tab + "-1, error : Illegal state: Leader is not ready for Config Change, can try again.\n"
	res, err := parse.Scan(bytes.NewReader([]byte(log)), "r.log", []parse.System{yb.System}, parse.Options{Year: 2026})
	require.NoError(t, err)
	m := timeline.Build(res.Events, &render.Report{})
	var found bool
	for _, g := range m.Panes[0].Groups {
		for _, l := range g.Lanes {
			rbs := bandsOf(l, "rbs")
			if len(rbs) == 0 {
				continue
			}
			found = true
			require.Len(t, rbs, 1, "one session")
			assert.False(t, rbs[0].Open, "ended by the destination's line, not reopened")
			assert.Len(t, rbs[0].Ev, 3, "all three lines on the band")
			warn := marksOf(l, "warn")
			require.Len(t, warn, 1)
			assert.Contains(t, warn[0].Text, "ChangeRole failed")
		}
	}
	assert.True(t, found, "a session band")
}
