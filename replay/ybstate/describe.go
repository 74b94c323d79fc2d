package ybstate

import (
	"fmt"
	"strings"
)

// Lines describes r as "name: value" lines, in a fixed order, for a
// finding's state and for test diffs.
func (r *Replica) Lines() []string {
	m := &r.Mvcc
	term := "unknown"
	if r.Term >= 0 {
		term = fmt.Sprint(r.Term)
	}
	role := r.Role
	if role == "" {
		role = "unknown"
	}
	out := []string{
		"term: " + term,
		"role: " + role,
	}
	if r.LeaderTerm >= 0 {
		out = append(out, fmt.Sprintf("last term led: %d", r.LeaderTerm))
	}
	if m.HasLastOp {
		out = append(out, fmt.Sprintf("last op id: %s (%s)", m.LastOp, m.LastOpFrom.Pos))
	}
	q := make([]string, len(m.Queue))
	for i, p := range m.Queue {
		q[i] = p.String()
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
