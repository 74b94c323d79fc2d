package timeline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/logsleuth/logsleuth/grammar/esval"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
)

// esLaneKey names a shard copy's lane.
func esLaneKey(index string, shard int, node string) laneKey {
	return laneKey{groupKey{sys: sysES, name: index, shard: shard}, node}
}

// esCopy is one shard copy's building state.
type esCopy struct {
	lane *Lane
	// term is the open primary-term band, -1 when none.
	term    int
	termVal int64
	// recovery is the open recovery band, -1 when none.
	recovery int
	// maxSeq is the highest seq# this copy applied, for the max_seq_no
	// step line.
	maxSeq int64

	lcp, gcp, max *Series
}

type esBuilder struct {
	b      *builder
	copies map[laneKey]*esCopy
	// nodeName maps node ids (routing tables print ids) to names (log
	// lines print names), from the cluster state's node rows.
	nodeName map[string]string
	// nodeID maps a node name to the id its last node line gave it: a
	// line that gives a name a second id is drawn, since replay keeps the
	// two ids' copies apart.
	nodeID     map[string]string
	reuseDrawn parse.Event
	// aidNode maps allocation ids to node names, from routing rows.
	aidNode map[string]string
	// span is the open disruption span in the wall pane, -1 when none.
	span int
}

func newESBuilder(b *builder) *esBuilder {
	return &esBuilder{b: b, copies: map[laneKey]*esCopy{}, nodeName: map[string]string{}, nodeID: map[string]string{}, aidNode: map[string]string{}, span: -1}
}

// copyOf returns the building state of a shard copy, creating its lane;
// nil when the lane is folded (fold.go).
func (x *esBuilder) copyOf(index string, shard int, node string) *esCopy {
	if index == "" {
		shard = -1 // one group for lines that name no shard
	}
	k := esLaneKey(index, shard, node)
	if c := x.copies[k]; c != nil {
		return c
	}
	if !x.b.admit(k) {
		return nil
	}
	gl := esGroupLabel(index, shard)
	label := node
	if label == "" {
		label = "node ?"
	}
	l := x.b.wall.lane(k, gl, clip(label, 24), "copy on node "+node)
	c := &esCopy{
		lane:     l,
		term:     -1,
		termVal:  -1,
		recovery: -1,
		maxSeq:   -1,
		lcp:      x.b.newSeries(l, "local checkpoint", "lcp"),
		gcp:      x.b.newSeries(l, "global checkpoint", "gcp"),
		max:      x.b.newSeries(l, "max_seq_no", "max-seq"),
	}
	x.copies[k] = c
	return c
}

// lane is a copy's lane, for events this file does not know; nil when it
// is folded.
func (x *esBuilder) lane(index string, shard int, node string) *Lane {
	if c := x.copyOf(index, shard, node); c != nil {
		return c.lane
	}
	return nil
}

// esGroupLabel is the label of a shard's group.
func esGroupLabel(index string, shard int) string {
	if index == "" {
		return "lines that name no shard"
	}
	return fmt.Sprintf("shard [%s][%d]", index, shard)
}

// copyKey is the lane key of a copy, as copyOf names it.
func copyKey(index string, shard int, node string) laneKey {
	if index == "" {
		shard = -1
	}
	return esLaneKey(index, shard, node)
}

// where returns the copy an Elasticsearch event speaks of. Each event type
// embeds es.Where; a type added later that implements ShardSubject works
// too, and one that does neither gets a generic mark.
func where(e parse.Event) (es.Where, bool) {
	switch ev := e.(type) {
	case *es.Op:
		return ev.Where, true
	case *es.TermReset:
		return ev.Where, true
	case *es.ShardState:
		return ev.Where, true
	case *es.OpRejected:
		return ev.Where, true
	case *es.TranslogCheckpoint:
		return ev.Where, true
	case *es.RecoverySource:
		return ev.Where, true
	case *es.RecoveryTarget:
		return ev.Where, true
	case *es.RecoveryCommits:
		return ev.Where, true
	case *es.CommitPolicy:
		return ev.Where, true
	case *es.Tracker:
		return ev.Where, true
	case *es.SeqNoStats:
		return ev.Where, true
	case *es.Resync:
		return ev.Where, true
	case *es.SeqNoTwice:
		return ev.Where, true
	case *es.GCPAboveLCP:
		return ev.Where, true
	case *es.GCPBelowInSync:
		return ev.Where, true
	case *es.ReplayGap:
		return ev.Where, true
	case *es.CheckpointMismatch:
		return ev.Where, true
	case *es.SeqNoStatsMismatch:
		return ev.Where, true
	case *es.SyncIDDocCount:
		return ev.Where, true
	case *es.Exception:
		return ev.Where, true
	}
	if s, ok := e.(interface {
		ShardSubject() (index string, shard int, node string)
	}); ok {
		i, n, node := s.ShardSubject()
		return es.Where{Index: i, Shard: n, Node: node}, true
	}
	return es.Where{}, false
}

// event draws one Elasticsearch event; it reports false for other systems.
func (x *esBuilder) event(e parse.Event) bool {
	if !strings.HasPrefix(e.Kind(), "es.") {
		return false
	}
	b := x.b
	switch ev := e.(type) {
	case *es.NodeRow:
		x.learnNode(e, ev.Node.Name, ev.Node.ID)
		return true
	case *es.NodesAdded:
		for _, n := range ev.Nodes {
			x.learnNode(e, n.Name, n.ID)
		}
		return true
	case *es.RoutingRow:
		r := ev.Routing
		node := x.nodeName[r.Node]
		if node == "" {
			node = r.Node
		}
		if r.Node == "" {
			// An unassigned copy has no lane of its own.
			if r.AllocationID != "" && node != "" {
				x.aidNode[r.AllocationID] = node
			}
			return true
		}
		role := "R"
		if r.Primary {
			role = "P"
		}
		c := x.copyOf(r.Index, r.Shard, node)
		if c == nil {
			// A folded copy's allocation is not kept either: what the
			// builder holds stays bounded by the lanes it builds.
			b.foldEvent(copyKey(r.Index, r.Shard, node))
			return true
		}
		if r.AllocationID != "" {
			x.aidNode[r.AllocationID] = node
		}
		b.mark(c.lane, e, "routing", fmt.Sprintf("routing: [%s] %s", role, r.State))
		return true
	case *es.Disruption:
		x.disruption(ev)
		return true
	case *es.DocMissing:
		c := x.copyOf("", -1, ev.Checked)
		if c == nil {
			b.foldEvent(copyKey("", -1, ev.Checked))
			return true
		}
		b.mark(c.lane, e, "assert", fmt.Sprintf("doc [%s] indexed via %s missing on %s", ev.DocID, ev.Via, ev.Checked))
		return true
	}
	w, ok := where(e)
	if !ok {
		return false
	}
	shard := w.Shard
	if !w.HasShard() {
		w.Index, shard = "", -1
	}
	c := x.copyOf(w.Index, shard, w.Node)
	if c == nil {
		b.foldEvent(copyKey(w.Index, shard, w.Node))
		return true
	}
	l := c.lane
	switch ev := e.(type) {
	case *es.Op:
		x.op(c, ev)
	case *es.TermReset:
		x.setTerm(c, ev.Term, e)
		b.mark(l, e, "term", fmt.Sprintf("new primary term %d: lcp %d → %d", ev.Term, ev.FromLCP, ev.ToLCP))
		x.point(c.lcp, ev.ToLCP, e)
	case *es.ShardState:
		b.mark(l, e, "event", fmt.Sprintf("state %s → %s", ev.From, ev.To))
	case *es.OpRejected:
		b.mark(l, e, "warn", fmt.Sprintf("op of term %d rejected (current %d)", ev.OpTerm, ev.Current))
	case *es.TranslogCheckpoint:
		cp := ev.Checkpoint
		b.mark(l, e, "event", fmt.Sprintf("translog checkpoint gen %d: max_seq_no %d, gcp %d", cp.Generation, cp.MaxSeqNo, cp.GlobalCheckpoint))
		x.point(c.gcp, cp.GlobalCheckpoint, e)
	case *es.SeqNoStats:
		if s := ev.Stats; s != nil {
			b.mark(l, e, "event", fmt.Sprintf("seq# stats: max %d, lcp %d, gcp %d", s.MaxSeqNo, s.LocalCheckpoint, s.GlobalCheckpoint))
			x.point(c.lcp, s.LocalCheckpoint, e)
			x.point(c.gcp, s.GlobalCheckpoint, e)
			x.point(c.max, s.MaxSeqNo, e)
		} else {
			b.mark(l, e, "event", "local checkpoint state")
		}
	case *es.Tracker:
		x.tracker(c, ev)
	case *es.CommitPolicy:
		kind, what := "commit-safe", "safe commit"
		if ev.Action == "delete" {
			kind, what = "commit-deleted", "deleted commit"
		}
		b.mark(l, e, kind, what+" "+commitText(ev.Commit))
	case *es.RecoveryCommits:
		x.commits(c, ev)
	case *es.RecoveryTarget:
		x.recoveryTarget(c, ev)
	case *es.RecoverySource:
		x.recoverySource(c, ev)
	case *es.Resync:
		what := "primary-replica resync started"
		if ev.Done {
			what = fmt.Sprintf("resync done: %d ops", ev.Ops)
		}
		b.mark(l, e, "event", what)
	case *es.SeqNoTwice:
		b.mark(l, e, "assert", fmt.Sprintf("seq# %d processed twice with different data", ev.SeqNo))
	case *es.GCPAboveLCP:
		b.mark(l, e, "assert", fmt.Sprintf("in-sync copy got gcp %d above its lcp %d", ev.GCP, ev.LCP))
	case *es.GCPBelowInSync:
		b.mark(l, e, "assert", fmt.Sprintf("gcp %d below in-sync gcps", ev.GCP))
	case *es.ReplayGap:
		b.mark(l, e, "assert", fmt.Sprintf("translog replay missed [%d:%d), first missing %d", ev.From, ev.To, ev.Missing))
	case *es.CheckpointMismatch:
		b.mark(l, e, "assert", "translog checkpoint mismatch: "+ev.File)
	case *es.SeqNoStatsMismatch:
		b.mark(l, e, "assert", "seq_no_stats mismatch")
	case *es.SyncIDDocCount:
		b.mark(l, e, "assert", fmt.Sprintf("sync id doc counts differ: %d on %s vs %d on %s", ev.PrimaryDocs, ev.PrimaryNode, ev.ReplicaDocs, ev.ReplicaNode))
	case *es.Exception:
		kind := "warn"
		if ev.Reported() {
			kind = "assert"
		}
		b.mark(l, e, kind, clip(ev.Class+": "+ev.Message, 100))
	default:
		b.mark(l, e, "event", e.Kind())
	}
	return true
}

func (x *esBuilder) op(c *esCopy, ev *es.Op) {
	b := x.b
	if ev.OpTerm >= 0 {
		x.setTerm(c, ev.OpTerm, ev)
	} else if ev.Term >= 0 && ev.Done {
		x.setTerm(c, ev.Term, ev)
	}
	what := ev.Op
	if ev.Done {
		what += "-done"
	}
	text := fmt.Sprintf("%s [%s]", what, ev.DocID)
	if ev.SeqNo >= 0 {
		text += fmt.Sprintf(" seq# %d", ev.SeqNo)
	} else {
		text += " (seq# not yet assigned)"
	}
	if ev.Term >= 0 {
		text += fmt.Sprintf(" term %d", ev.Term)
	}
	kind := "op-" + ev.Op
	if ev.Failure != "" {
		kind = "op-failed"
		text += ": " + clip(ev.Failure, 60)
	}
	b.mark(c.lane, ev, kind, text)
	if ev.SeqNo > c.maxSeq {
		c.maxSeq = ev.SeqNo
		x.point(c.max, ev.SeqNo, ev)
	}
}

// setTerm starts a primary-term band when the copy's term changes.
func (x *esBuilder) setTerm(c *esCopy, term int64, e parse.Event) {
	if term == c.termVal {
		return
	}
	now := x.b.now
	if c.term >= 0 {
		c.lane.Bands[c.term].To = now
		c.lane.Bands[c.term].Open = false
	}
	c.lane.Bands = append(c.lane.Bands, Band{Row: RowRole, From: now, To: now, Kind: "es-term", Text: fmt.Sprintf("primary term %d", term), Open: true, Ev: []int{x.b.evLine(e)}})
	c.term = len(c.lane.Bands) - 1
	c.termVal = term
}

// tracker draws the primary's ReplicationTracker updates: a copy's local
// checkpoint on that copy's lane (found by allocation id when the routing
// table named it), the global checkpoint on the printing copy's.
func (x *esBuilder) tracker(c *esCopy, ev *es.Tracker) {
	b := x.b
	switch ev.What {
	case es.TrackLCP:
		target := c
		if n := x.aidNode[ev.AllocationID]; n != "" {
			target = x.copyOf(ev.Index, ev.Shard, n)
		}
		b.mark(c.lane, ev, "event", fmt.Sprintf("lcp of %s: %d → %d", clip(ev.AllocationID, 10), ev.From, ev.To))
		if target != nil {
			x.point(target.lcp, ev.To, ev)
		}
	case es.TrackInSync:
		b.mark(c.lane, ev, "event", "marked "+clip(ev.AllocationID, 10)+" in-sync")
	case es.TrackPrimaryGCP, es.TrackReplicaGCP:
		x.point(c.gcp, ev.To, ev)
		b.placeLines(ev.Pos.Source, ev.Pos.Line, ev.Last, place{pane: 0, lane: c.lane, at: b.now})
	default:
		b.mark(c.lane, ev, "event", "tracker "+ev.What)
	}
}

// commits draws the commits a recovering copy held, marking the one taken
// as safe, and calls it stale when it holds ops above the global
// checkpoint (its max_seq_no is above gcp): such a commit is not safe.
func (x *esBuilder) commits(c *esCopy, ev *es.RecoveryCommits) {
	var parts []string
	for _, cm := range ev.Commits {
		parts = append(parts, commitText(cm))
	}
	kind := "commit-safe"
	what := "safe commit " + commitText(ev.Safe)
	if ev.Safe.MaxSeqNo > ev.GCP {
		kind = "commit-stale"
		what = fmt.Sprintf("STALE safe commit %s: max_seq_no %d above gcp %d", commitText(ev.Safe), ev.Safe.MaxSeqNo, ev.GCP)
	}
	x.b.mark(c.lane, ev, kind, what+"; commits: "+strings.Join(parts, ", "))
	x.point(c.gcp, ev.GCP, ev)
}

func commitText(c esval.Commit) string {
	name := c.Segment
	switch {
	case name != "":
	case c.Generation >= 0:
		name = fmt.Sprintf("gen %d", c.Generation)
	default:
		name = "commit"
	}
	return fmt.Sprintf("%s (lcp %d, max_seq_no %d)", name, c.LocalCheckpoint, c.MaxSeqNo)
}

// recoveryTarget opens, extends and closes the recovery band on the
// recovering copy's lane.
func (x *esBuilder) recoveryTarget(c *esCopy, ev *es.RecoveryTarget) {
	text := "peer recovery"
	if ev.Source != "" {
		text += " from " + ev.Source
	}
	if ev.Start >= 0 {
		text += fmt.Sprintf(", seq# from %d", ev.Start)
	}
	x.recoveryBand(c, ev, text, ev.Step == es.TargetDone)
	x.b.mark(c.lane, ev, "recovery", "recovery: "+ev.Step)
}

// recoverySource draws the source's steps on its lane and extends the
// target's recovery band with the ranges it sends.
func (x *esBuilder) recoverySource(c *esCopy, ev *es.RecoverySource) {
	what := ev.Step
	switch ev.Step {
	case es.StepSeqNoStart:
		what = fmt.Sprintf("seq#-based recovery from %d", ev.Start)
	case es.StepEndSeqNo:
		what = fmt.Sprintf("ops up to %d completed", ev.End)
	case es.StepPhase2Send:
		what = fmt.Sprintf("phase2: sending from %d, required [%d:%d]", ev.Start, ev.ReqFrom, ev.ReqTo)
	case es.StepBatch:
		what = fmt.Sprintf("sent batch of %d ops", ev.Ops)
	case es.StepPhase1Files:
		what = fmt.Sprintf("phase1: %d files (%d reused)", ev.Files, ev.Reused)
	}
	x.b.mark(c.lane, ev, "recovery", "recovery to "+ev.Target+": "+what)
	if ev.Target != "" {
		t := x.copyOf(ev.Index, ev.Shard, ev.Target)
		if t == nil {
			return
		}
		x.recoveryBand(t, ev, "peer recovery from "+ev.Node, false)
		if bd := &t.lane.Bands[t.recovery]; ev.Step == es.StepPhase2Send || ev.Step == es.StepSeqNoStart || ev.Step == es.StepEndSeqNo {
			bd.Text += "; " + what
		}
	}
}

func (x *esBuilder) recoveryBand(c *esCopy, e parse.Event, text string, done bool) {
	now := x.b.now
	if c.recovery < 0 {
		c.lane.Bands = append(c.lane.Bands, Band{Row: RowRBS, From: now, To: now, Kind: "recovery", Text: text, Open: true})
		c.recovery = len(c.lane.Bands) - 1
	}
	bd := &c.lane.Bands[c.recovery]
	bd.Ev = addEv(bd.Ev, x.b.evLine(e))
	bd.To = now
	if done {
		bd.Open = false
		c.recovery = -1
	}
}

// disruption shades the whole pane while a test's network disruption ran.
func (x *esBuilder) disruption(ev *es.Disruption) {
	b := x.b
	ln := b.evLine(ev)
	p := b.wall.pane
	if ev.Start {
		if x.span < 0 {
			p.Spans = append(p.Spans, Band{From: b.now, To: b.now, Kind: "disruption", Text: "network disruption: " + ev.Type + ", " + clip(ev.Links, 120), Open: true, Ev: []int{ln}})
			x.span = len(p.Spans) - 1
		}
		return
	}
	if x.span >= 0 {
		s := &p.Spans[x.span]
		s.To, s.Open = b.now, false
		s.Ev = addEv(s.Ev, ln)
		x.span = -1
	}
}

// point adds a value to a value-over-time series and widens the lane's
// value range. Unassigned (negative) seq# values are not drawn.
func (x *esBuilder) point(s *Series, v int64, e parse.Event) {
	if v < 0 {
		return
	}
	x.b.addPoint(s, [3]int64{x.b.now, v, int64(x.b.evLine(e))})
}

// finish closes open bands and spans and sets each lane's value range.
func (x *esBuilder) finish() {
	end := x.b.wall.hi
	keys := make([]laneKey, 0, len(x.copies))
	for k := range x.copies {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].less(keys[j]) })
	for _, k := range keys {
		c := x.copies[k]
		for i := range c.lane.Bands {
			if bd := &c.lane.Bands[i]; bd.Open && bd.To < end {
				bd.To = end
			}
		}
		first := true
		for _, s := range []*Series{c.lcp, c.gcp, c.max} {
			if len(s.Pts) == 0 {
				continue
			}
			c.lane.Series = append(c.lane.Series, s)
			// The range of every value, those sampled out too.
			if first || s.vlo < c.lane.YMin {
				c.lane.YMin = s.vlo
			}
			if first || s.vhi > c.lane.YMax {
				c.lane.YMax = s.vhi
			}
			first = false
		}
	}
	for i := range x.b.wall.pane.Spans {
		if s := &x.b.wall.pane.Spans[i]; s.Open && s.To < end {
			s.To = end
		}
	}
}

// learnNode maps id to name, and draws a node line that gives a known name
// another id.
func (x *esBuilder) learnNode(e parse.Event, name, id string) {
	if id == "" || name == "" {
		return
	}
	x.nodeName[id] = name
	if old, ok := x.nodeID[name]; ok && old != id && x.reuseDrawn != e {
		x.reuseDrawn = e
		x.b.generic(e)
	}
	x.nodeID[name] = id
}

// bandRefs calls f with every band index the builder holds, and the lane
// it indexes, so the band sampling can renumber them.
func (x *esBuilder) bandRefs(f func(*Lane, *int)) {
	for _, c := range x.copies {
		f(c.lane, &c.term)
		f(c.lane, &c.recovery)
	}
}
