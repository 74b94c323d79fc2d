package ybstate

import (
	"slices"
	"time"
)

// Compaction keeps a tablet's Raft history to its latest terms, so that
// memory follows the number of tablets, not the length of the log. When a
// tablet's highest term runs KeepTerms past the oldest it holds, Before is
// called with the tablet as it stands (for a rule pack to judge the old
// terms while they are still there: what Finish would have done with them),
// then the history of every term more than KeepTerms below the highest is
// dropped and counted in the tablet's Compacted: its NO_OPs, lease facts,
// revocations, election attempts, and the tablet's writes and MVCC dump
// leases of those terms; its leaders and real votes go once they are
// VoteTerms below the highest. What a later line can still
// contradict is kept: the latest terms (a leader cut off by a partition
// comes back within a few terms), and, whatever their term, the leases
// that had not ended by the tablet's latest line (less Slack) and each
// holder's latest lease, with the other facts and the leaderships of
// their terms: a revocation logged three terms later can still cut one
// short, and a write logged later, whose hybrid time can be older than
// the line, can still fall inside one.
//
// A State compacts only once SetCompaction is given a Before: dropping
// history a rule pack has not judged would lose its findings.
type Compaction struct {
	KeepTerms int64
	// VoteTerms is how many of the latest terms keep their leaders and
	// real votes, at least KeepTerms (0 is KeepTerms): a second leader or
	// a second vote in an old term is seen by the line that makes it, and
	// needs only those, so they can be kept further back than the rest of
	// the history (leases, revocations with their state, attempts).
	VoteTerms int64
	// Before is given the tablet and the cut: every term below cut is
	// about to go.
	Before func(t *TabletRaft, cut int64)
	// Slack is how long before the tablet's latest line a lease may have
	// ended and still be kept, whatever its term (a later revocation or
	// write can still contradict it): the clock skew the rules allow
	// between hosts. Nil is DefaultSlack.
	Slack func() time.Duration
}

// DefaultSlack is Compaction's Slack when none is given: twice
// YugabyteDB's default max_clock_skew_usec.
const DefaultSlack = time.Second

// Compacted counts what compaction dropped from a tablet.
type Compacted struct {
	// Below is the lowest term still held: every term under it is gone.
	Below                                                        int64
	Leaders, Votes, NoOps, Leases, Revocations, Attempts, Writes int
}

// SetCompaction turns compaction on (c.Before not nil) or off.
func (s *State) SetCompaction(c Compaction) {
	if c.KeepTerms <= 0 {
		c.KeepTerms = 16
	}
	c.VoteTerms = max(c.VoteTerms, c.KeepTerms)
	s.raft.compaction = c
	s.raft.onDrop = s.dropTerms
}

// maybeCompact compacts t when its terms have run far enough.
func (r *Raft) maybeCompact(t *TabletRaft, term int64) {
	c := r.compaction
	if c.Before == nil || term < 0 {
		return
	}
	if !t.compactInit {
		t.compactInit = true
		t.below = t.led[0].Term
	}
	if term-t.below < 2*c.KeepTerms {
		return
	}
	c.Before(t, term-c.KeepTerms)
	slack := DefaultSlack
	if c.Slack != nil {
		slack = c.Slack()
	}
	live := t.latest().Add(-slack).UnixMicro()
	keep := map[int64]bool{}
	if r.onDrop != nil {
		n, kept := r.onDrop(t.Tablet, term-c.KeepTerms, live)
		t.more().moreRarer().compacted.Writes += n
		for _, k := range kept {
			keep[k] = true
		}
	}
	t.compactBelow(term-c.KeepTerms, term-c.VoteTerms, live, keep)
}

// latest is the wall time of t's latest timed line the compaction can
// see: leaderships, their ends, leases and election attempts.
func (t *TabletRaft) latest() time.Time {
	var at time.Time
	later := func(x time.Time) {
		if x.After(at) {
			at = x
		}
	}
	for _, l := range t.led {
		if l.Timed {
			later(l.At)
		}
		later(l.EndAt())
	}
	for _, l := range t.rare().leases {
		later(l.At)
	}
	for _, rv := range t.rare().revocations {
		if rv.lease {
			later(rv.At)
		}
	}
	for _, a := range t.rare().attempts {
		if a.Timed {
			later(a.At)
		}
	}
	return at
}

// compactBelow drops t's history of the terms below cut, but for the
// leases that end at or after live (microseconds since the epoch) and the
// leaderships of their terms and of the terms in keep (those whose MVCC
// dump leases were kept): those a later line can still contradict. The
// leaders and real votes of the terms from voteCut (at most cut) stay.
func (t *TabletRaft) compactBelow(cut, voteCut, live int64, keep map[int64]bool) {
	x := t.more()
	y := x.moreRarer()
	c := &y.compacted
	t.below = cut
	// The NO_OPs kept in their leaderships go with the other NO_OPs of
	// their terms, before the leaderships themselves may.
	for _, l := range t.led {
		if l.noOp && l.Term < cut {
			l.noOp, l.noOpIndex = false, 0
			c.NoOps++
		}
	}
	// Each holder's latest lease (of the later term if two end together)
	// stays as well, ended or not: a write logged later can carry a
	// hybrid time from before the line (a dump lists the recent
	// operations), and a new leader's write below the lease of the leader
	// before is the break itself.
	type latestLease struct {
		holder    string
		term, end int64
	}
	var latest [8]latestLease
	held := latest[:0]
	live1 := func(l LeaseFact) {
		if l.Term < 0 {
			return
		}
		end := l.EndMicros()
		if l.Term < cut && end >= live {
			keep[l.Term] = true
		}
		for i := range held {
			if held[i].holder == l.Holder {
				if end > held[i].end || end == held[i].end && l.Term > held[i].term {
					held[i].term, held[i].end = l.Term, end
				}
				return
			}
		}
		held = append(held, latestLease{l.Holder, l.Term, end})
	}
	for _, l := range x.leases {
		live1(l)
	}
	for i := range x.revocations {
		if rv := &x.revocations[i]; rv.lease {
			live1(rv.leaseFact())
		}
	}
	for _, h := range held {
		if h.holder != "" && h.term < cut {
			keep[h.term] = true
		}
	}
	t.led = slices.DeleteFunc(t.led, func(l *Leadership) bool {
		if l.Term < voteCut && !keep[l.Term] {
			c.Leaders++
			y.dropLeader(l)
			return true
		}
		return false
	})
	nv := len(x.votes)
	x.votes = slices.DeleteFunc(x.votes, func(v VoteRec) bool { return v.Term < voteCut })
	c.Votes += nv - len(x.votes)
	// The leaders and votes kept below cut are there for a second leader
	// or vote in their term, which the finding cites by position: their
	// lines' text goes, as the line of each would hold the log's memory
	// for VoteTerms terms of every tablet. The terms whose leases are
	// kept keep it: a revocation's finding quotes their leader's line.
	for _, l := range t.led {
		if l.Term >= cut || keep[l.Term] {
			continue
		}
		l.Since.text = ""
		if l.end != nil {
			l.end.from.text = ""
		}
	}
	for i := range x.votes {
		if x.votes[i].Term < cut && !keep[x.votes[i].Term] {
			x.votes[i].From.text = ""
		}
	}
	n := len(t.noOps)
	t.noOps = slices.DeleteFunc(t.noOps, func(n NoOpRec) bool { return n.Op.Term < cut })
	c.NoOps += n - len(t.noOps)
	remap := x.compactLeases(func(term int64) bool { return term < cut && !keep[term] },
		func(rv *Revocation) bool { return rv.ByTerm >= 0 && rv.ByTerm < cut }, c)
	for k, i := range y.waits {
		if j := moved(remap, i); j >= 0 {
			y.waits[k] = j
		} else {
			delete(y.waits, k)
		}
	}
	for k := range y.waitRow {
		if k.term < cut && !keep[k.term] {
			delete(y.waitRow, k)
		}
	}
	dropAttempt := func(a Attempt) bool { return a.Term >= 0 && a.Term < cut }
	for _, p := range t.peers {
		if p.lastAttempt < 0 || !dropAttempt(x.attempts[p.lastAttempt]) {
			continue
		}
		a := x.attempts[p.lastAttempt]
		a.From = From{}
		if d := y.droppedAttempt(p.Peer); d != nil {
			*d = a
		} else {
			y.droppedAttempts = append(y.droppedAttempts, a)
		}
	}
	var amap []int
	x.attempts, amap = keepIndexed(x.attempts, dropAttempt)
	c.Attempts += len(amap) - len(x.attempts)
	for _, p := range t.peers {
		if j := moved(amap, int(p.lastAttempt)); j >= 0 {
			p.lastAttempt = int32(j)
		} else {
			p.lastAttempt = -1
		}
	}
	open := y.masterOpen[:0]
	for _, l := range y.masterOpen {
		if l.Term >= cut {
			open = append(open, l)
		}
	}
	clear(y.masterOpen[len(open):])
	y.masterOpen = open
}

// dropLeader keeps l, which compaction drops, in lastDropped if it is
// the latest of its peer's so far.
func (y *tabletRarer) dropLeader(l *Leadership) {
	i := slices.IndexFunc(y.lastDropped, func(d *Leadership) bool { return d.Peer == l.Peer })
	switch {
	case i < 0:
		y.lastDropped = append(y.lastDropped, l)
	case y.lastDropped[i].Term < l.Term:
		y.lastDropped[i] = l
	}
}

// dropTerms drops tablet's writes and dump leases of the terms below cut,
// but for the dump leases that end at or after live, and returns how many
// writes went and the terms below cut whose dump lease it kept.
func (s *State) dropTerms(tablet string, cut, live int64) (int, []int64) {
	var kept []int64
	for term, l := range s.leases[tablet] {
		if term >= cut {
			continue
		}
		if l.Expiry.Point() && int64(l.Expiry.Physical) >= live {
			kept = append(kept, term)
			continue
		}
		delete(s.leases[tablet], term)
	}
	tw := s.writes[tablet]
	if tw == nil {
		return 0, kept
	}
	n := 0
	for k, kw := range tw.by {
		if k.term < cut {
			n += len(kw.ws)
			delete(tw.by, k)
		}
	}
	tw.last, tw.lastKept = writeKey{}, nil
	return n, kept
}

// compactLeases drops the lease facts of the terms dropTerm says and the
// revocations dropRev says, counting them in c, and gives where each
// lease of the array moved (keepIndexed). A revocation's fact goes or
// stays by its holder's term, as the others do; a fact whose revocation
// goes stays as a fact of its own. An array a view holds is left to the
// view, and what is kept goes to a new one.
func (x *tabletRare) compactLeases(dropTerm func(int64) bool, dropRev func(*Revocation) bool, c *Compacted) (remap []int) {
	orphans := 0
	for i := range x.revocations {
		if rv := &x.revocations[i]; rv.lease && !dropTerm(rv.HolderTerm) && dropRev(rv) {
			orphans++
		}
	}
	oldLeases, oldRevs := x.leases, x.revocations
	// An array of its own only shrinks, in place: an element is written
	// at or before the one being read.
	leases, revs := oldLeases[:0], oldRevs[:0]
	if orphans > 0 || x.leasesShared {
		leases = make([]LeaseFact, 0, len(oldLeases)+orphans)
	}
	if x.revocationsShared {
		revs = make([]Revocation, 0, len(oldRevs))
	}
	remap = make([]int, len(oldLeases))
	next := 0
	keepUpTo := func(end int) {
		for ; next < end; next++ {
			if l := &oldLeases[next]; dropTerm(l.Term) {
				remap[next] = -1
				c.Leases++
			} else {
				remap[next] = len(leases)
				leases = append(leases, *l)
			}
		}
	}
	for i := range oldRevs {
		rv := &oldRevs[i]
		keepUpTo(int(rv.pos))
		fact := rv.lease && !dropTerm(rv.HolderTerm)
		if rv.lease && !fact {
			c.Leases++
		}
		if dropRev(rv) {
			c.Revocations++
			if fact {
				leases = append(leases, rv.leaseFact())
			}
			continue
		}
		kept := *rv
		kept.lease, kept.pos = fact, int32(len(leases))
		revs = append(revs, kept)
	}
	keepUpTo(len(oldLeases))
	if !x.leasesShared && orphans == 0 {
		clear(oldLeases[len(leases):])
	}
	if x.revocationsShared {
		// The views read only the lease facts of the array they keep:
		// what else its revocations hold goes, or a revocation's view
		// would keep the array of an older one, and so on, one
		// compaction after another.
		for i := range oldRevs {
			oldRevs[i].Before, oldRevs[i].Replica = nil, ReplicaLines{}
		}
	} else {
		clear(oldRevs[len(revs):])
	}
	x.leases, x.revocations = leases, revs
	x.leasesShared, x.revocationsShared = false, false
	return remap
}

// keepIndexed drops the items of s that drop takes, in place, and returns
// what is kept with where each item went: remap[i] is the new index of
// s[i], or -1.
func keepIndexed[T any](s []T, drop func(T) bool) (kept []T, remap []int) {
	remap = make([]int, len(s))
	kept = s[:0]
	for i, v := range s {
		if drop(v) {
			remap[i] = -1
			continue
		}
		remap[i] = len(kept)
		kept = append(kept, v)
	}
	clear(s[len(kept):])
	return kept, remap
}

// moved is remap[i] (keepIndexed), or -1 for an index it does not hold.
func moved(remap []int, i int) int {
	if i < 0 || i >= len(remap) {
		return -1
	}
	return remap[i]
}
