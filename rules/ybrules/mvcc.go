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
func (p *Pack) checkItem(r *ybstate.Replica, d *yb.MvccDump, from ybstate.From, it *yb.Item) {
	m := r.Mvcc()
	ev := cite(from)
	gap := r.Gap(it)
	switch it.Kind {
	case yb.AddLeaderPending, yb.AddFollowerPending, yb.AddPending:
		// op names the entry in a finding's message; most entries break
		// nothing, so it is printed only for those that do.
		op := func() string { return opText(it.Op, it.HasOp, it.HT) }
		if n := len(m.Queue); n > 0 && !gap && atOrBelow(it.HT, m.Queue[n-1].HT) {
			back := m.Queue[n-1]
			p.addIn(d, "ht-order", rules.Finding{
				Rule: QueueOrder, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
				Message:  fmt.Sprintf("%s is added behind pending %s: pending hybrid times must increase", op(), back),
				Evidence: []rules.Evidence{ev, cite(back.From)},
				Facts:    map[string]string{"ht": it.HT.String(), "previous_pending": back.String()},
			}, r)
		}
		// mvcc.cc compares a new op id with the queue's back only
		// (BadNextOpId): after aborts empty the queue, a new leader may
		// reuse the indexes.
		if n := len(m.Queue); n > 0 && !gap && it.HasOp && m.Queue[n-1].HasOp && it.Op.Known() && m.Queue[n-1].Op.Known() {
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
			if b.value.Set && atOrBelow(it.HT, b.value.HT) {
				p.addIn(d, "below-safe-time", rules.Finding{
					Rule: HTBelowSafeTime, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
					Message:  fmt.Sprintf("%s is %s "+b.what, op(), below(it.HT, b.value.HT), b.value.HT),
					Evidence: []rules.Evidence{ev, cite(b.value.From)},
					Facts:    htFacts(it.HT, it.Op, it.HasOp, b.name, b.value.HT),
				}, r)
				break
			}
		}
		if lr := m.LastReplicated; lr.Set && atOrBelow(it.HT, lr.HT) {
			p.addIn(d, "below-last-replicated", rules.Finding{
				Rule: HTBelowLastRepl, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
				Message:  fmt.Sprintf("%s is %s the last replicated hybrid time %s", op(), below(it.HT, lr.HT), lr.HT),
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
		if pr := m.Propagated; pr.Set && lessThan(st, pr.HT) {
			f := rules.Finding{
				Rule: SafeTimeRegression, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
				Message:  fmt.Sprintf("leader propagated safe time %s is %s the %s it had already published", st, below(st, pr.HT), pr.HT),
				Evidence: []rules.Evidence{ev, cite(pr.From)},
				Facts:    map[string]string{"safe_time": st.String(), "previous": pr.HT.String()},
			}
			setBelowUS(f.Facts, "below_us", st, pr.HT)
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
		if it.Kind == yb.UpdatePropagatedSafeTimeOnLeader && len(m.Queue) > 0 && !gap && atOrBelow(m.Queue[0].HT, st) {
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
		if prev.Set && it.SafeTime.Valid() && !it.SafeTime.IsMin() && lessThan(it.SafeTime, prev.HT) {
			f := rules.Finding{
				Rule: SafeTimeRegression, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
				Message:  fmt.Sprintf("safe time %s served %s is %s the %s served before", it.SafeTime, what, below(it.SafeTime, prev.HT), prev.HT),
				Evidence: []rules.Evidence{ev, cite(prev.From)},
				Facts:    map[string]string{"safe_time": it.SafeTime.String(), "previous": prev.HT.String()},
			}
			setBelowUS(f.Facts, "below_us", it.SafeTime, prev.HT)
			p.addIn(d, "served-back", f, r)
		}
	}
}

// htFacts states an op's hybrid time against a bound. The differences
// are stated only when both were read (and the packed difference only
// when it fits an int64): a bound whose number could not be read is
// "<unread>", never 0.
func htFacts(ht ybval.HybridTime, op ybval.OpID, hasOp bool, bound string, v ybval.HybridTime) map[string]string {
	f := map[string]string{
		"ht":          ht.String(),
		"bound":       bound,
		"bound_value": v.String(),
	}
	setBelowUS(f, "below_us", ht, v)
	if d, ok := ht.RawDiffOK(v); ok {
		f["raw_diff"] = fmt.Sprint(d)
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
	// The lease of the latest expiry covering ht, the lowest term's of
	// those that end together. Every expiry compared here was read
	// (atOrBelow holds only then), so the order they come in does not
	// matter.
	var hit *ybstate.Lease
	p.st.EachLease(r.Tablet, func(l *ybstate.Lease) {
		if l.Term < 0 || l.Term >= op.Term || (leaderSide && l.Holder == r.Peer) || !atOrBelow(ht, l.Expiry) {
			return
		}
		if hit == nil || lessThan(hit.Expiry, l.Expiry) || (l.Term < hit.Term && l.Expiry.Compare(hit.Expiry) == 0) {
			hit = l
		}
	})
	if hit == nil {
		return
	}
	holder := hit.Holder
	if holder == "" {
		holder = "(peer not logged)"
	}
	f := rules.Finding{
		Rule: LeaseOverlap, Severity: rules.Error, Origin: origin, Subject: subject(r),
		Message: fmt.Sprintf("op %s at ht %s falls inside the ht lease the term-%d leader %s held until %s (%s its end)",
			op, ht, hit.Term, holder, hit.Expiry, before(ht, hit.Expiry)),
		Evidence: []rules.Evidence{ev, cite(hit.From)},
		Facts: map[string]string{
			"op_id": op.String(), "ht": ht.String(), "lease_term": fmt.Sprint(hit.Term), "lease_holder": hit.Holder,
			"lease_expiry": hit.Expiry.String(), "lease_taken": hit.Taken.String(),
		},
	}
	setBelowUS(f.Facts, "inside_us", ht, hit.Expiry)
	p.add(f, r)
}

// checkTooLow turns a `hybrid time too low` block into findings: the bounds
// mvcc.cc marked violated (its own `!!!` or `=1` verdict, or printed
// numbers that show it), confirmed or completed by the replayed state. A
// bound whose number could not be read is still a violated bound when
// mvcc.cc says so, stated without a number; a block cut before any bound
// is still the FATAL it was, reported under yb/mvcc/invariant-violation.
func (p *Pack) checkTooLow(r *ybstate.Replica, ev *yb.HTTooLow) {
	m := r.Mvcc()
	sev := rules.Error
	if ev.Artificial {
		// The release build bumped the op above the bound: nothing broke
		// on this replica yet, but the leader picked a time it must not.
		sev = rules.Warning
	}
	op := opText(ev.Op, ev.HasOp, ev.HT)
	if !ev.HT.Known() {
		op = "op at a hybrid time that could not be read"
		if ev.HasOp {
			op = fmt.Sprintf("op %s at a hybrid time that could not be read", ev.Op)
		}
	}
	type hit struct {
		name  string
		value ybval.HybridTime
		// printed is set when the block printed this bound; unread when
		// its number could not be read.
		printed  bool
		unread   bool
		reported bool
		derived  bool
		// replayed is the value the replayed state holds for the bound
		// and the line that set it, when the replay re-derived it.
		replayed ybstate.HT
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
		h := hit{name: name, what: whats[name], value: ybval.Unread}
		if b := ev.Bound(name); b != nil {
			h.printed, h.unread = true, !b.Value.Known()
			if !h.unread {
				h.value = b.Value
			}
			h.reported = (b.Judged && b.Violated) || (!b.Judged && b.HasDiff && b.PhysDiff < 0) ||
				(b.Judged && atOrBelow(ev.HT, b.Value))
			if h.reported {
				h.evidence = append(h.evidence, rules.Evidence{Source: ev.Pos.Source, Line: b.Line, Text: b.Text})
				if b.VerdictLine > 0 && b.VerdictLine != b.Line {
					h.evidence = append(h.evidence, rules.Evidence{Source: ev.Pos.Source, Line: b.VerdictLine, Text: b.VerdictText})
				}
			}
		}
		// A bound the block printed is stated as printed (or unread); the
		// replayed value stands as the value only where the block did not
		// print the bound, so a value is never stated beside a line that
		// prints another.
		if s := state[name]; s != nil && s.Set && atOrBelow(ev.HT, s.HT) {
			h.derived, h.replayed = true, *s
		}
		if name == yb.BoundLastInQueue && len(m.Queue) > 0 && atOrBelow(ev.HT, m.Queue[len(m.Queue)-1].HT) {
			back := m.Queue[len(m.Queue)-1]
			h.derived, h.replayed = true, ybstate.HT{HT: back.HT, Set: true, From: back.From}
		}
		if h.derived && h.printed && !h.unread && !atOrBelow(ev.HT, h.value) {
			// The number the block printed puts the op above this bound:
			// the replay missed a line, and the printed number stands.
			h.derived = false
		}
		if h.derived {
			if !h.printed {
				h.value = h.replayed.HT
			} else if b := ev.Bound(name); !h.reported && !h.unread {
				// The value stated is the one the block printed: cite it.
				h.evidence = append(h.evidence, rules.Evidence{Source: ev.Pos.Source, Line: b.Line, Text: b.Text})
			}
			h.evidence = append(h.evidence, cite(h.replayed.From))
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
		// The bound stated is the first whose printed number read (or
		// that the block did not print and the replay derived); a bound
		// that did not read is named as such, never given another line's
		// value.
		var first *hit
		var also, unread []string
		derived := false
		evidence := []rules.Evidence{rules.Cite(ev)}
		for i := range hits {
			h := &hits[i]
			if !g.names[h.name] {
				continue
			}
			derived = derived || h.derived
			if h.unread {
				unread = append(unread, h.name)
			}
			if first == nil || (first.unread && !h.unread) {
				first = h
			}
			evidence = appendNew(evidence, h.evidence...)
		}
		if first == nil {
			continue
		}
		for i := range hits {
			if h := &hits[i]; g.names[h.name] && h != first {
				also = append(also, h.name)
			}
		}
		// The FATAL is the database's own report; it is confirmed only
		// when the replay re-derived a bound and the bound stated was
		// read: a printed bound that did not read is mvcc.cc's word
		// alone, whatever the replay holds for it.
		origin := rules.Reported
		if derived && !first.unread {
			origin = rules.Confirmed
		}
		facts := htFacts(ev.HT, ev.Op, ev.HasOp, first.name, first.value)
		if len(unread) > 0 {
			facts["unread_bounds"] = joinNames(unread)
		}
		if first.derived && (first.unread || !sameHT(first.value, first.replayed.HT)) {
			facts["replayed_value"] = first.replayed.HT.String()
			facts["replayed_from"] = first.replayed.From.Pos.String()
		}
		if len(also) > 0 {
			facts["also_violated"] = joinNames(also)
		}
		if b := ev.Bound(first.name); b != nil && b.Source != "" && b.Source != ybval.SourceUnknown {
			facts["bound_source"] = string(b.Source)
		}
		p.tooLowFacts(ev, facts)
		what := fmt.Sprintf(first.what, first.value)
		if !first.value.Known() {
			what = fmt.Sprintf(first.what, first.name) + " (mvcc.cc marked it violated; its value could not be read"
			if b := ev.Bound(first.name); b != nil && b.HasDiff {
				// The difference mvcc.cc itself computed and printed.
				what += fmt.Sprintf("; mvcc.cc printed ht.PhysicalDiff=%d", b.PhysDiff)
				facts["printed_physical_diff"] = fmt.Sprint(b.PhysDiff)
			}
			what += ")"
			if first.derived {
				what += fmt.Sprintf("; the replayed state has it at %s (%s), %s the op",
					first.replayed.HT, first.replayed.From.Pos, aboveOp(ev.HT, first.replayed.HT))
			}
		}
		if first.value.Known() && len(unread) > 0 {
			what += fmt.Sprintf(" (mvcc.cc also marked %s violated; its printed value could not be read)", joinNames(unread))
		}
		p.add(rules.Finding{
			Rule: g.rule, Severity: sev, Origin: origin, Subject: subject(r),
			Message:  fmt.Sprintf("%s is %s %s", op, below(ev.HT, first.value), what),
			Evidence: evidence,
			Facts:    facts,
		}, r)
	}
	if len(hits) == 0 {
		p.tooLowUnjudged(r, ev, op, sev)
	}
	if ev.HasOp && ev.Op.Known() {
		leaderSide := r.LeaderTerm == ev.Op.Term
		p.checkOverlap(r, leaderSide, ev.Op, ev.HT, rules.Derived, rules.Cite(ev))
	}
}

// sameHT reports whether a and b are the same read hybrid time.
func sameHT(a, b ybval.HybridTime) bool {
	c, ok := a.CompareOK(b)
	return ok && c == 0
}

// aboveOp says where a replayed bound b stands against the op's hybrid
// time a: "77902 us above" or "at or above".
func aboveOp(a, b ybval.HybridTime) string {
	if d, ok := a.PhysicalDiffOK(b); ok && d < 0 {
		return fmt.Sprintf("%d us above", -d)
	}
	return "at or above"
}

// tooLowFacts adds what every finding of a `hybrid time too low` block
// states besides its bound.
func (p *Pack) tooLowFacts(ev *yb.HTTooLow, facts map[string]string) {
	if ev.Artificial {
		facts["artificially_incremented"] = "1"
		if ev.Assigned.Known() {
			facts["assigned_ht"] = ev.Assigned.String()
		}
	}
	if !ev.HT.Known() {
		facts["unread"] = "the op's hybrid time"
	}
}

// tooLowUnjudged reports a `hybrid time too low` block in which no bound
// is marked violated and the replay derives none: the excerpt was cut
// before the bounds, or their numbers could not be read. mvcc.cc aborted
// all the same; the finding cites its first line and every verdict line
// the block kept.
func (p *Pack) tooLowUnjudged(r *ybstate.Replica, ev *yb.HTTooLow, op string, sev rules.Severity) {
	evidence := []rules.Evidence{rules.Cite(ev)}
	var printed []string
	for _, b := range ev.Bounds {
		printed = append(printed, b.Name)
		if b.VerdictLine > 0 {
			evidence = appendNew(evidence, rules.Evidence{Source: ev.Pos.Source, Line: b.VerdictLine, Text: b.VerdictText})
		}
	}
	facts := map[string]string{"ht": ev.HT.String()}
	if ev.HasOp {
		facts["op_id"] = ev.Op.String()
	}
	p.tooLowFacts(ev, facts)
	why := "the excerpt is cut before the bounds it was compared with"
	if len(printed) > 0 {
		facts["bounds_printed"] = joinNames(printed)
		why = "no bound it printed (" + joinNames(printed) + ") is marked violated or reads as one"
	}
	p.add(rules.Finding{
		Rule: MvccInvariant, Severity: sev, Origin: rules.Reported, Subject: subject(r),
		Message:  fmt.Sprintf("mvcc.cc refused a new operation's hybrid time as too low: %s; %s, and the replayed state shows none it fell to", op, why),
		Evidence: evidence,
		Facts:    facts,
	}, r)
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
