package timeline_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/render/timeline"
	"github.com/logsleuth/logsleuth/rules"
)

var foldStart = time.Date(2026, 5, 6, 7, 0, 0, 0, time.UTC)

// noOp is line `line` of a tserver log, a leader's NO_OP on its own
// tablet: one line, one lane, as in a bundle of many small tablets.
func noOp(tablet int, line int) *yb.NoOp {
	t := fmt.Sprintf("%032x", tablet)
	peer := "e77d64a2cb1217b4debc456cffecc448"
	at := foldStart.Add(time.Duration(line) * time.Second)
	text := fmt.Sprintf("I0506 07:00:00.000000 69395 raft_consensus.cc:1120] T %s P %s [term 2 LEADER]: Sending NO_OP at op 2.1001", t, peer)
	return &yb.NoOp{Base: yb.Base{Meta: parse.Meta{Pos: parse.Pos{Source: "tserver.log", Line: line}, Last: line, Time: at, Timed: true, Text: text},
		Replica: yb.Replica{Tablet: t, Peer: peer, Term: 2, Role: "LEADER"}}, Op: ybval.OpID{Term: 2, Index: 1001}}
}

// oneLineLane is the event of lane i: one line of its own tablet.
func oneLineLane(i int) parse.Event { return noOp(i, i+1) }

// Past the builder's cap a lane costs its count, not its state: a lane
// built costs about 1.5 KB (its labels, its peer's term and band, its
// sampler, its line), a lane folded a few tens of bytes, so 120,000 more
// one-line lanes past the cap leave the builder holding little more.
func TestFoldedLanesHoldBoundedState(t *testing.T) {
	if testing.Short() {
		t.Skip("adds 150,000 lanes")
	}
	const cap, small, large = 1000, 30_000, 150_000
	defer timeline.SetMaxLanes(cap)()
	hs, _ := retained(small, oneLineLane)
	hl, tb := retained(large, oneLineLane)
	per := float64(int64(hl)-int64(hs)) / float64(large-small)
	t.Logf("builder heap after %d lanes: %d bytes; after %d: %d bytes; %.1f bytes per lane folded", small, hs, large, hl, per)
	if per > 128 {
		t.Errorf("each lane past the cap costs %.0f bytes of builder state, want at most 128", per)
	}
	_, lanes := timeline.HeldBands(tb)
	assert.Equal(t, cap, lanes, "lanes built")
	m := tb.Finish(&render.Report{})
	notes := strings.Join(m.Notes, ";")
	assert.Contains(t, notes, fmt.Sprintf("the page draws %d of %d lanes", countLanes(m), large))
	assert.Contains(t, notes, fmt.Sprintf("%d of the lanes not drawn (%d events) came after the first %d lanes", large-cap, large-cap, cap))
}

func countLanes(m *timeline.Model) int {
	n := 0
	for _, p := range m.Panes {
		for _, g := range p.Groups {
			n += len(g.Lanes)
		}
	}
	return n
}

// A finding on a lane past the cap is drawn: on a lane made for it, at
// its evidence lines' times, with its group's other folded lanes counted
// in summary rows (the first in the page's order while the rows last, the
// rest in the notes), whatever order the tablets came in; and the same
// input gives the same page.
func TestFindingOnFoldedLaneIsDrawn(t *testing.T) {
	const cap, n, rows = 10, 50, 15
	defer timeline.SetMaxLanes(cap)()
	defer timeline.SetBudget(timeline.MaxBytes, rows)()
	// Tablets in a scrambled order, so rows must be taken back from
	// groups folded earlier but later in the page's order.
	var events []parse.Event
	order := make([]int, n)
	for i := range order {
		order[i] = (i * 17) % n
	}
	for i, tab := range order {
		events = append(events, noOp(tab, i+1))
	}
	folded := 0 // the event of tablet 40, which came after the cap
	for order[folded] != 40 {
		folded++
	}
	require.GreaterOrEqual(t, folded, cap)
	line := n + 1
	events = append(events, noOp(40, line))
	ev := func(i int) rules.Evidence { return rules.Cite(events[i]) }
	subject := func(tab int) rules.Subject {
		e := noOp(tab, 1)
		return rules.Subject{System: "yb", Tablet: e.Tablet, Peer: e.Peer}
	}
	rep := &render.Report{Findings: []rules.Finding{
		{Rule: "yb/test/folded", Severity: rules.Error, Origin: rules.Derived, Subject: subject(40), Message: "on a folded lane",
			Evidence: []rules.Evidence{ev(folded), ev(n)}},
		{Rule: "yb/test/built", Severity: rules.Warning, Origin: rules.Derived, Subject: subject(order[3]), Message: "on a built lane",
			Evidence: []rules.Evidence{ev(3)}},
		{Rule: "yb/test/again", Severity: rules.Note, Origin: rules.Derived, Subject: subject(40), Message: "again on the folded lane",
			Evidence: []rules.Evidence{ev(n)}},
	}}
	m := timeline.Build(events, rep)
	var page bytes.Buffer
	require.NoError(t, timeline.WriteModel(&page, m))

	l := ybLane(t, m, 0, fmt.Sprintf("%032x", 40), noOp(40, 1).Peer)
	require.Len(t, m.Findings, 3)
	require.Len(t, m.Findings[2].Locs, 1, "a second finding on the lane made is drawn too")
	assert.Equal(t, l.ID, m.Findings[2].Locs[0].Lane)
	assert.Equal(t, events[n].Info().Time.UnixMicro(), m.Findings[2].Locs[0].At)
	f := m.Findings[0]
	require.Len(t, f.Locs, 1, "the finding on the folded lane is drawn")
	assert.Equal(t, l.ID, f.Locs[0].Lane)
	assert.Equal(t, events[folded].Info().Time.UnixMicro(), f.Locs[0].At, "flagged at its first evidence line")
	assert.Equal(t, events[n].Info().Time.UnixMicro(), f.Locs[0].Hi, "spanning its evidence")
	drawn := map[int]int64{}
	for _, mk := range l.Marks {
		for _, e := range mk.Ev {
			drawn[m.Lines[e].Line] = mk.At
		}
	}
	for _, i := range []int{folded, n} {
		at, ok := drawn[events[i].Info().Pos.Line]
		assert.True(t, ok, "evidence line %d drawn on the lane", events[i].Info().Pos.Line)
		assert.Equal(t, events[i].Info().Time.UnixMicro(), at)
	}
	b := ybLane(t, m, 0, fmt.Sprintf("%032x", order[3]), noOp(0, 1).Peer)
	require.Len(t, m.Findings[1].Locs, 1)
	assert.Equal(t, b.ID, m.Findings[1].Locs[0].Lane, "a finding on a built lane is drawn on it")

	// The folded groups with rows are the first in the page's order
	// among those that drew no lane, each counting its lane and event.
	var summed []string
	for _, g := range m.Panes[0].Groups {
		if len(g.Lanes) == 0 {
			require.NotNil(t, g.Sum, "group %s has neither lanes nor a summary", g.Label)
			assert.Equal(t, 1, g.Sum.Lanes)
			assert.Equal(t, 1, g.Sum.Marks)
			summed = append(summed, g.Label)
		}
	}
	var want []string
	builtTablets := map[int]bool{40: true}
	for _, tab := range order[:cap] {
		builtTablets[tab] = true
	}
	for tab := 0; tab < n && len(want) < rows-cap-1; tab++ { // the groups that drew a lane take their rows first
		if !builtTablets[tab] {
			want = append(want, fmt.Sprintf("tablet %032x", tab))
		}
	}
	assert.Equal(t, want, summed)
	notes := strings.Join(m.Notes, ";")
	left := n - cap - 1 - len(want)
	assert.Contains(t, notes, fmt.Sprintf("%d of the lanes not drawn (%d events) came after the first %d lanes", n-cap-1, n-cap-1, cap))
	assert.Contains(t, notes, "1 lane not built is drawn for the findings on them")
	assert.Contains(t, notes, fmt.Sprintf("%d more tablets or shards (%d lanes", left, left))

	again := timeline.Build(events, rep)
	var page2 bytes.Buffer
	require.NoError(t, timeline.WriteModel(&page2, again))
	assert.True(t, bytes.Equal(page.Bytes(), page2.Bytes()), "the same input gives the same page")
}

// Shard copies fold as replicas do, by shard: past the cap a new shard's
// copies are counted, a shard already built takes its other copies, and
// a finding on a folded copy is drawn on a lane made for it.
func TestFindingOnFoldedCopyIsDrawn(t *testing.T) {
	defer timeline.SetMaxLanes(2)()
	var events []parse.Event
	op := func(shard int, node string) {
		line := len(events) + 1
		m := parse.Meta{Pos: parse.Pos{Source: "es.log", Line: line}, Last: line, Time: foldStart.Add(time.Duration(line) * time.Second), Timed: true,
			Text: fmt.Sprintf("[%s] [idx][%d] index [doc-%d]", node, shard, line)}
		events = append(events, &es.Op{Meta: m, Where: es.Where{Node: node, Index: "idx", Shard: shard}, Op: "index", DocID: fmt.Sprintf("doc-%d", line), SeqNo: int64(line), Term: 1, OpTerm: 1, Done: true})
	}
	op(0, "n1")
	op(1, "n1")
	op(2, "n1") // a new shard past the cap: folded whole
	op(0, "n2") // another copy of a shard built: built
	op(2, "n2")
	op(3, "n1")
	shard := 2
	rep := &render.Report{Findings: []rules.Finding{{Rule: "es/test/folded", Severity: rules.Error, Origin: rules.Derived,
		Subject: rules.Subject{System: "es", Index: "idx", Shard: &shard, Node: "n2"}, Message: "on a folded copy",
		Evidence: []rules.Evidence{rules.Cite(events[4])}}}}
	m := timeline.Build(events, rep)
	esLane(t, m, "idx", 0, "n1")
	esLane(t, m, "idx", 0, "n2")
	esLane(t, m, "idx", 1, "n1")
	l := esLane(t, m, "idx", 2, "n2")
	require.Len(t, m.Findings[0].Locs, 1)
	assert.Equal(t, l.ID, m.Findings[0].Locs[0].Lane)
	assert.Equal(t, events[4].Info().Time.UnixMicro(), m.Findings[0].Locs[0].At)
	var shard2, shard3 *timeline.Group
	for _, g := range m.Panes[0].Groups {
		switch g.Label {
		case "shard [idx][2]":
			shard2 = g
		case "shard [idx][3]":
			shard3 = g
		}
	}
	require.NotNil(t, shard2)
	require.NotNil(t, shard2.Sum, "shard 2's other copy is summarised")
	assert.Equal(t, 1, shard2.Sum.Lanes)
	assert.Equal(t, 1, shard2.Sum.Marks)
	assert.Equal(t, events[2].Info().Time.UnixMicro(), shard2.Sum.From)
	require.NotNil(t, shard3)
	assert.Empty(t, shard3.Lanes)
	require.NotNil(t, shard3.Sum)
	assert.Equal(t, "--index idx --shard 3", shard3.Sum.Filter)
	assert.Contains(t, strings.Join(m.Notes, ";"), "2 of the lanes not drawn (2 events) came after the first 2 lanes")
}
