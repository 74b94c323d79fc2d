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
	by      map[writeKey]*keptWrites
	seq     int
	dropped int
	// last is the key of the latest write and lastKept its writes: the
	// entries of a dump mostly share one key, so most writes skip the map.
	last     writeKey
	lastKept *keptWrites
}

// keptWrites is the writes kept for one key.
type keptWrites struct {
	ws []seqWrite
	// hi is the index in ws of the highest hybrid time once ws is full,
	// the write a lower one replaces: found again only on a replacement,
	// not on every write dropped.
	hi int
}

type seqWrite struct {
	seq int
	w   Write
}

// highest is the index of the first of the kept writes with the highest
// hybrid time.
func (kw *keptWrites) highest() int {
	hi := 0
	for i := range kw.ws {
		if kw.ws[i].w.HT.Compare(kw.ws[hi].w.HT) > 0 {
			hi = i
		}
	}
	return hi
}

// kept returns the writes kept for k, made empty on first use.
func (tw *tabletWrites) kept(k writeKey) *keptWrites {
	if tw.lastKept != nil && tw.last == k {
		return tw.lastKept
	}
	kw := tw.by[k]
	if kw == nil {
		kw = &keptWrites{}
		tw.by[k] = kw
	}
	tw.last, tw.lastKept = k, kw
	return kw
}

// add keeps w if it is among the lowest of its key; op, when not nil, is
// its op id, printed into w.Op only if it is kept. A kept write's line is
// copied: a dump entry's text shares one string with its part's, which a
// write kept for the whole timeline would otherwise hold.
func (tw *tabletWrites) add(w Write, op *ybval.OpID) {
	tw.seq++
	kw := tw.kept(writeKey{w.Peer, w.Term, w.LeaderSide, w.Served})
	if len(kw.ws) < maxWritesPerTerm {
		kw.ws = append(kw.ws, seqWrite{tw.seq, keep(w, op)})
		if len(kw.ws) == maxWritesPerTerm {
			kw.hi = kw.highest()
		}
		return
	}
	tw.dropped++
	// Replace the highest kept when this one is lower.
	if w.HT.Compare(kw.ws[kw.hi].w.HT) < 0 {
		kw.ws[kw.hi] = seqWrite{tw.seq, keep(w, op)}
		kw.hi = kw.highest()
	}
}

// keep is w as kept: its op id printed and its line copied.
func keep(w Write, op *ybval.OpID) Write {
	if op != nil {
		w.Op = op.String()
	}
	w.From.text = strings.Clone(w.From.text)
	return w
}

// writesOf is tablet's writes, made empty on first use.
func (s *State) writesOf(tablet string) *tabletWrites {
	tw := s.writes[tablet]
	if tw == nil {
		tw = &tabletWrites{by: map[writeKey]*keptWrites{}}
		s.writes[tablet] = tw
	}
	return tw
}

func (s *State) addWrite(w Write, op *ybval.OpID) { s.writesOf(w.Tablet).add(w, op) }

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
	for _, kw := range tw.by {
		all = append(all, kw.ws...)
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
	// The tablet's writes are looked up once per part, not per entry.
	var tw *tabletWrites
	for i := range d.Items {
		it := &d.Items[i]
		switch it.Kind {
		case yb.AddLeaderPending, yb.AddFollowerPending:
			if !it.HasOp {
				continue
			}
			lt.see(it)
			if tw == nil {
				tw = s.writesOf(d.Tablet)
			}
			tw.add(Write{Tablet: d.Tablet, Peer: d.Peer, Term: it.Op.Term, HT: it.HT,
				LeaderSide: it.Kind == yb.AddLeaderPending, From: FromItem(d.Pos.Source, it)}, &it.Op)
		case yb.SafeTime:
			if term := lt.term(r.LeaderTerm); term >= 0 && it.HasLease && it.Lease.Lease.Valid() && !it.Lease.Lease.IsMin() && it.SafeTime.Valid() && !it.SafeTime.IsMin() {
				if tw == nil {
					tw = s.writesOf(d.Tablet)
				}
				tw.add(Write{Tablet: d.Tablet, Peer: d.Peer, Term: term, HT: it.SafeTime,
					LeaderSide: true, Served: true, From: FromItem(d.Pos.Source, it)}, nil)
			}
		}
	}
}
