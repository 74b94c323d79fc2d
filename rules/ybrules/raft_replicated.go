package ybrules

import (
	"fmt"
	"time"

	"github.com/logsleuth/logsleuth/replay/ybstate"
	"github.com/logsleuth/logsleuth/rules"
)

// replicatedPast flags a leader that held a majority-replicated lease of
// its own while an earlier leader, by another peer's log, still led and
// held a lease: the first half of issue #19447's root cause. Its
// followers then know only the new lease and forget the old one, so the
// next leader can revoke "the" old lease and write below the earlier one.
//
// The new leader's lease shows in its own log: its `Reset our [ht] lease`
// when it gives up, or an MVCC dump's ht_lease. It had that lease at the
// latest when it stopped leading (or when the line printed it), and that
// moment must fall inside the earlier lease with its holder still leading.
func (p *Pack) replicatedPast(t *ybstate.TabletRaft, leases []heldLease, cut int64) {
	done := p.pastDone
	// A leader's own leases of one term make one finding, from the first
	// of them in order held inside an earlier lease. At a compaction the
	// term waits for a later judgment, whole, if that one would cite a
	// lease of a term the compaction keeps: were another judged now, it
	// would take the finding from the one judged first later.
	var waiting map[pastKey]bool
	// Ht leases first: the finding then cites the lease that binds writes.
	order := p.scratch.order[:0]
	defer func() { p.scratch.order = order }()
	for _, ht := range []bool{true, false} {
		for i := range leases {
			if (leases[i].kind == ybstate.HTLeaseKind) == ht {
				order = append(order, i)
			}
		}
	}
	for _, i := range order {
		own := &leases[i]
		if own.seen != own.holder || own.term < 0 {
			continue
		}
		lead := t.Leadership(own.holder, own.term)
		if lead == nil || !lead.Timed {
			continue
		}
		// When the holder had its lease at the latest.
		had := own.taken
		if lead.Ended && !lead.EndAt().IsZero() && (had == 0 || lead.EndAt().UnixMicro() < had) {
			had = lead.EndAt().UnixMicro()
		}
		if had == 0 {
			continue
		}
		var best *heldLease
		var bestLead *ybstate.Leadership
		rs := running(leases, had, p.skew.grace())
		for i := range rs {
			old := &rs[i]
			if old.holder == own.holder || old.term < 0 || old.term >= own.term || old.seen == own.holder {
				continue
			}
			ol := t.Leadership(old.holder, old.term)
			if ol == nil || (ol.Ended && !ol.EndAt().IsZero() && ol.EndAt().UnixMicro() <= had) {
				// No log shows that leader leading at the time, or it had
				// given up by then.
				continue
			}
			if best == nil || better(old, best) {
				best, bestLead = old, ol
			}
		}
		if best == nil {
			continue
		}
		key := pastKey{t.Tablet, own.holder, own.term}
		if done[key] || waiting[key] {
			continue
		}
		if stillOpen(cut, best.term) {
			if waiting == nil {
				waiting = map[pastKey]bool{}
			}
			waiting[key] = true
			continue
		}
		done[key] = true
		at := time.UnixMicro(had).UTC().Format("15:04:05.000000")
		ev := []rules.Evidence{cite(own.from), cite(best.from), cite(bestLead.Since)}
		if bestLead.Ended {
			ev = appendNew(ev, cite(bestLead.EndFrom()))
		}
		if lead.Ended {
			ev = appendNew(ev, cite(lead.EndFrom()))
		}
		facts := map[string]string{
			"leader": own.holder, "leader_term": fmt.Sprint(own.term), "own_lease_end": own.endText(),
			"holder": best.holder, "holder_term": fmt.Sprint(best.term), "lease_kind": best.kind.String(),
			"lease_end": best.endText(), "remaining_us": fmt.Sprint(best.end - had), "replicated_past": "1",
		}
		p.skew.facts(facts)
		p.add(rules.Finding{
			Rule: EarlyRevocation, Severity: rules.Error, Origin: rules.Derived,
			Subject: rules.Subject{System: "yb", Tablet: t.Tablet, Peer: own.holder},
			Message: fmt.Sprintf("term-%d leader %s held a replicated %s of its own (to %s) at %s at the latest, while the term-%d leader %s still led and held its %s to %s, %.3f s more (%s): its followers now track only the newer lease",
				own.term, own.holder, own.kind, own.endText(), at, best.term, best.holder, best.kind, best.endText(),
				(time.Duration(best.end-had) * time.Microsecond).Seconds(), best.from.Pos),
			Evidence: ev,
			Facts:    facts,
			State:    t.Lines(own.holder),
		}, nil)
	}
}
