package ybstate

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// queueShown is how many pending ops Lines shows at each end of a long
// queue.
const queueShown = 8

// Lines describes r as "name: value" lines, in a fixed order, for a
// finding's state and for test diffs.
func (r *Replica) Lines() []string {
	out := raftLines(r.Term, r.role, r.LeaderTerm)
	if r.mvcc == nil {
		return append(out, noMvccLines...)
	}
	return r.mvcc.lines(out)
}

// raftLines are the first lines of a replica's Lines: its term, role and
// the last term it led.
func raftLines(term int64, role roleName, leaderTerm int64) []string {
	t := "unknown"
	if term >= 0 {
		t = strconv.FormatInt(term, 10)
	}
	rs := role.String()
	if rs == "" {
		rs = "unknown"
	}
	out := make([]string, 2, 11)
	out[0], out[1] = "term: "+t, "role: "+rs
	if leaderTerm >= 0 {
		out = append(out, "last term led: "+strconv.FormatInt(leaderTerm, 10))
	}
	return out
}

// ReplicaLines is a replica's Lines as they stood at one moment, for a
// finding's state. Every revocation takes its replica's, and most never
// become a finding: a replica without MVCC state (most replicas of a
// Raft-heavy log log no MVCC line) keeps its term and role, and the lines
// are made when read.
type ReplicaLines struct {
	// lines are the lines of a replica with MVCC state, taken then.
	lines            []string
	term, leaderTerm int64
	role             roleName
	set              bool
}

// linesOf takes r's lines as they stand.
func linesOf(r *Replica) ReplicaLines {
	if r.mvcc != nil {
		return ReplicaLines{lines: r.Lines(), set: true}
	}
	return ReplicaLines{term: r.Term, leaderTerm: r.LeaderTerm, role: r.role, set: true}
}

// Lines are the replica's Lines as they stood, or nil for none taken;
// an append to them does not change them.
func (l *ReplicaLines) Lines() []string {
	if !l.set || l.lines != nil {
		return slices.Clip(l.lines)
	}
	return append(raftLines(l.term, l.role, l.leaderTerm), noMvccLines...)
}

// noMvccLines are the lines of a replica without MVCC state.
var noMvccLines = (&Mvcc{}).lines(nil)

// lines appends m's lines to out.
func (m *Mvcc) lines(out []string) []string {
	if m.HasLastOp {
		out = append(out, fmt.Sprintf("last op id: %s (%s)", m.LastOp, m.LastOpFrom.Pos))
	}
	// A long queue is shown by its ends: every finding carries this
	// state, and a hostile dump can hold thousands of pending ops.
	var q []string
	for i, p := range m.Queue {
		if n := len(m.Queue); n > 2*queueShown && i >= queueShown && i < n-queueShown {
			if i == queueShown {
				q = append(q, fmt.Sprintf("... %d more", n-2*queueShown))
			}
			continue
		}
		q = append(q, p.String())
	}
	out = append(out,
		"pending queue (as logged): ["+strings.Join(q, ", ")+"]",
		"last replicated: "+m.LastReplicated.String(),
		"propagated safe time: "+m.Propagated.String(),
		"max safe time served with lease: "+m.WithLease.String(),
		"max safe time served without lease: "+m.WithoutLease.String(),
		"max safe time served for followers: "+m.ForFollower.String(),
	)
	if m.HTLease != nil {
		out = append(out, "ht lease: "+m.HTLease.String())
	}
	return out
}

// String prints r on several lines.
func (r *Replica) String() string {
	return r.Key.String() + "\n  " + strings.Join(r.Lines(), "\n  ")
}

// Describe writes the replayed state of the replicas of tablet (all
// tablets when empty) and peer (all peers when empty), for `logsleuth
// state`. Log text in it is the caller's to sanitise.
func (s *State) Describe(w io.Writer, tablet, peer string) {
	for _, r := range s.Replicas() {
		if (tablet != "" && r.Tablet != tablet) || (peer != "" && r.Peer != peer) {
			continue
		}
		fmt.Fprintln(w, r.String())
	}
}
