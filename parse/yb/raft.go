package yb

import (
	"slices"
	"strings"
)

// raftKeywords select the Raft and lease lines raft reads. They run on
// every line (interesting), so they are plain bytes: the literals raft's
// own tests need, as raftMayRead reads them (each opening, each phrase
// found anywhere, the words of a `Leader ...` line), so a line raft reads
// holds one. Taking the tests' literals rather than shorter stems (such as
// "lection") keeps every phrase at 12 bytes or more, and the matcher's
// window, as long as its shortest phrase, then moves up to 10 bytes a
// step; it also leaves out the election lines no test takes.
var raftKeywords = slices.Concat(raftLeaderWords, raftOpenings, [][]byte{raftRejecting}, raftAnywherePhrases)

// raftWords are the words of Raft's messages, read or not (an election's
// `Term N pre-election: Requesting vote from peer X` is not): knows takes a
// line without an envelope that holds one for YugabyteDB's. It runs only
// on such lines, so its stems may be short.
var raftWords = newMatcher([][]byte{
	[]byte("Advancing to term"),
	[]byte("Stepping down as leader"),
	[]byte("Becoming Leader"),
	[]byte("Becoming Follower"),
	[]byte("current role is: "),
	[]byte("lection"), // election, pre-election, Pre-election
	[]byte("ReportFailDetected"),
	[]byte("vote request"),
	[]byte("Sending NO_OP"),
	[]byte("leadership to"),
	[]byte("protege"),
	[]byte("Protege"),
	[]byte("Revoked old leader"),
	[]byte("Reset our "),
	[]byte("lease might still be active"),
	[]byte("Old leader may have"),
	[]byte("Log matching property violated"),
	[]byte("Rejecting Update request"),
	[]byte("Updating active role"),
})

// maxRaftText bounds how much of a message raft looks at: Raft lines carry
// their facts in the first few hundred bytes, and a config dump after them
// must not cost a scan per keyword.
const maxRaftText = 4096

// raft reads the Raft role, term, election, vote, leadership-transfer and
// lease lines. It returns nil for anything else.
func (d *decoder) raft(base Base, text string) Event {
	ev := d.raftEvent(base, text)
	d.ownIDs(ev)
	return ev
}

// ownIDs gives the peer uuids a Raft event names in its message (not its
// prefix, which prefixIn reads through the interner) strings of their
// own: cut out of the line, each would hold the whole line's text for
// as long as the replayed state keeps the id, a lease's holder or a
// vote's candidate per tablet.
func (d *decoder) ownIDs(ev Event) {
	in := &d.ids
	switch e := ev.(type) {
	case *LeaseRevoked:
		if e != nil {
			e.Holder = in.ofString(e.Holder)
		}
	case *Vote:
		if e != nil {
			e.Candidate, e.VotedFor = in.ofString(e.Candidate), in.ofString(e.VotedFor)
		}
	case *Transfer:
		if e != nil {
			e.To = in.ofString(e.To)
		}
	case *UpdateRejected:
		if e != nil {
			e.From = in.ofString(e.From)
		}
	case *ElectionStart:
		if e != nil {
			e.FailedLeader = in.ofString(e.FailedLeader)
		}
	}
}

// raftEvent is raft before ownIDs.
func (d *decoder) raftEvent(base Base, text string) Event {
	if len(text) > maxRaftText {
		text = text[:maxRaftText]
	}
	for len(text) > 0 && text[0] == ' ' {
		text = text[1:]
	}
	if len(text) == 0 {
		return nil
	}
	if c := text[0]; c == 'A' || c == 'S' || c == 'B' || c == 'T' {
		// The openings roleChange reads.
		if ev := roleChange(base, text); ev != nil {
			return ev
		}
	}
	// One pass, made when a case first needs it, tells whether the text
	// holds any of the phrases the cases below look for anywhere
	// (raftAnywhere); where it holds none, those cases are not tried.
	asked, holds := false, false
	anywhere := func() bool {
		if !asked {
			asked, holds = true, raftAnywhere.matchString(text)
		}
		return holds
	}
	switch {
	case strings.HasPrefix(text, "Leader ") && strings.Contains(text, "vote request: "):
		return vote(base, text)
	case strings.HasPrefix(text, "Pre-election. Granting vote for candidate "):
		c, rest := tok(text[len("Pre-election. Granting vote for candidate "):])
		return &Vote{Base: base, Pre: true, Granted: true, Candidate: c, Term: termAfter(rest, "in term ")}
	case strings.HasPrefix(text, "Leader ") && (strings.Contains(text, " won for term ") || strings.Contains(text, " lost for term ") || strings.Contains(text, " decision for defunct term ")):
		return electionResult(base, text)
	case anywhere() && strings.Contains(text, "Triggering leader "):
		return electionStart(base, text)
	case strings.HasPrefix(text, "ReportFailDetected: Starting "):
		return &ElectionStart{Base: base, Mode: modeWord(text[len("ReportFailDetected: Starting "):])}
	case strings.HasPrefix(text, "Starting election with config") || strings.HasPrefix(text, "Starting pre-election with config"):
		return &ElectionStart{Base: base, Pre: strings.HasPrefix(text, "Starting pre-"), PreKnown: true}
	case strings.HasPrefix(text, "Sending NO_OP at op "):
		s, _ := tok(text[len("Sending NO_OP at op "):])
		op, err := raftOpID(strings.TrimRight(s, ".,"))
		if err != nil {
			return nil
		}
		return &NoOp{Base: base, Op: op}
	case strings.HasPrefix(text, "Transferring leadership to "):
		to, _ := tok(text[len("Transferring leadership to "):])
		return &Transfer{Base: base, What: TransferStart, To: strings.TrimRight(to, ".,")}
	case strings.HasPrefix(text, "Selected up to date candidate protege leader ["):
		rest := text[len("Selected up to date candidate protege leader ["):]
		to, _, _ := strings.Cut(rest, "]")
		return &Transfer{Base: base, What: TransferProtege, To: to}
	case strings.HasPrefix(text, "Step down in favor on not synchronized protege: "):
		to, _ := tok(text[len("Step down in favor on not synchronized protege: "):])
		return &Transfer{Base: base, What: TransferUnsynced, To: to}
	case strings.HasPrefix(text, "Delay step down: "):
		// raft_consensus.cc StepDown: DelayedStepDown's ToString.
		to := ""
		if _, rest, ok := strings.Cut(text, "protege: "); ok {
			to, _ = tok(rest)
		}
		return &Transfer{Base: base, What: TransferDelayed, To: to}
	case strings.HasPrefix(text, "Protege synchronized"):
		return &Transfer{Base: base, What: TransferSynced}
	case strings.HasPrefix(text, "Revoked old leader "):
		return revoked(base, text[len("Revoked old leader "):])
	case strings.HasPrefix(text, "Reset our ht lease: "):
		ht, err := raftHT(strings.TrimSpace(text[len("Reset our ht lease: "):]))
		if err != nil {
			return nil
		}
		return &LeaseReset{Base: base, HT: true, Expiry: ht}
	case strings.HasPrefix(text, "Reset our lease: "):
		s, _ := tok(text[len("Reset our lease: "):])
		d, err := raftDelta(s)
		if err != nil {
			return nil
		}
		return &LeaseReset{Base: base, Since: d}
	case anywhere() && strings.Contains(text, "Previous leader's lease might still be active ("):
		rest := text[strings.Index(text, "Previous leader's lease might still be active (")+len("Previous leader's lease might still be active ("):]
		ev := &OldLeaseWait{Base: base}
		s, _ := tok(rest)
		if d, err := raftDelta(s); err == nil {
			ev.Remaining, ev.HasRemaining = d, true
		}
		return ev
	case anywhere() && strings.Contains(text, "Old leader may have hybrid time lease, while adding: "):
		op, _ := tok(text[strings.Index(text, "Old leader may have hybrid time lease, while adding: ")+len("Old leader may have hybrid time lease, while adding: "):])
		return &OldLeaseWait{Base: base, HT: true, Op: strings.TrimRight(op, ".,;)")}
	case anywhere() && strings.Contains(text, "Old leader may have lease, while adding: "):
		op, _ := tok(text[strings.Index(text, "Old leader may have lease, while adding: ")+len("Old leader may have lease, while adding: "):])
		return &OldLeaseWait{Base: base, Op: strings.TrimRight(op, ".,;)")}
	case strings.HasPrefix(text, "Refusing update from remote peer ") && strings.Contains(text, "Log matching property violated"):
		from, rest := tok(text[len("Refusing update from remote peer "):])
		ev := &UpdateRejected{Base: base, From: strings.TrimRight(from, ":"), Term: -1, Current: -1}
		if i := strings.LastIndex(rest, "("); i >= 0 {
			if m, _, ok := strings.Cut(rest[i+1:], ")"); ok {
				ev.Mismatch = m
			}
		}
		return ev
	case strings.HasPrefix(text, "Rejecting Update request from peer "):
		from, rest := tok(text[len("Rejecting Update request from peer "):])
		if !strings.Contains(rest, "for earlier term ") {
			return nil
		}
		return &UpdateRejected{Base: base, From: from, EarlierTerm: true,
			Term: termAfter(rest, "for earlier term "), Current: termAfter(rest, "Current term is ")}
	case strings.HasPrefix(text, "Updating active role from "):
		from, rest := tok(text[len("Updating active role from "):])
		if !strings.HasPrefix(rest, " to ") {
			return nil
		}
		to, _ := tok(rest[len(" to "):])
		return &ActiveRole{Base: base, From: from, To: strings.TrimRight(to, ".,")}
	}
	return nil
}

// roleChange reads the term and role transitions state.go folds.
func roleChange(base Base, text string) Event {
	switch {
	case strings.HasPrefix(text, "Advancing to term "), strings.HasPrefix(text, "Stepping down as leader of term "),
		strings.HasPrefix(text, "Becoming Leader"), strings.HasPrefix(text, "Becoming Follower"),
		strings.HasPrefix(text, "This master's current role is: "):
	default:
		return nil
	}
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

// vote reads `Leader [pre-]election vote request: Granting yes vote for
// candidate X in term N.` and the `Denying vote to candidate X ...` forms.
func vote(base Base, text string) Event {
	i := strings.Index(text, "vote request: ")
	kind := strings.ToLower(text[len("Leader "):i])
	rest := text[i+len("vote request: "):]
	ev := &Vote{Base: base, Pre: strings.Contains(kind, "pre"), Term: -1}
	switch {
	case strings.HasPrefix(rest, "Granting yes vote for candidate "):
		c, tail := tok(rest[len("Granting yes vote for candidate "):])
		ev.Granted, ev.Candidate, ev.Term = true, c, termAfter(tail, "in term ")
	case strings.HasPrefix(rest, "Already granted yes vote for candidate "):
		// A repeated request the voter answers with the vote it already
		// gave: the same vote, not a second one.
		c, tail := tok(rest[len("Already granted yes vote for candidate "):])
		ev.Granted, ev.Candidate, ev.Term = true, c, termAfter(tail, "in term ")
	case strings.HasPrefix(rest, "Denying vote to candidate "):
		c, tail := tok(rest[len("Denying vote to candidate "):])
		ev.Candidate = c
		switch {
		case strings.Contains(tail, "for earlier term "):
			ev.Term = termAfter(tail, "for earlier term ")
		case strings.Contains(tail, "for term "):
			ev.Term = termAfter(tail, "for term ")
		default:
			ev.Term = termAfter(tail, "term ")
		}
		if j := strings.Index(tail, "because "); j >= 0 {
			ev.Reason = strings.TrimRight(clipRaft(tail[j+len("because "):]), ".")
		} else if j := strings.Index(tail, ": "); j >= 0 {
			ev.Reason = strings.TrimRight(clipRaft(tail[j+2:]), ".")
		}
		if j := strings.Index(tail, "Already voted for candidate "); j >= 0 {
			ev.VotedFor, _ = tok(tail[j+len("Already voted for candidate "):])
		}
	default:
		return nil
	}
	if ev.Candidate == "" {
		return nil
	}
	return ev
}

// electionResult reads `Leader [pre-]election won|lost for term N[. Reason:
// R]` and `Leader [pre-]election decision for defunct term N: won|lost`.
func electionResult(base Base, text string) Event {
	kind, rest := tok(text[len("Leader "):])
	ev := &ElectionResult{Base: base, Pre: strings.Contains(strings.ToLower(kind), "pre")}
	rest = strings.TrimLeft(rest, " ")
	switch {
	case strings.HasPrefix(rest, "won for term "):
		ev.Won, ev.Term = true, termAfter(rest, "won for term ")
	case strings.HasPrefix(rest, "lost for term "):
		ev.Term = termAfter(rest, "lost for term ")
		if j := strings.Index(rest, "Reason: "); j >= 0 {
			ev.Reason = strings.TrimRight(clipRaft(rest[j+len("Reason: "):]), ".")
			if k := strings.Index(ev.Reason, ". Originator"); k >= 0 {
				ev.Reason = ev.Reason[:k]
			}
		}
	case strings.HasPrefix(rest, "decision for defunct term "):
		ev.Defunct, ev.Term = true, termAfter(rest, "decision for defunct term ")
		ev.Won = strings.Contains(rest, ": won")
	default:
		return nil
	}
	if ev.Term < 0 {
		return nil
	}
	return ev
}

// electionStart reads `[Fail [or stepdown] of leader X detected. ]Triggering
// leader [pre-]election, mode=M`.
func electionStart(base Base, text string) Event {
	ev := &ElectionStart{Base: base, PreKnown: true}
	i := strings.Index(text, "Triggering leader ")
	head, rest := text[:i], text[i+len("Triggering leader "):]
	ev.Pre = strings.HasPrefix(rest, "pre-election")
	if !ev.Pre && !strings.HasPrefix(rest, "election") {
		return nil
	}
	if j := strings.Index(rest, "mode="); j >= 0 {
		ev.Mode = modeWord(rest[j+len("mode="):])
	}
	if j := strings.Index(head, "of leader "); j >= 0 {
		ev.FailedLeader, _ = tok(head[j+len("of leader "):])
	}
	return ev
}

// termAfter reads the number after key in s, or -1.
func termAfter(s, key string) int64 {
	i := strings.Index(s, key)
	if i < 0 {
		return -1
	}
	n, ok := leadingInt(s[i+len(key):])
	if !ok {
		return -1
	}
	return n
}

// modeWord reads an election mode name (NORMAL_ELECTION, ...).
func modeWord(s string) string {
	i := 0
	for i < len(s) && i < 64 && (s[i] >= 'A' && s[i] <= 'Z' || s[i] == '_') {
		i++
	}
	return s[:i]
}

// revoked reads what follows `Revoked old leader `: `X lease: D` or `X ht
// lease: HT`. The holder is empty when replica_state printed none.
func revoked(base Base, rest string) Event {
	holder := ""
	if !strings.HasPrefix(rest, "lease: ") && !strings.HasPrefix(rest, "ht lease: ") && !strings.HasPrefix(rest, " ") {
		holder, rest = tok(rest)
	}
	rest = strings.TrimLeft(rest, " ")
	switch {
	case strings.HasPrefix(rest, "ht lease: "):
		ht, err := raftHT(strings.TrimSpace(rest[len("ht lease: "):]))
		if err != nil {
			return nil
		}
		return &LeaseRevoked{Base: base, Holder: holder, HT: true, Expiry: ht}
	case strings.HasPrefix(rest, "lease: "):
		s, _ := tok(rest[len("lease: "):])
		d, err := raftDelta(s)
		if err != nil {
			return nil
		}
		return &LeaseRevoked{Base: base, Holder: holder, Remaining: d}
	}
	return nil
}

// tok splits s at its first space (at most 128 bytes in): the leading
// token and the rest, which keeps the space.
func tok(s string) (string, string) {
	i := 0
	for i < len(s) && i < 128 && s[i] != ' ' {
		i++
	}
	return s[:i], s[i:]
}

// clipRaft bounds a reason text kept from a line.
func clipRaft(s string) string {
	if len(s) > 200 {
		return s[:200]
	}
	return s
}
