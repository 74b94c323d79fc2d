package ybrules

import (
	"fmt"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay/ybstate"
	"github.com/logsleuth/logsleuth/rules"
)

// write is an op added, or a safe time served, at a hybrid time in a known
// term, as an MVCC dump or a `hybrid time too low` block showed it.
type write struct {
	tablet, peer string
	op           string
	term         int64
	ht           ybval.HybridTime
	// leaderSide: the peer itself wrote it as leader of term.
	leaderSide bool
	served     bool
	ev         rules.Evidence
}

// dumpWrites records the ops and served safe times a dump shows, crediting
// a served safe time to the term of the last op the dump showed.
func (rs *raftState) dumpWrites(d *yb.MvccDump) {
	term := int64(-1)
	for _, it := range d.Items {
		from := ybstate.FromItem(d.Pos.Source, it)
		switch it.Kind {
		case yb.AddLeaderPending, yb.AddFollowerPending:
			if !it.HasOp {
				continue
			}
			term = it.Op.Term
			rs.writes = append(rs.writes, write{tablet: d.Tablet, peer: d.Peer, op: it.Op.String(), term: it.Op.Term, ht: it.HT,
				leaderSide: it.Kind == yb.AddLeaderPending, ev: cite(from)})
		case yb.Replicated:
			if it.HasOp {
				term = it.Op.Term
			}
		case yb.SafeTime:
			if term >= 0 && it.HasLease && it.Lease.Lease.Valid() && !it.Lease.Lease.IsMin() && it.SafeTime.Valid() && !it.SafeTime.IsMin() {
				rs.writes = append(rs.writes, write{tablet: d.Tablet, peer: d.Peer, term: term, ht: it.SafeTime,
					leaderSide: true, served: true, ev: cite(from)})
			}
		}
	}
}

// writeOverlaps flags writes and served safe times of a later term at or
// below an ht lease that Raft lines (a revocation, a holder's reset) show
// an earlier term's leader holding, while that leader had not yet stepped
// down. checkOverlap sees, when an op is read, the dump leases read before
// it; this runs at the end, so a lease a log printed later counts too (the
// cut-off leader's dump is often printed after the new leader's). A line
// checkOverlap already flagged is not flagged twice.
func (p *Pack) writeOverlaps(rs *raftState, t *ybstate.TabletRaft) {
	var leases []ybstate.LeaseFact
	for _, l := range t.Leases {
		if l.Kind == ybstate.HTLeaseKind {
			leases = append(leases, l)
		}
	}
	for _, l := range p.st.Leases(t.Tablet) {
		if l.Expiry.Valid() && !l.Expiry.IsMin() {
			leases = append(leases, ybstate.LeaseFact{Holder: l.Holder, Term: l.Term, Kind: ybstate.HTLeaseKind,
				Expiry: l.Expiry, Seen: l.Holder, How: "mvcc dump", From: l.From})
		}
	}
	for _, w := range rs.writes {
		if w.tablet != t.Tablet || w.term < 0 {
			continue
		}
		if _, done := p.once[onceKey{LeaseOverlap, parse.Pos{Source: w.ev.Source, Line: w.ev.Line}, ""}]; done {
			continue
		}
		var hit *ybstate.LeaseFact
		var lead *ybstate.Leadership
		for i := range leases {
			l := &leases[i]
			if l.Holder == "" || l.Term < 0 || l.Term >= w.term {
				continue
			}
			if w.leaderSide && l.Holder == w.peer {
				// Its own earlier lease binds it through its own MvccManager.
				continue
			}
			if w.ht.Compare(l.Expiry) > 0 {
				continue
			}
			ld := t.Leadership(l.Holder, l.Term)
			if ld != nil && ld.Ended && !ld.EndAt.IsZero() {
				end := ld.EndAt.UnixMicro()
				if gap := end - int64(w.ht.Physical); gap > maxLeaseGap.Microseconds() || -gap > maxLeaseGap.Microseconds() {
					// The holder's clock is not UTC (or not this year):
					// when it stepped down cannot be placed against the
					// hybrid time.
					continue
				}
				if end <= int64(w.ht.Physical) {
					// It had stepped down before this hybrid time: it
					// served nothing at or above it.
					continue
				}
			}
			if hit == nil || l.Expiry.Compare(hit.Expiry) > 0 || (l.Expiry.Compare(hit.Expiry) == 0 && posLess(l.From.Pos, hit.From.Pos)) {
				hit, lead = l, ld
			}
		}
		if hit == nil {
			continue
		}
		what := fmt.Sprintf("op %s at ht %s", w.op, w.ht)
		if w.served {
			what = fmt.Sprintf("safe time %s served in term %d", w.ht, w.term)
		}
		ev := []rules.Evidence{w.ev, cite(hit.From)}
		if lead != nil {
			ev = appendNew(ev, cite(lead.Since))
		}
		facts := map[string]string{
			"ht": w.ht.String(), "term": fmt.Sprint(w.term), "lease_term": fmt.Sprint(hit.Term), "lease_holder": hit.Holder,
			"lease_expiry": hit.Expiry.String(), "inside_us": fmt.Sprint(-w.ht.PhysicalDiff(hit.Expiry)), "lease_source": hit.How,
		}
		if w.op != "" {
			facts["op_id"] = w.op
		}
		p.add(rules.Finding{
			Rule: LeaseOverlap, Severity: rules.Error, Origin: rules.Derived,
			Subject: rules.Subject{System: "yb", Tablet: w.tablet, Peer: w.peer},
			Message: fmt.Sprintf("%s falls inside the ht lease the term-%d leader %s held until %s (%d us before its end, as the log of %s shows at %s)",
				what, hit.Term, hit.Holder, hit.Expiry, -w.ht.PhysicalDiff(hit.Expiry), hit.Seen, hit.From.Pos),
			Evidence: ev,
			Facts:    facts,
			State:    t.Lines(w.peer),
		}, nil)
	}
}

func posLess(a, b parse.Pos) bool {
	if a.Source != b.Source {
		return a.Source < b.Source
	}
	return a.Line < b.Line
}
