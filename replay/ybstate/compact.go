package ybstate

import "slices"

// Compaction keeps a tablet's Raft history to its latest terms, so that
// memory follows the number of tablets, not the length of the log. When a
// tablet's highest term runs KeepTerms past the oldest it holds, Before is
// called with the tablet as it stands (for a rule pack to judge the old
// terms while they are still there: what Finish would have done with them),
// then the history of every term more than KeepTerms below the highest is
// dropped and counted in the tablet's Compacted: its leaders, real votes,
// NO_OPs, lease facts, revocations, election attempts, and the tablet's
// writes and MVCC dump leases of those terms. The terms, leases and
// configs a later line can still contradict are those of the latest
// terms: a leader cut off by a partition comes back within a few terms.
//
// A State compacts only once SetCompaction is given a Before: dropping
// history a rule pack has not judged would lose its findings.
type Compaction struct {
	KeepTerms int64
	Before    func(*TabletRaft)
}

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
		t.Compacted.Below = t.termsLed[0]
	}
	if term-t.Compacted.Below < 2*c.KeepTerms {
		return
	}
	c.Before(t)
	t.compactBelow(term - c.KeepTerms)
	if r.onDrop != nil {
		t.Compacted.Writes += r.onDrop(t.Tablet, term-c.KeepTerms)
	}
}

// compactBelow drops t's history of the terms below cut.
func (t *TabletRaft) compactBelow(cut int64) {
	c := &t.Compacted
	c.Below = cut
	for term, ls := range t.leaders {
		if term < cut {
			c.Leaders += len(ls)
			delete(t.leaders, term)
		}
	}
	n := t.termsBelow(cut)
	t.termsLed = slices.Delete(t.termsLed, 0, n)
	for term, vs := range t.votes {
		if term < cut {
			c.Votes += len(vs)
			delete(t.votes, term)
		}
	}
	for k, n := range t.NoOps {
		if n.Op.Term < cut {
			c.NoOps++
			delete(t.NoOps, k)
		}
	}
	kept := t.Leases[:0]
	remap := make(map[int]int, len(t.Leases))
	for i, l := range t.Leases {
		if l.Term < cut {
			c.Leases++
			continue
		}
		remap[i] = len(kept)
		kept = append(kept, l)
	}
	clear(t.Leases[len(kept):])
	t.Leases = kept
	for k, i := range t.waits {
		if j, ok := remap[i]; ok {
			t.waits[k] = j
		} else {
			delete(t.waits, k)
		}
	}
	for k := range t.waitRow {
		if k.term < cut {
			delete(t.waitRow, k)
		}
	}
	rv := t.Revocations[:0]
	for _, r := range t.Revocations {
		if r.ByTerm >= 0 && r.ByTerm < cut {
			c.Revocations++
			continue
		}
		rv = append(rv, r)
	}
	clear(t.Revocations[len(rv):])
	t.Revocations = rv
	at := t.Attempts[:0]
	amap := make(map[int]int, len(t.Attempts))
	for i, a := range t.Attempts {
		if a.Term >= 0 && a.Term < cut {
			c.Attempts++
			continue
		}
		amap[i] = len(at)
		at = append(at, a)
	}
	clear(t.Attempts[len(at):])
	t.Attempts = at
	for _, p := range t.peers {
		if j, ok := amap[p.lastAttempt]; ok && p.lastAttempt >= 0 {
			p.lastAttempt = j
		} else {
			p.lastAttempt = -1
		}
	}
	open := t.masterOpen[:0]
	for _, l := range t.masterOpen {
		if l.Term >= cut {
			open = append(open, l)
		}
	}
	clear(t.masterOpen[len(open):])
	t.masterOpen = open
}

// dropTerms drops tablet's writes and dump leases of the terms below cut
// and returns how many writes went.
func (s *State) dropTerms(tablet string, cut int64) int {
	for term := range s.leases[tablet] {
		if term < cut {
			delete(s.leases[tablet], term)
		}
	}
	tw := s.writes[tablet]
	if tw == nil {
		return 0
	}
	n := 0
	for k, ws := range tw.by {
		if k.term < cut {
			n += len(ws)
			delete(tw.by, k)
		}
	}
	return n
}
