package ybrules

import (
	"fmt"
	"slices"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/replay/ybstate"
	"github.com/logsleuth/logsleuth/rules"
)

// writeOverlaps flags writes and served safe times of a later term at or
// below an ht lease that Raft lines (a revocation, a holder's reset) show
// an earlier term's leader holding, while that leader had not yet stepped
// down. checkOverlap sees, when an op is read, the dump leases read before
// it; this runs at the end, so a lease a log printed later counts too (the
// cut-off leader's dump is often printed after the new leader's). A line
// checkOverlap already flagged is not flagged twice.
func (p *Pack) writeOverlaps(t *ybstate.TabletRaft, cut int64) {
	writes := p.st.Writes(t.Tablet)
	if len(writes) == 0 {
		// Most tablets of a node hosting many have no write to place.
		return
	}
	// The list lives for one judgment: its buffer serves the next.
	leases := slices.DeleteFunc(t.AppendLeases(p.scratch.facts[:0]), func(l ybstate.LeaseFact) bool { return l.Kind != ybstate.HTLeaseKind })
	defer func() { clear(leases); p.scratch.facts = leases[:0] }()
	for _, l := range p.st.Leases(t.Tablet) {
		if l.Expiry.Valid() && !l.Expiry.IsMin() {
			leases = append(leases, ybstate.LeaseFact{Holder: l.Holder, Term: l.Term, Kind: ybstate.HTLeaseKind,
				Expiry: l.Expiry, Seen: l.Holder, How: ybstate.LeaseInDump, From: l.From})
		}
	}
	for _, w := range writes {
		if w.Term < 0 || !w.HT.Point() {
			// A write at a time that did not read is placed against no
			// lease.
			continue
		}
		if _, done := p.once[onceKey{LeaseOverlap, w.From.Pos, ""}]; done {
			continue
		}
		var hit *ybstate.LeaseFact
		var lead *ybstate.Leadership
		for i := range leases {
			l := &leases[i]
			if l.Holder == "" || l.Term < 0 || l.Term >= w.Term {
				continue
			}
			if w.LeaderSide && l.Holder == w.Peer {
				// Its own earlier lease binds it through its own MvccManager.
				continue
			}
			if !atOrBelow(w.HT, l.Expiry) {
				continue
			}
			ld := t.Leadership(l.Holder, l.Term)
			if ld != nil && ld.Ended && !ld.EndAt().IsZero() {
				end := ld.EndAt().UnixMicro()
				if gap := end - int64(w.HT.Physical); gap > maxLeaseGap.Microseconds() || -gap > maxLeaseGap.Microseconds() {
					// The holder's clock is not UTC (or not this year):
					// when it stepped down cannot be placed against the
					// hybrid time.
					continue
				}
				if end <= int64(w.HT.Physical) {
					// It had stepped down before this hybrid time: it
					// served nothing at or above it.
					continue
				}
			}
			if hit == nil || laterLease(l, hit) {
				hit, lead = l, ld
			}
		}
		if hit == nil {
			continue
		}
		if stillOpen(cut, hit.Term) {
			continue
		}
		what := fmt.Sprintf("op %s at ht %s", w.Op, w.HT)
		if w.Served {
			what = fmt.Sprintf("safe time %s served in term %d", w.HT, w.Term)
		}
		ev := []rules.Evidence{cite(w.From), cite(hit.From)}
		if lead != nil {
			ev = appendNew(ev, cite(lead.Since))
		}
		facts := map[string]string{
			"ht": w.HT.String(), "term": fmt.Sprint(w.Term), "lease_term": fmt.Sprint(hit.Term), "lease_holder": hit.Holder,
			"lease_expiry": hit.Expiry.String(), "lease_source": hit.How.String(),
		}
		setBelowUS(facts, "inside_us", w.HT, hit.Expiry)
		if w.Op != "" {
			facts["op_id"] = w.Op
		}
		p.add(rules.Finding{
			Rule: LeaseOverlap, Severity: rules.Error, Origin: rules.Derived,
			Subject: rules.Subject{System: "yb", Tablet: w.Tablet, Peer: w.Peer},
			Message: fmt.Sprintf("%s falls inside the ht lease the term-%d leader %s held until %s (%s its end, as the log of %s shows at %s)",
				what, hit.Term, hit.Holder, hit.Expiry, before(w.HT, hit.Expiry), hit.Seen, hit.From.Pos),
			Evidence: ev,
			Facts:    facts,
			State:    t.Lines(w.Peer),
		}, nil)
	}
}

// laterLease reports whether l ends after hit, or at the same time but
// was seen first; a lease whose end was not read is never later.
func laterLease(l, hit *ybstate.LeaseFact) bool {
	c, ok := l.Expiry.CompareOK(hit.Expiry)
	return ok && (c > 0 || c == 0 && posLess(l.From.Pos, hit.From.Pos))
}

func posLess(a, b parse.Pos) bool {
	if a.Source != b.Source {
		return a.Source < b.Source
	}
	return a.Line < b.Line
}
