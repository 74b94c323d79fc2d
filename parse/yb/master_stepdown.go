package yb

import (
	"strconv"
	"strings"
)

// masterKeywords select the master's leader step-down task lines
// (src/yb/master/async_rpc_tasks.cc, AsyncTryStepDown): the tablet
// servers' own `Stepping down as leader of term N` is raft's.
var masterKeywords = [][]byte{
	[]byte("Stepping down leader "),
	[]byte("Leader step down done attempt="),
}

// MasterStepDown is the master asking a tablet's leader to step down, or
// hearing back (AsyncTryStepDown, which the load balancer and leader moves
// start):
//
//	Stepping down leader L for tablet T[ with new leader N]
//	Leader step down done attempt=A, leader_uuid=L, change_uuid=C, error=E, failed=F, should_remove=R for tablet T.
//
// Both come after the task's log prefix (`<description> (task=0x..,
// state=kRunning): `). Replica is (T, L): the event is the master's word
// about that leader, not the leader's own; its term is not printed.
type MasterStepDown struct {
	Base
	Leader string
	// NewLeader is the peer the request hands leadership to, "" when the
	// request named none (or for a done line).
	NewLeader string
	// Done is set for the outcome line; Attempt, Change, Error, Failed
	// and ShouldRemove are read from it.
	Done    bool
	Attempt int
	// Change is change_uuid: the peer the task was about (the leader
	// itself, or a replica to remove once it stepped down).
	Change string
	// Error is the response's error as printed, "" when there was none.
	Error string
	// Failed is the failed= flag; FailedKnown is false when the line cut
	// before it.
	Failed       bool
	FailedKnown  bool
	ShouldRemove bool
}

func (*MasterStepDown) Kind() string { return "yb.master-step-down" }

// SteppedDown reports whether the outcome line shows the leader stepped
// down: no error in the response. Builds before the fix of the failed=
// flag printed failed=1 for a response without an error too, so the
// error field decides.
func (e *MasterStepDown) SteppedDown() bool { return e.Done && e.Error == "" }

// masterStepDown reads the two AsyncTryStepDown lines; it returns nil for
// anything else, and for a line it cannot read whole enough to place (no
// tablet or no leader).
func (d *decoder) masterStepDown(base Base, text string) Event {
	if i := strings.Index(text, "Stepping down leader "); i >= 0 {
		rest := text[i+len("Stepping down leader "):]
		leader, rest := tok(rest)
		rest = strings.TrimPrefix(rest, " ")
		if !strings.HasPrefix(rest, "for tablet ") {
			return nil
		}
		tablet, rest := tok(rest[len("for tablet "):])
		rest = strings.TrimPrefix(rest, " ")
		ev := &MasterStepDown{Leader: leader}
		if strings.HasPrefix(rest, "with new leader ") {
			ev.NewLeader, _ = tok(rest[len("with new leader "):])
		}
		return ev.place(base, tablet)
	}
	i := strings.Index(text, "Leader step down done attempt=")
	if i < 0 {
		return nil
	}
	rest := text[i+len("Leader step down done "):]
	ev := &MasterStepDown{Done: true}
	// The error is a protobuf's text and may hold commas and spaces: the
	// fields after it are found from the end.
	tail := rest
	tablet := ""
	if j := strings.LastIndex(tail, " for tablet "); j >= 0 {
		tablet, _ = tok(tail[j+len(" for tablet "):])
		tablet = strings.TrimSuffix(tablet, ".")
		tail = tail[:j]
	}
	if j := strings.LastIndex(tail, ", should_remove="); j >= 0 {
		ev.ShouldRemove, _ = stepDownFlag(tail[j+len(", should_remove="):])
		tail = tail[:j]
	}
	if j := strings.LastIndex(tail, ", failed="); j >= 0 {
		ev.Failed, ev.FailedKnown = stepDownFlag(tail[j+len(", failed="):])
		tail = tail[:j]
	}
	head, errText, hasErr := strings.Cut(tail, ", error=")
	if hasErr {
		ev.Error = strings.TrimSpace(errText)
		if ev.Error == "{}" || ev.Error == "{ }" {
			ev.Error = ""
		}
	}
	for _, kv := range strings.Split(head, ", ") {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "attempt":
			ev.Attempt, _ = strconv.Atoi(v)
		case "leader_uuid":
			ev.Leader = v
		case "change_uuid":
			ev.Change = v
		}
	}
	return ev.place(base, tablet)
}

// place keys the event by the tablet and the leader it is about.
func (e *MasterStepDown) place(base Base, tablet string) Event {
	if tablet == "" || e.Leader == "" || !stepDownID(tablet) || !stepDownID(e.Leader) {
		return nil
	}
	e.Base = base
	e.Tablet, e.Peer, e.Term, e.Role = tablet, e.Leader, -1, ""
	return e
}

// stepDownFlag reads a printed bool: true/false as Format prints it, 1/0 as a
// stream does.
func stepDownFlag(s string) (v, ok bool) {
	w, _ := tok(s)
	w = strings.TrimSuffix(w, ",")
	switch w {
	case "true", "1":
		return true, true
	case "false", "0":
		return false, true
	}
	return false, false
}

// stepDownID reports whether s looks like a tablet or peer uuid: hex digits (a
// sys catalog tablet is all zeros), or the word-character ids tests use.
func stepDownID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
