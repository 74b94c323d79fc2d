package ybstate

import (
	"fmt"
	"time"

	"github.com/logsleuth/logsleuth/parse/yb"
)

// masterWord marks what the Raft view knows from the master's log: a
// report about the tablet, which a peer's own lines outweigh.
const masterWord = "master"

// report folds the master's reading of a tablet report. A replica reports
// the term it is in and the leader it follows there; only a peer that
// acted as leader of that term is ever named so, which makes the report a
// leadership fact about the tablet (not the leader's own word). A leader
// seen only this way closes gaps the peers' logs leave: a term whose
// leader's own log was not collected.
func (r *Raft) report(ev *yb.TabletReport, st Step) Step {
	if ev.Tablet == "" {
		return st
	}
	if ev.LeaderUUID == "" || ev.Term < 0 {
		if ev.Reporter != "" {
			// A reporter is a peer of the tablet, as before.
			r.tablet(ev.Tablet).peer(ev.Reporter)
		}
		return st
	}
	t := r.tablet(ev.Tablet)
	if ev.Reporter != "" {
		t.peer(ev.Reporter)
	}
	if st.Peer == "" {
		st.Peer = ev.LeaderUUID
	}
	from := fromEvent(ev)
	m := ev.Info()
	before := func() {
		if st.Before == nil {
			st.Before = t.Lines(ev.LeaderUUID)
		}
	}
	if t.Leadership(ev.LeaderUUID, ev.Term) != nil {
		return st
	}
	t.lead(ev.LeaderUUID, ev.Term, m.Time, m.Timed, from, &st, before)
	if l := t.Leadership(ev.LeaderUUID, ev.Term); l != nil {
		l.By = masterWord
		if n := len(t.Rows); n > 0 && t.Rows[n-1].From.Pos == from.Pos {
			t.Rows[n-1].Detail += " (as a report to the master says)"
		}
	}
	return st
}

// masterStepDown folds the master's step-down task. The request is only a
// row; an outcome without an error ends the leader's current leadership at
// the master's line, marked as the master's word. The peer's own view
// (its term, role, what it leads) is left alone: only its lines say that.
func (r *Raft) masterStepDown(ev *yb.MasterStepDown, st Step) Step {
	if ev.Tablet == "" || ev.Leader == "" {
		return st
	}
	t := r.tablet(ev.Tablet)
	p := t.peer(ev.Leader)
	from := fromEvent(ev)
	m := ev.Info()
	if !ev.Done {
		detail := "the master asks it to step down"
		if ev.NewLeader != "" {
			detail += " in favour of " + ev.NewLeader
		}
		t.row(m.Time, m.Timed, p.Peer, p.Term, "master step down", detail, from)
		return st
	}
	if !ev.SteppedDown() {
		t.row(m.Time, m.Timed, p.Peer, p.Term, "master step down", "the master's step-down failed: "+clipText(ev.Error), from)
		t.FailedStepDowns = append(t.FailedStepDowns, FailedStepDown{Leader: ev.Leader, Error: ev.Error, At: m.Time, Timed: m.Timed, From: from})
		return st
	}
	// The term it stepped down from: the one it leads by its own lines,
	// else the latest any line showed it leading.
	term := p.Leading
	if term < 0 {
		term = t.lastLed(p.Peer, -1)
	}
	l := t.Leadership(p.Peer, term)
	if l == nil || l.Ended {
		t.row(m.Time, m.Timed, p.Peer, term, "master step down", "the master heard it stepped down", from)
		return st
	}
	l.Ended, l.EndAt, l.EndFrom, l.EndBy = true, m.Time, from, masterWord
	l.EndHow = "stepped down at the master's request, as the master's log shows"
	t.row(m.Time, m.Timed, p.Peer, term, "leader ends", fmt.Sprintf("no longer leader of term %d: %s", term, l.EndHow), from)
	return st
}

func clipText(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// FailedStepDown is a step-down the master asked of a leader and heard
// back failed: the leader led on, as far as the master knows.
type FailedStepDown struct {
	Leader string
	Error  string
	At     time.Time
	Timed  bool
	From   From
}

// FailedStepDownOf returns the last failed step-down of leader at or
// before at (any, when at is zero), or nil.
func (t *TabletRaft) FailedStepDownOf(leader string, at time.Time) *FailedStepDown {
	var out *FailedStepDown
	for i := range t.FailedStepDowns {
		f := &t.FailedStepDowns[i]
		if f.Leader == leader && (at.IsZero() || !f.Timed || !f.At.After(at)) {
			out = f
		}
	}
	return out
}
