package ybstate

import (
	"fmt"
	"strings"
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
	if ev.Term >= 0 {
		r.tablet(ev.Tablet).reportedTerm(ev)
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
	ln := lineOf(ev, &r.ids)
	from := &ln
	m := ev.Info()
	before := func() {
		if st.Before == nil {
			st.Before = t.View(ev.LeaderUUID)
		}
	}
	if t.Leadership(ev.LeaderUUID, ev.Term) != nil {
		return st
	}
	t.lead(ev.LeaderUUID, ev.Term, m.Time, m.Timed, from, &st, before)
	if l := t.Leadership(ev.LeaderUUID, ev.Term); l != nil {
		l.byMaster = true
		y := t.more().moreRarer()
		y.masterOpen = append(y.masterOpen, l)
		if n := len(y.rows); n > 0 && y.rows[n-1].From.Pos == from.pos() {
			y.rows[n-1].Detail += " (as a report to the master says)"
		}
	}
	return st
}

// reportedTerm ends the leaderships known only from earlier reports whose
// term is below the one this report shows the tablet in: as far as the
// master knows, that leader's term is over. It is the master's word, as
// the leadership was; the leader's own later lines outweigh it (claim).
func (t *TabletRaft) reportedTerm(ev *yb.TabletReport) {
	if len(t.rare().rarer().masterOpen) == 0 {
		return
	}
	x := t.x.y
	m := ev.Info()
	ln := lineOf(ev, nil)
	from := &ln
	kept := x.masterOpen[:0]
	for _, l := range x.masterOpen {
		switch {
		case l.Ended:
		case l.Term < ev.Term:
			how := fmt.Sprintf("a later report to the master shows term %d", ev.Term)
			if ev.LeaderUUID != "" {
				how += " led by " + ev.LeaderUUID
			}
			l.finish(m.Time, from.keep(), how, masterWord)
			t.row(m.Time, m.Timed, l.Peer, l.Term, "leader ends", func() string { return fmt.Sprintf("no longer leader of term %d: %s", l.Term, how) }, from.pos())
		default:
			kept = append(kept, l)
		}
	}
	clear(x.masterOpen[len(kept):])
	x.masterOpen = kept
}

// masterStepDown folds the master's step-down task (async_rpc_tasks.cc
// AsyncTryStepDown, answered by raft_consensus.cc StepDown). The request
// is only a row. An outcome without an error ends the leader's current
// leadership at the master's line, marked as the master's word, unless
// the leader's own line put the step-down off (`Delay step down`: it
// answers without an error and leads on until its protege catches up).
// NOT_THE_LEADER is no failed step-down: the peer had stopped leading by
// then, which ends the leadership as the master's word too. The peer's own view
// (its term, role, what it leads) is left alone: only its lines say that.
func (r *Raft) masterStepDown(ev *yb.MasterStepDown, st Step) Step {
	if ev.Tablet == "" || ev.Leader == "" {
		return st
	}
	t := r.tablet(ev.Tablet)
	p := t.peer(ev.Leader)
	ln := lineOf(ev, &r.ids)
	from := &ln
	m := ev.Info()
	if !ev.Done {
		detail := "the master asks it to step down"
		if ev.NewLeader != "" {
			detail += " in favour of " + ev.NewLeader
		}
		t.row(m.Time, m.Timed, p.Peer, p.Term, "master step down", func() string { return detail }, from.pos())
		return st
	}
	notLeader := strings.Contains(ev.Error, "NOT_THE_LEADER")
	if !ev.SteppedDown() && !notLeader {
		t.row(m.Time, m.Timed, p.Peer, p.Term, "master step down", func() string { return "the master's step-down failed: " + clipText(ev.Error) }, from.pos())
		y := t.more().moreRarer()
		y.failedStepDowns = append(y.failedStepDowns, FailedStepDown{Leader: ev.Leader, Error: ev.Error, At: m.Time, Timed: m.Timed, From: from.keep()})
		return st
	}
	// The term it stepped down from: the one it leads by its own lines,
	// else the latest any line showed it leading.
	term := p.Leading
	if term < 0 {
		term = t.lastLed(p.Peer, -1)
	}
	l := t.Leadership(p.Peer, term)
	if !notLeader && p.delayed >= 0 && p.delayed == term {
		// The leader's own line put the step-down off until its protege
		// catches up: the response came back without an error, and the
		// leader leads on until its own lines say it gave up.
		t.row(m.Time, m.Timed, p.Peer, term, "master step down", func() string {
			return fmt.Sprintf("the master heard the step-down accepted; the leader put it off and still leads term %d", term)
		}, from.pos())
		return st
	}
	if l == nil || l.Ended {
		what := "the master heard it stepped down"
		if notLeader {
			what = "the master heard it was not the leader (NOT_THE_LEADER)"
		}
		t.row(m.Time, m.Timed, p.Peer, term, "master step down", func() string { return what }, from.pos())
		return st
	}
	how := "stepped down at the master's request, as the master's log shows"
	if notLeader {
		// NOT_THE_LEADER: the peer was no longer leader when the request
		// reached it. It gave up by then, not at the master's request.
		how = "no longer the leader when the master asked it to step down (NOT_THE_LEADER), as the master's log shows"
	}
	l.finish(m.Time, from.keep(), how, masterWord)
	t.row(m.Time, m.Timed, p.Peer, term, "leader ends", func() string { return fmt.Sprintf("no longer leader of term %d: %s", term, how) }, from.pos())
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
	for i := range t.rare().rarer().failedStepDowns {
		f := &t.x.y.failedStepDowns[i]
		if f.Leader == leader && (at.IsZero() || !f.Timed || !f.At.After(at)) {
			out = f
		}
	}
	return out
}
