package yb

import "strings"

// raftKeywords select the Raft and lease lines raft reads.
var raftKeywords = [][]byte{
	[]byte("Advancing to term"),
	[]byte("Stepping down as leader"),
	[]byte("Becoming Leader"),
	[]byte("Becoming Follower"),
	[]byte("current role is: "),
}

// raft reads the Raft role and term transitions.
func (d *decoder) raft(base Base, text string) Event {
	ev := &RoleChange{Base: base, Term: -1, NewTerm: -1}
	switch {
	case strings.HasPrefix(text, "Advancing to term "):
		n, ok := leadingInt(text[len("Advancing to term "):])
		if !ok {
			return nil
		}
		ev.What, ev.Term = AdvanceTerm, n
	case strings.HasPrefix(text, "Stepping down as leader of term "):
		rest := text[len("Stepping down as leader of term "):]
		n, ok := leadingInt(rest)
		if !ok {
			return nil
		}
		ev.What, ev.Term, ev.NewRole = StepDown, n, "FOLLOWER"
		if i := strings.Index(rest, "new term is "); i >= 0 {
			if m, ok := leadingInt(rest[i+len("new term is "):]); ok {
				ev.NewTerm = m
			}
		}
	case strings.HasPrefix(text, "Becoming Leader"):
		ev.What, ev.Term, ev.NewRole = BecomeLeader, base.Term, "LEADER"
	case strings.HasPrefix(text, "Becoming Follower"):
		ev.What, ev.Term, ev.NewRole = BecomeFollower, base.Term, "FOLLOWER"
	case strings.HasPrefix(text, "This master's current role is: "):
		ev.What, ev.Term, ev.NewRole = MasterRole, base.Term, strings.TrimSpace(text[len("This master's current role is: "):])
	default:
		return nil
	}
	return ev
}
