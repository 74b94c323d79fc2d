package ybstate

import (
	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// Write is an op a peer added, or a safe time it served under its lease,
// at a hybrid time in a known term, as an MVCC dump or a `hybrid time too
// low` block showed it. The lease rules hold every write of a later term
// against the leases of earlier ones, so they are kept per tablet for the
// whole timeline: a cut-off leader's dump is often printed after the new
// leader's.
type Write struct {
	Tablet, Peer string
	// Op is the op id, "" for a served safe time.
	Op   string
	Term int64
	HT   ybval.HybridTime
	// LeaderSide is set when the peer itself wrote it as leader of Term.
	LeaderSide bool
	// Served is set for a safe time served under the lease, not an op.
	Served bool
	From   From
}

// Writes returns tablet's writes in timeline order.
func (s *State) Writes(tablet string) []Write { return s.writes[tablet] }

// noteWrites records the writes an MVCC event shows, against r as it stood
// before the event (its last term led decides whether a too-low op was the
// leader's own).
func (s *State) noteWrites(r *Replica, e yb.Event) {
	switch ev := e.(type) {
	case *yb.MvccDump:
		s.dumpWrites(r, ev)
	case *yb.HTTooLow:
		if ev.HasOp {
			s.writes[ev.Tablet] = append(s.writes[ev.Tablet], Write{Tablet: ev.Tablet, Peer: ev.Peer, Op: ev.Op.String(), Term: ev.Op.Term,
				HT: ev.HT, LeaderSide: r.LeaderTerm == ev.Op.Term, From: fromEvent(ev)})
		}
	}
}

// dumpWrites records the ops and served safe times a dump shows, crediting
// a safe time served under a lease to the leadership that held the lease
// (leaseTerms): the term of the last op the peer added as leader, else
// the last term r was seen leading, never the term of an op it replicated
// as a follower.
func (s *State) dumpWrites(r *Replica, d *yb.MvccDump) {
	lt := newLeaseTerms()
	for _, it := range d.Items {
		switch it.Kind {
		case yb.AddLeaderPending, yb.AddFollowerPending:
			if !it.HasOp {
				continue
			}
			lt.see(it)
			s.writes[d.Tablet] = append(s.writes[d.Tablet], Write{Tablet: d.Tablet, Peer: d.Peer, Op: it.Op.String(), Term: it.Op.Term, HT: it.HT,
				LeaderSide: it.Kind == yb.AddLeaderPending, From: FromItem(d.Pos.Source, it)})
		case yb.SafeTime:
			if term := lt.term(r.LeaderTerm); term >= 0 && it.HasLease && it.Lease.Lease.Valid() && !it.Lease.Lease.IsMin() && it.SafeTime.Valid() && !it.SafeTime.IsMin() {
				s.writes[d.Tablet] = append(s.writes[d.Tablet], Write{Tablet: d.Tablet, Peer: d.Peer, Term: term, HT: it.SafeTime,
					LeaderSide: true, Served: true, From: FromItem(d.Pos.Source, it)})
			}
		}
	}
}
