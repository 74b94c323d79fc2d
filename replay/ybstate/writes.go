package ybstate

import (
	"sort"
	"strings"

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

// maxWritesPerTerm bounds the writes kept for one peer, term and kind
// (op added as leader, as follower, safe time served): the lowest hybrid
// times, the ones a lease of an earlier term can cover first. A dump of a
// million entries then keeps a few dozen writes, not a million.
const maxWritesPerTerm = 32

// writeKey is what the writes kept are bounded per.
type writeKey struct {
	peer       string
	term       int64
	leaderSide bool
	served     bool
}

// tabletWrites is one tablet's writes: per key, the lowest-ht ones, each
// with its place in the timeline.
type tabletWrites struct {
	by      map[writeKey][]seqWrite
	seq     int
	dropped int
}

type seqWrite struct {
	seq int
	w   Write
}

// add keeps w if it is among the lowest of its key; op, when not nil, is
// its op id, printed into w.Op only if it is kept. A kept write's line is
// copied: a dump entry's text shares one string with its part's, which a
// write kept for the whole timeline would otherwise hold.
func (tw *tabletWrites) add(w Write, op *ybval.OpID) {
	tw.seq++
	k := writeKey{w.Peer, w.Term, w.LeaderSide, w.Served}
	ws := tw.by[k]
	if len(ws) < maxWritesPerTerm {
		if op != nil {
			w.Op = op.String()
		}
		w.From.text = strings.Clone(w.From.text)
		tw.by[k] = append(ws, seqWrite{tw.seq, w})
		return
	}
	tw.dropped++
	// Replace the highest kept when this one is lower.
	hi := 0
	for i := range ws {
		if ws[i].w.HT.Compare(ws[hi].w.HT) > 0 {
			hi = i
		}
	}
	if w.HT.Compare(ws[hi].w.HT) < 0 {
		if op != nil {
			w.Op = op.String()
		}
		w.From.text = strings.Clone(w.From.text)
		ws[hi] = seqWrite{tw.seq, w}
	}
}

func (s *State) addWrite(w Write, op *ybval.OpID) {
	tw := s.writes[w.Tablet]
	if tw == nil {
		tw = &tabletWrites{by: map[writeKey][]seqWrite{}}
		s.writes[w.Tablet] = tw
	}
	tw.add(w, op)
}

// EachLease calls f with each ht lease known for tablet (the highest
// expiry of each term), in no order: Leases without its sorted copy, for a
// check run on every entry of a dump.
func (s *State) EachLease(tablet string, f func(*Lease)) {
	for _, l := range s.leases[tablet] {
		f(l)
	}
}

// Writes returns tablet's writes kept, in timeline order.
func (s *State) Writes(tablet string) []Write {
	tw := s.writes[tablet]
	if tw == nil {
		return nil
	}
	var all []seqWrite
	for _, ws := range tw.by {
		all = append(all, ws...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].seq < all[j].seq })
	out := make([]Write, len(all))
	for i := range all {
		out[i] = all[i].w
	}
	return out
}

// WritesDropped is how many of tablet's writes were not kept: past
// maxWritesPerTerm for their peer, term and kind, at a higher hybrid time
// than those kept.
func (s *State) WritesDropped(tablet string) int {
	if tw := s.writes[tablet]; tw != nil {
		return tw.dropped
	}
	return 0
}

// noteWrites records the writes an MVCC event shows, against r as it stood
// before the event (its last term led decides whether a too-low op was the
// leader's own).
func (s *State) noteWrites(r *Replica, e yb.Event) {
	switch ev := e.(type) {
	case *yb.MvccDump:
		s.dumpWrites(r, ev)
	case *yb.HTTooLow:
		if ev.HasOp {
			s.addWrite(Write{Tablet: ev.Tablet, Peer: ev.Peer, Term: ev.Op.Term,
				HT: ev.HT, LeaderSide: r.LeaderTerm == ev.Op.Term, From: fromEvent(ev)}, &ev.Op)
		}
	}
}

// dumpWrites records the ops and served safe times a dump shows, crediting
// a safe time served under a lease to the leadership that held the lease
// (leaseTerms): the term of the last op the peer added as leader, else
// the last term r was seen leading, never the term of an op it replicated
// as a follower.
func (s *State) dumpWrites(r *Replica, d *yb.MvccDump) {
	if d.Part == 0 {
		r.Mvcc().writeLease = newLeaseTerms()
	}
	lt := &r.Mvcc().writeLease
	for _, it := range d.Items {
		switch it.Kind {
		case yb.AddLeaderPending, yb.AddFollowerPending:
			if !it.HasOp {
				continue
			}
			lt.see(it)
			s.addWrite(Write{Tablet: d.Tablet, Peer: d.Peer, Term: it.Op.Term, HT: it.HT,
				LeaderSide: it.Kind == yb.AddLeaderPending, From: FromItem(d.Pos.Source, it)}, &it.Op)
		case yb.SafeTime:
			if term := lt.term(r.LeaderTerm); term >= 0 && it.HasLease && it.Lease.Lease.Valid() && !it.Lease.Lease.IsMin() && it.SafeTime.Valid() && !it.SafeTime.IsMin() {
				s.addWrite(Write{Tablet: d.Tablet, Peer: d.Peer, Term: term, HT: it.SafeTime,
					LeaderSide: true, Served: true, From: FromItem(d.Pos.Source, it)}, nil)
			}
		}
	}
}
