package ybrules

import (
	"fmt"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay/ybstate"
	"github.com/logsleuth/logsleuth/rules"
)

// servedBound is one of the safe-time bounds a new op must stay above.
type servedBound struct {
	name  string
	what  string // how a message names it
	value *ybstate.HT
}

func servedBounds(m *ybstate.Mvcc) []servedBound {
	return []servedBound{
		{yb.BoundWithLease, "the safe time %s already served under lease", &m.WithLease},
		{yb.BoundWithoutLease, "the safe time %s already served without a lease", &m.WithoutLease},
		{yb.BoundForFollower, "the safe time %s already served to followers", &m.ForFollower},
		{yb.BoundPropagated, "the propagated safe time %s", &m.Propagated},
	}
}

// checkItem checks one MVCC dump entry against the replica's state before it.
func (p *Pack) checkItem(r *ybstate.Replica, d *yb.MvccDump, from ybstate.From, it yb.Item) {
	m := &r.Mvcc
	ev := cite(from)
	gap := r.Gap(it)
	switch it.Kind {
	case yb.AddLeaderPending, yb.AddFollowerPending, yb.AddPending:
		op := opText(it.Op, it.HasOp, it.HT)
		if n := len(m.Queue); n > 0 && !gap && it.HT.Compare(m.Queue[n-1].HT) <= 0 {
			back := m.Queue[n-1]
			p.addIn(d, "ht-order", rules.Finding{
				Rule: QueueOrder, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
				Message:  fmt.Sprintf("%s is added behind pending %s: pending hybrid times must increase", op, back),
				Evidence: []rules.Evidence{ev, cite(back.From)},
				Facts:    map[string]string{"ht": it.HT.String(), "previous_pending": back.String()},
			}, r)
		}
		// mvcc.cc compares a new op id with the queue's back only
		// (BadNextOpId): after aborts empty the queue, a new leader may
		// reuse the indexes.
		if n := len(m.Queue); n > 0 && !gap && it.HasOp && m.Queue[n-1].HasOp {
			back := m.Queue[n-1]
			if it.Op.Term < back.Op.Term || it.Op.Index <= back.Op.Index {
				p.addIn(d, "opid-order", rules.Finding{
					Rule: QueueOrder, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
					Message:  fmt.Sprintf("op id %s added after %s: op ids must increase", it.Op, back.Op),
					Evidence: []rules.Evidence{ev, cite(back.From)},
					Facts:    map[string]string{"previous_op_id": back.Op.String(), "next_op_id": it.Op.String()},
				}, r)
			}
		}
		for _, b := range servedBounds(m) {
			if b.value.Set && it.HT.Compare(b.value.HT) <= 0 {
				p.addIn(d, "below-safe-time", rules.Finding{
					Rule: HTBelowSafeTime, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
					Message:  fmt.Sprintf("%s is %s "+b.what, op, below(it.HT, b.value.HT), b.value.HT),
					Evidence: []rules.Evidence{ev, cite(b.value.From)},
					Facts:    htFacts(it.HT, it.Op, it.HasOp, b.name, b.value.HT),
				}, r)
				break
			}
		}
		if lr := m.LastReplicated; lr.Set && it.HT.Compare(lr.HT) <= 0 {
			p.addIn(d, "below-last-replicated", rules.Finding{
				Rule: HTBelowLastRepl, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
				Message:  fmt.Sprintf("%s is %s the last replicated hybrid time %s", op, below(it.HT, lr.HT), lr.HT),
				Evidence: []rules.Evidence{ev, cite(lr.From)},
				Facts:    htFacts(it.HT, it.Op, it.HasOp, yb.BoundLastRepl, lr.HT),
			}, r)
		}
		if it.HasOp {
			p.checkOverlap(r, it.Kind == yb.AddLeaderPending, it.Op, it.HT, rules.Derived, ev)
		}
	case yb.Replicated, yb.Aborted:
		if gap {
			return
		}
		i := m.Find(it.HT, it.Op, it.HasOp)
		if i < 0 {
			return
		}
		if it.Kind == yb.Replicated && i != 0 {
			front := m.Queue[0]
			p.addIn(d, "replicated-front", rules.Finding{
				Rule: QueueOrder, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
				Message:  fmt.Sprintf("Replicated %s while %s, added earlier, is still pending at the queue front", m.Queue[i], front),
				Evidence: []rules.Evidence{ev, cite(front.From)},
				Facts:    map[string]string{"replicated": m.Queue[i].String(), "queue_front": front.String()},
			}, r)
		}
		if it.Kind == yb.Aborted && i != len(m.Queue)-1 {
			back := m.Queue[len(m.Queue)-1]
			p.addIn(d, "aborted-back", rules.Finding{
				Rule: QueueOrder, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
				Message:  fmt.Sprintf("Aborted %s while %s, added later, is still pending: only the last op may be aborted", m.Queue[i], back),
				Evidence: []rules.Evidence{ev, cite(back.From)},
				Facts:    map[string]string{"aborted": m.Queue[i].String(), "queue_back": back.String()},
			}, r)
		}
	case yb.UpdatePropagatedSafeTimeOnLeader, yb.SetPropagatedSafeTimeOnFollower:
		st := it.SafeTime
		if it.Kind == yb.SetPropagatedSafeTimeOnFollower {
			st = it.HT
		}
		if !st.Valid() || st.IsMin() {
			return
		}
		if pr := m.Propagated; pr.Set && st.Compare(pr.HT) < 0 {
			f := rules.Finding{
				Rule: SafeTimeRegression, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
				Message:  fmt.Sprintf("leader propagated safe time %s is %s the %s it had already published", st, below(st, pr.HT), pr.HT),
				Evidence: []rules.Evidence{ev, cite(pr.From)},
				Facts:    map[string]string{"safe_time": st.String(), "previous": pr.HT.String(), "below_us": fmt.Sprint(-st.PhysicalDiff(pr.HT))},
			}
			if it.Kind == yb.SetPropagatedSafeTimeOnFollower {
				f.Severity = rules.Note
				f.Message = fmt.Sprintf("follower received propagated safe time %s, %s the %s it already had (expected after a leader change)", st, below(st, pr.HT), pr.HT)
			}
			p.add(f, r)
		}
		// Only a leader's propagated safe time must stay below its
		// queue: a follower takes the leader's value with a commit
		// index and applies the ops after (SafeTimeForFollower then
		// answers from the queue front instead).
		if it.Kind == yb.UpdatePropagatedSafeTimeOnLeader && len(m.Queue) > 0 && !gap && st.Compare(m.Queue[0].HT) >= 0 {
			front := m.Queue[0]
			p.addIn(d, "propagated-pending", rules.Finding{
				Rule: PropagatedAbovePend, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
				Message:  fmt.Sprintf("propagated safe time %s is at or above pending %s", st, front),
				Evidence: []rules.Evidence{ev, cite(front.From)},
				Facts:    map[string]string{"safe_time": st.String(), "pending": front.String()},
			}, r)
		}
	case yb.SafeTime, yb.SafeTimeForFollower:
		var prev ybstate.HT
		what := "under lease"
		switch {
		case it.Kind == yb.SafeTimeForFollower:
			prev, what = m.ForFollower, "to followers"
		case !it.Lease.Lease.Valid():
			prev, what = m.WithoutLease, "without a lease"
		default:
			prev = m.WithLease
		}
		if prev.Set && it.SafeTime.Valid() && !it.SafeTime.IsMin() && it.SafeTime.Compare(prev.HT) < 0 {
			p.addIn(d, "served-back", rules.Finding{
				Rule: SafeTimeRegression, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
				Message:  fmt.Sprintf("safe time %s served %s is %s the %s served before", it.SafeTime, what, below(it.SafeTime, prev.HT), prev.HT),
				Evidence: []rules.Evidence{ev, cite(prev.From)},
				Facts:    map[string]string{"safe_time": it.SafeTime.String(), "previous": prev.HT.String(), "below_us": fmt.Sprint(-it.SafeTime.PhysicalDiff(prev.HT))},
			}, r)
		}
	}
}

func htFacts(ht ybval.HybridTime, op ybval.OpID, hasOp bool, bound string, v ybval.HybridTime) map[string]string {
	f := map[string]string{
		"ht":          ht.String(),
		"bound":       bound,
		"bound_value": v.String(),
		"below_us":    fmt.Sprint(-ht.PhysicalDiff(v)),
		"raw_diff":    fmt.Sprint(ht.RawDiff(v)),
	}
	if hasOp {
		f["op_id"] = op.String()
	}
	return f
}

// checkOverlap flags an op of a later term at or below an ht lease an
// earlier term's leader held, as any peer's log showed it. leaderSide is
// set when the replica adds the op as its leader: its own earlier leases
// then bind it through its own MvccManager and are not checked here.
func (p *Pack) checkOverlap(r *ybstate.Replica, leaderSide bool, op ybval.OpID, ht ybval.HybridTime, origin rules.Origin, ev rules.Evidence) {
	var hit *ybstate.Lease
	for _, l := range p.st.Leases(r.Tablet) {
		if l.Term < 0 || l.Term >= op.Term || (leaderSide && l.Holder == r.Peer) {
			continue
		}
		if ht.Compare(l.Expiry) <= 0 && (hit == nil || l.Expiry.Compare(hit.Expiry) > 0) {
			hit = l
		}
	}
	if hit == nil {
		return
	}
	holder := hit.Holder
	if holder == "" {
		holder = "(peer not logged)"
	}
	p.add(rules.Finding{
		Rule: LeaseOverlap, Severity: rules.Error, Origin: origin, Subject: subject(r),
		Message: fmt.Sprintf("op %s at ht %s falls inside the ht lease the term-%d leader %s held until %s (%d us before its end)",
			op, ht, hit.Term, holder, hit.Expiry, -ht.PhysicalDiff(hit.Expiry)),
		Evidence: []rules.Evidence{ev, cite(hit.From)},
		Facts: map[string]string{
			"op_id": op.String(), "ht": ht.String(), "lease_term": fmt.Sprint(hit.Term), "lease_holder": hit.Holder,
			"lease_expiry": hit.Expiry.String(), "lease_taken": hit.Taken.String(), "inside_us": fmt.Sprint(-ht.PhysicalDiff(hit.Expiry)),
		},
	}, r)
}

// checkTooLow turns a `hybrid time too low` block into findings: the bounds
// mvcc.cc marked violated, confirmed or completed by the replayed state.
func (p *Pack) checkTooLow(r *ybstate.Replica, ev *yb.HTTooLow) {
	m := &r.Mvcc
	sev := rules.Error
	if ev.Artificial {
		// The release build bumped the op above the bound: nothing broke
		// on this replica yet, but the leader picked a time it must not.
		sev = rules.Warning
	}
	op := opText(ev.Op, ev.HasOp, ev.HT)
	type hit struct {
		name     string
		value    ybval.HybridTime
		reported bool
		derived  bool
		evidence []rules.Evidence
		what     string
	}
	state := map[string]*ybstate.HT{
		yb.BoundWithLease: &m.WithLease, yb.BoundWithoutLease: &m.WithoutLease,
		yb.BoundForFollower: &m.ForFollower, yb.BoundPropagated: &m.Propagated,
		yb.BoundLastRepl: &m.LastReplicated,
	}
	whats := map[string]string{
		yb.BoundWithLease:    "the safe time %s already served under lease",
		yb.BoundWithoutLease: "the safe time %s already served without a lease",
		yb.BoundForFollower:  "the safe time %s already served to followers",
		yb.BoundPropagated:   "the propagated safe time %s",
		yb.BoundLastRepl:     "the last replicated hybrid time %s",
		yb.BoundLastInQueue:  "the last pending op's hybrid time %s",
	}
	var hits []hit
	for _, name := range []string{yb.BoundWithLease, yb.BoundWithoutLease, yb.BoundForFollower, yb.BoundPropagated, yb.BoundLastRepl, yb.BoundLastInQueue} {
		h := hit{name: name, what: whats[name]}
		if b := ev.Bound(name); b != nil {
			h.reported = (b.Judged && b.Violated) || (!b.Judged && b.HasDiff && b.PhysDiff < 0)
			if h.reported {
				h.value = b.Value
				h.evidence = append(h.evidence, rules.Evidence{Source: ev.Pos.Source, Line: b.Line, Text: b.Text})
				if b.VerdictLine > 0 && b.VerdictLine != b.Line {
					h.evidence = append(h.evidence, rules.Evidence{Source: ev.Pos.Source, Line: b.VerdictLine, Text: b.VerdictText})
				}
			}
		}
		if s := state[name]; s != nil && s.Set && ev.HT.Compare(s.HT) <= 0 {
			h.derived = true
			if !h.reported {
				h.value = s.HT
			}
			h.evidence = append(h.evidence, cite(s.From))
		}
		if name == yb.BoundLastInQueue && len(m.Queue) > 0 && ev.HT.Compare(m.Queue[len(m.Queue)-1].HT) <= 0 {
			back := m.Queue[len(m.Queue)-1]
			h.derived = true
			if !h.reported {
				h.value = back.HT
			}
			h.evidence = append(h.evidence, cite(back.From))
		}
		if h.reported || h.derived {
			hits = append(hits, h)
		}
	}
	groups := []struct {
		rule  string
		names map[string]bool
	}{
		{HTBelowSafeTime, map[string]bool{yb.BoundWithLease: true, yb.BoundWithoutLease: true, yb.BoundForFollower: true, yb.BoundPropagated: true}},
		{HTBelowLastRepl, map[string]bool{yb.BoundLastRepl: true}},
		{QueueOrder, map[string]bool{yb.BoundLastInQueue: true}},
	}
	for _, g := range groups {
		var first *hit
		var also []string
		reported, derived := false, false
		evidence := []rules.Evidence{rules.Cite(ev)}
		for i := range hits {
			h := &hits[i]
			if !g.names[h.name] {
				continue
			}
			reported = reported || h.reported
			derived = derived || h.derived
			if first == nil {
				first = h
			} else {
				also = append(also, h.name)
			}
			evidence = appendNew(evidence, h.evidence...)
		}
		if first == nil {
			continue
		}
		origin := rules.Confirmed
		if !derived {
			origin = rules.Reported
		}
		facts := htFacts(ev.HT, ev.Op, ev.HasOp, first.name, first.value)
		if len(also) > 0 {
			facts["also_violated"] = joinNames(also)
		}
		if b := ev.Bound(first.name); b != nil && b.Source != "" && b.Source != ybval.SourceUnknown {
			facts["bound_source"] = string(b.Source)
		}
		if ev.Artificial {
			facts["artificially_incremented"] = "1"
		}
		p.add(rules.Finding{
			Rule: g.rule, Severity: sev, Origin: origin, Subject: subject(r),
			Message:  fmt.Sprintf("%s is %s "+first.what, op, below(ev.HT, first.value), first.value),
			Evidence: evidence,
			Facts:    facts,
		}, r)
	}
	if ev.HasOp {
		leaderSide := r.LeaderTerm == ev.Op.Term
		p.checkOverlap(r, leaderSide, ev.Op, ev.HT, rules.Derived, rules.Cite(ev))
	}
}

// appendNew appends the evidence lines not already cited.
func appendNew(list []rules.Evidence, more ...rules.Evidence) []rules.Evidence {
	for _, e := range more {
		dup := false
		for _, x := range list {
			if x.Source == e.Source && x.Line == e.Line {
				dup = true
				break
			}
		}
		if !dup {
			list = append(list, e)
		}
	}
	return list
}
