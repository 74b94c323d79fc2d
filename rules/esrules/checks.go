package esrules

import (
	"fmt"

	"github.com/logsleuth/logsleuth/grammar/esval"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/replay/esstate"
	"github.com/logsleuth/logsleuth/rules"
)

// opConflict checks that a copy's op does not rebind a seq# its history,
// since the last reset, holds for another operation.
func (p *Pack) opConflict(ev *es.Op) {
	id, ok := shardOf(ev.Where)
	if !ok || ev.SeqNo < 0 || ev.Done {
		return
	}
	c := p.st.LookupFor(id, ev, ev.Node)
	if c == nil {
		return
	}
	if c.AllocID != "" && ev.AllocationID != "" && c.AllocID != ev.AllocationID {
		// Another allocation: a rebuilt copy or a re-created index, whose
		// history starts over (replay resets the copy for this op).
		return
	}
	prev, ok := c.Ops.Get(ev.SeqNo)
	if !ok || prev.Estimated || prev.Doc == ev.DocID {
		return
	}
	// One primary term assigns a seq# once. Under a newer term the slot
	// may legally be reused after a rollback or resync this log may not
	// show, so only a rebinding within one term is a conflict.
	newTerm := ev.Term
	if newTerm < 0 {
		newTerm = p.st.Shards[id].Term
	}
	if prev.Term != newTerm {
		return
	}
	facts := map[string]string{"seq_no": fmt.Sprint(ev.SeqNo), "prev_doc": prev.Doc, "new_doc": ev.DocID}
	facts["term"] = fmt.Sprint(newTerm)
	p.add(SeqNoConflict, rules.Derived, copySubject(c),
		fmt.Sprintf("%s %s applied seq# %d as doc %s under term %d after already holding it as doc %s from the same term, with no reset or recovery between",
			c.Node, id, ev.SeqNo, ev.DocID, newTerm, prev.Doc),
		[]rules.Evidence{rules.Cite(ev), cite(prev.At)}, facts, c.Lines())
}

// tracker checks gcp updates: a replica's against its own lcp, a
// primary's against its previous value and the in-sync copies'.
func (p *Pack) tracker(ev *es.Tracker) {
	id, ok := shardOf(ev.Where)
	if !ok {
		return
	}
	sh := p.st.Find(id)
	if sh == nil {
		return
	}
	c := p.st.LookupFor(id, ev, ev.Node)
	switch ev.What {
	case es.TrackReplicaGCP:
		if c == nil || !c.InSync || c.Recovering() {
			return
		}
		lcp := c.EffectiveLCP()
		if !checkpoint(lcp) || !checkpoint(ev.To) || ev.To <= lcp {
			return
		}
		// The primary's view of this copy's lcp, read from another
		// node's log, runs on another clock: a gcp the replica took a
		// few milliseconds "before" the primary logged the lcp it rests
		// on is skew, not a break. Only the copy's own lines, or one
		// log with one clock, can prove this one.
		if c.LCPByTracker && c.LCPAt.Source != ev.Pos.Source {
			return
		}
		p.add(GCPAboveLCP, rules.Derived, copySubject(c),
			fmt.Sprintf("in-sync %s %s took global checkpoint %d while its local checkpoint is %d", c.Node, id, ev.To, lcp),
			[]rules.Evidence{rules.Cite(ev), cite(c.LCPAt)}, map[string]string{"gcp": fmt.Sprint(ev.To), "lcp": fmt.Sprint(lcp)}, c.Lines())
	case es.TrackPrimaryGCP:
		if !checkpoint(ev.To) {
			// An unassigned gcp is no value to compare.
			return
		}
		if c != nil && c.GCPLive && c.GCPTerm == sh.Term && checkpoint(c.GCP) && ev.To < c.GCP {
			p.add(GCPBelowInSync, rules.Derived, copySubject(c),
				fmt.Sprintf("primary %s %s moved its global checkpoint back from %d to %d", c.Node, id, c.GCP, ev.To),
				[]rules.Evidence{rules.Cite(ev), cite(c.GCPAt)}, map[string]string{"from": fmt.Sprint(c.GCP), "to": fmt.Sprint(ev.To)}, c.Lines())
			return
		}
		for _, o := range sh.CopiesSorted() {
			if o.Node == ev.Node || !o.InSync || o.Recovering() || !o.GCPLive || o.GCPTerm != sh.Term || !checkpoint(o.GCP) || o.GCP <= ev.To {
				continue
			}
			// A copy's gcp came from the primary: it proves the primary
			// reached it, not when. Read from another log, it runs on
			// another clock, and a replica whose clock is behind prints
			// the gcp "before" the primary computed it. Across clocks
			// only checkpoints order the lines, and they say no more
			// than the primary's own lines do (a gcp going back, checked
			// above); one log, one clock, proves the order.
			if o.GCPAt.Source != ev.Pos.Source {
				continue
			}
			var state []string
			subj := subject(ev.Where, "")
			if c != nil {
				state, subj = c.Lines(), copySubject(c)
			}
			p.add(GCPBelowInSync, rules.Derived, subj,
				fmt.Sprintf("primary %s %s set global checkpoint %d, below in-sync copy %s's %d under the same term", ev.Node, id, ev.To, o.Node, o.GCP),
				[]rules.Evidence{rules.Cite(ev), cite(o.GCPAt)}, map[string]string{"gcp": fmt.Sprint(ev.To), "in_sync_gcp": fmt.Sprint(o.GCP), "in_sync_node": o.Node}, state)
			return
		}
	}
}

// seqNoStats checks a printed (maxSeqNo, lcp, gcp) of a started copy.
func (p *Pack) seqNoStats(ev *es.SeqNoStats) {
	id, ok := shardOf(ev.Where)
	if !ok {
		return
	}
	c := p.st.LookupFor(id, ev, ev.Node)
	switch {
	case ev.Stats != nil:
		if c == nil || !c.InSync || c.Recovering() || !gcpAbove(ev.Stats.GlobalCheckpoint, ev.Stats.LocalCheckpoint) {
			return
		}
		p.gcpAbove(ev, c, *ev.Stats, "")
	case ev.State != nil:
		st := ev.State
		if !st.InSync || !gcpAbove(st.GlobalCheckpoint, st.LocalCheckpoint) {
			return
		}
		var state []string
		if c != nil {
			state = c.Lines()
		}
		p.add(GCPAboveLCP, rules.Derived, subject(ev.Where, allocOf(c)),
			fmt.Sprintf("tracker holds an in-sync copy of %s with global checkpoint %d above its local checkpoint %d", id, st.GlobalCheckpoint, st.LocalCheckpoint),
			[]rules.Evidence{rules.Cite(ev)}, map[string]string{"gcp": fmt.Sprint(st.GlobalCheckpoint), "lcp": fmt.Sprint(st.LocalCheckpoint)}, state)
	}
}

// gcpAbove reports whether a printed gcp lies above a printed lcp, both
// being checkpoints: a copy whose lcp is unassigned (a relocated
// primary's tracker forgets them) is not behind its gcp.
func gcpAbove(gcp, lcp int64) bool { return checkpoint(gcp) && checkpoint(lcp) && gcp > lcp }

func (p *Pack) gcpAbove(ev parse.Event, c *esstate.Copy, s esval.SeqNoStats, how string) {
	p.add(GCPAboveLCP, rules.Derived, copySubject(c),
		fmt.Sprintf("started %s %s reports %s: global checkpoint %d above local checkpoint %d%s", c.Node, c.Shard, s, s.GlobalCheckpoint, s.LocalCheckpoint, how),
		[]rules.Evidence{rules.Cite(ev)}, map[string]string{"gcp": fmt.Sprint(s.GlobalCheckpoint), "lcp": fmt.Sprint(s.LocalCheckpoint)}, c.Lines())
}

// seqNoStatsMismatch checks the copy's side of the test's stats
// comparison. A replica lagging the primary's gcp (corpus 07) is not a
// break; a started copy with gcp above its own lcp is.
func (p *Pack) seqNoStatsMismatch(ev *es.SeqNoStatsMismatch) {
	got := ev.Got
	if ev.Routing.State != "STARTED" || got == nil || !gcpAbove(got.GlobalCheckpoint, got.LocalCheckpoint) {
		return
	}
	id := esstate.ShardID{Index: ev.Routing.Index, Shard: ev.Routing.Shard}
	node := p.st.NodeName(ev.Routing.Node)
	n := id.Shard
	subj := rules.Subject{System: "es", Index: id.Index, Shard: &n, Node: node, Allocation: ev.Routing.AllocationID}
	var state []string
	if c := p.st.Lookup(id, ev.Routing.Node); c != nil {
		state = c.Lines()
	}
	p.add(GCPAboveLCP, rules.Confirmed, subj,
		fmt.Sprintf("started copy %s reports %s: global checkpoint %d above local checkpoint %d", ev.Routing, *got, got.GlobalCheckpoint, got.LocalCheckpoint),
		[]rules.Evidence{rules.Cite(ev)}, map[string]string{"gcp": fmt.Sprint(got.GlobalCheckpoint), "lcp": fmt.Sprint(got.LocalCheckpoint)}, state)
}
