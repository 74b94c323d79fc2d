package ybstate

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// queueShown is how many pending ops Lines shows at each end of a long
// queue.
const queueShown = 8

// Lines describes r as "name: value" lines, in a fixed order, for a
// finding's state and for test diffs.
func (r *Replica) Lines() []string {
	term := "unknown"
	if r.Term >= 0 {
		term = strconv.FormatInt(r.Term, 10)
	}
	role := r.Role()
	if role == "" {
		role = "unknown"
	}
	out := make([]string, 2, 11)
	out[0], out[1] = "term: "+term, "role: "+role
	if r.LeaderTerm >= 0 {
		out = append(out, "last term led: "+strconv.FormatInt(r.LeaderTerm, 10))
	}
	if r.mvcc == nil {
		// Every revocation takes its replica's lines, and most replicas
		// of a Raft-heavy log log no MVCC line.
		return append(out, noMvccLines...)
	}
	return r.mvcc.lines(out)
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
