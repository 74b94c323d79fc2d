package timeline_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/render/timeline"
	"github.com/logsleuth/logsleuth/rules"
)

// TestLanesNeverCollide: replicas and shard copies whose ids would have
// joined to the same string with "|" (tablet "a|b" peer "c" and tablet
// "a" peer "b|c"; index "x|1|y" shard 2 node "n" and index "x" shard 1
// node "y|2|n"), or would have sanitised to the same text, each keep a
// lane of their own, and each finding is drawn on its own subject's lane.
func TestLanesNeverCollide(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	meta := func(line int) parse.Meta {
		return parse.Meta{Pos: parse.Pos{Source: "x.log", Line: line}, Last: line, Time: at.Add(time.Duration(line) * time.Second), Timed: true, Text: fmt.Sprintf("line %d", line)}
	}
	type yb struct{ tablet, peer string }
	ybs := []yb{{"a|b", "c"}, {"a", "b|c"}, {"t\x1b", "p"}, {"t", "p"}, {"t", "p\u200b"}}
	type cp struct {
		index string
		shard int
		node  string
	}
	ess := []cp{{"x|1|y", 2, "n"}, {"x", 1, "y|2|n"}}
	var events []parse.Event
	rep := &render.Report{}
	line := 0
	for _, r := range ybs {
		line++
		events = append(events, &custom{Meta: meta(line), tablet: r.tablet, peer: r.peer})
		rep.Findings = append(rep.Findings, rules.Finding{Rule: "yb/x/y", Severity: rules.Error, Subject: rules.Subject{System: "yb", Tablet: r.tablet, Peer: r.peer},
			Message: "m", Evidence: []rules.Evidence{{Source: "x.log", Line: line, Text: "t"}}})
	}
	for _, c := range ess {
		line++
		events = append(events, &es.Op{Meta: meta(line), Where: es.Where{Node: c.node, Index: c.index, Shard: c.shard}, Op: "index", DocID: "d", SeqNo: 1, Term: 1, OpTerm: 1})
		shard := c.shard
		rep.Findings = append(rep.Findings, rules.Finding{Rule: "es/x/y", Severity: rules.Error, Subject: rules.Subject{System: "es", Index: c.index, Shard: &shard, Node: c.node},
			Message: "m", Evidence: []rules.Evidence{{Source: "x.log", Line: line, Text: "t"}}})
	}
	m := timeline.Build(events, rep)

	byID := map[string]*timeline.Lane{}
	for _, g := range m.Panes[0].Groups {
		for _, l := range g.Lanes {
			require.NotContains(t, byID, l.ID, "lane id %s given twice", l.ID)
			byID[l.ID] = l
		}
	}
	require.Len(t, byID, len(ybs)+len(ess), "one lane per replica and copy")
	var lanes []*timeline.Lane
	for _, r := range ybs {
		lanes = append(lanes, ybLane(t, m, 0, render.Sanitize(r.tablet), render.Sanitize(r.peer)))
	}
	for _, c := range ess {
		lanes = append(lanes, esLane(t, m, c.index, c.shard, c.node))
	}
	require.Len(t, m.Findings, len(lanes))
	for i, l := range lanes {
		require.Len(t, l.Marks, 1, "lane %d holds its own event only", i)
		require.Len(t, m.Findings[i].Locs, 1)
		assert.Equal(t, l.ID, m.Findings[i].Locs[0].Lane, "finding %d is drawn on its subject's lane", i)
	}
}
