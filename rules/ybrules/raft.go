package ybrules

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay/ybstate"
	"github.com/logsleuth/logsleuth/rules"
)

// Raft rule IDs. They are a contract: never rename one. Lease overlaps
// found from Raft lines use LeaseOverlap (catalog.go).
const (
	DoubleVote       = "yb/raft/double-vote"
	TwoLeaders       = "yb/raft/two-leaders"
	TermRegression   = "yb/raft/term-regression"
	EarlyRevocation  = "yb/lease/early-revocation"
	ElectionStorm    = "yb/raft/election-storm"
	stormMinAttempts = 4
)

// stormGap is the longest pause between two election attempts of one
// storm: a leader that holds for longer has lasted.
const stormGap = 30 * time.Second

// maxClockSkew is YugabyteDB's default max_clock_skew_usec (500 ms): two
// hosts' wall clocks may disagree by this much, so a holder's step-down
// logged this soon after a revocation on another host may have come first.
const maxClockSkew = 500 * time.Millisecond

// maxLeaseGap bounds how far a lease end may lie from the wall time it is
// compared with. Leases run for seconds; a gap of many minutes means the
// log's clock is not UTC (glog prints local time) or the year is wrong,
// and then the comparison proves nothing.
const maxLeaseGap = 10 * time.Minute

// raftCatalog holds the Raft term, vote, leader and lease rules.
var raftCatalog = []rules.Rule{
	{
		ID: DoubleVote, Severity: rules.Error,
		Title: "Peer granted real votes to two candidates in one term",
		Explain: "Raft's safety rests on each peer granting at most one vote per term, and persisting it before " +
			"answering: two candidates can then never both gather a majority. A peer that grants `Leader election vote " +
			"request: Granting yes vote` to two different candidates in the same term can elect two leaders. Pre-votes " +
			"(`Pre-election. Granting vote`, `Leader pre-election vote request`) do not bind and are not counted.",
		Example: "T t P c [term 2 FOLLOWER]:  Leader election vote request: Granting yes vote for candidate a in term 2.\n" +
			"T t P c [term 2 FOLLOWER]:  Leader election vote request: Granting yes vote for candidate b in term 2.",
	},
	{
		ID: TwoLeaders, Severity: rules.Error,
		Title: "Two peers acted as leader of one tablet in the same term",
		Explain: "A Raft term has at most one leader. Two peers logging leadership of the same term (Becoming Leader, " +
			"election won, a `[term N LEADER]` prefix, a NO_OP of term N) can both accept writes with the same op ids, so " +
			"replicas diverge and acknowledged writes can be lost. logsleuth merges every peer's log to see this; no " +
			"single peer's log can.",
		Example: "T t P a [term 3 FOLLOWER]: Becoming Leader. State: ...\nT t P b [term 3 LEADER]: Sending NO_OP at op 3.7",
	},
	{
		ID: TermRegression, Severity: rules.Error,
		Title: "Peer's Raft term went down",
		Explain: "A peer's current term is persisted in its consensus metadata and only grows. A peer logging a lower " +
			"term than it logged before has lost that state (a restored or copied data directory, a bad disk) and may " +
			"vote twice in a term or accept an old leader's entries.",
		Example: "T t P a [term 7 FOLLOWER]: Advancing to term 8\n...\nT t P a [term 5 FOLLOWER]: ...",
	},
	{
		ID: EarlyRevocation, Severity: rules.Error,
		Title: "New leader revoked old leases while an earlier leader's lease still ran",
		Explain: "A new leader keeps one record of the old leaders' lease and waits it out before serving reads or " +
			"writing below it. `Revoked old leader X [ht] lease` clears that record once X has accepted the new leader. " +
			"If another, earlier leader still held a lease at that moment (it had not stepped down and its lease, as its own " +
			"or another peer's log shows, had not run out), the new leader now writes and serves below a lease that " +
			"leader may still read under: the root cause of the `hybrid time too low` FATALs of issue #19447, where the " +
			"term-2 leader replicated its own lease while the term-1 lease ran, and the term-3 leader revoked the term-2 " +
			"lease and wrote below the term-1 one. The rule also flags that first half: a leader holding a replicated lease " +
			"of its own while an earlier leader, by another peer's log, still led and held one. Wall times are compared " +
			"with hybrid times as UTC microseconds; " +
			"comparisons further apart than 10 minutes are skipped as clocks that are not UTC.",
		Example: "T t P c [term 3 LEADER]: Revoked old leader b ht lease: { physical: 1696696747600000 }\n" +
			"T t P a [term 3 FOLLOWER]: Reset our ht lease: { physical: 1696696746900000 }   (a led term 1, stepped down only now)",
		Upstream: []string{"https://github.com/yugabyte/yugabyte-db/issues/19447"},
	},
	{
		ID: ElectionStorm, Severity: rules.Warning,
		Title: "Repeated elections without a lasting leader",
		Explain: "A tablet whose peers start election after election, each within 30 s of the last, has no leader that " +
			"lasts: it cannot take writes, and each round costs threads and RPCs (issue #1216). Usually a peer that cannot " +
			"reach a majority, pre-elections that keep failing, or leaders stepping down at once. The finding gives the " +
			"attempts, the window and the terms they ran in.",
		Example:  "T t P a [term 24 FOLLOWER]: ReportFailDetected: Starting NORMAL_ELECTION...   (x5 in 15 s)",
		Upstream: []string{"https://github.com/yugabyte/yugabyte-db/issues/1216"},
	},
}

// checkRaft judges a Raft or lease event by the step the fold returned
// for it: what the event meant against the state before it.
func (p *Pack) checkRaft(r *ybstate.Replica, e yb.Event, st ybstate.Step) {
	if st.Tablet == "" || st.Peer == "" {
		return
	}
	state := func() []string { return append(st.Replica.Lines(), st.Before.Lines()...) }
	if st.TermBack {
		by := ""
		if d, ok := ybval.SubInt64(st.High, st.Term); ok {
			by = fmt.Sprintf(" by %d", d)
		}
		p.add(rules.Finding{
			Rule: TermRegression, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
			Message: fmt.Sprintf("peer %s logs term %d after term %d: its term went down%s",
				st.Peer, st.Term, st.High, by),
			Evidence: []rules.Evidence{rules.Cite(e), cite(st.HighFrom)},
			Facts:    map[string]string{"term": fmt.Sprint(st.Term), "previous_term": fmt.Sprint(st.High)},
			State:    state(),
		}, nil)
	}
	if len(st.Rivals) > 0 {
		rival := st.Rivals[0]
		ev := []rules.Evidence{rules.Cite(e)}
		var names []string
		for _, l := range st.Rivals {
			ev = append(ev, cite(l.Since))
			names = append(names, l.Peer)
		}
		subj := subject(r)
		subj.Peer = st.Leader
		msg := fmt.Sprintf("peer %s acts as leader of term %d, which %s already led (%s)", st.Leader, st.Led, rival.Peer, rival.Since.Pos)
		if _, ok := e.(*yb.TabletReport); ok {
			// The master's reading of a report, not the leader's own line.
			msg = fmt.Sprintf("a tablet report to the master names %s leader of term %d, which %s already led (%s)", st.Leader, st.Led, rival.Peer, rival.Since.Pos)
		}
		p.add(rules.Finding{
			Rule: TwoLeaders, Severity: rules.Error, Origin: rules.Derived, Subject: subj,
			Message:  msg,
			Evidence: ev,
			Facts:    map[string]string{"term": fmt.Sprint(st.Led), "leader": st.Leader, "other_leaders": strings.Join(names, ",")},
			State:    state(),
		}, nil)
	}
	if st.Vote != nil && len(st.Earlier) > 0 {
		first := st.Earlier[0]
		p.add(rules.Finding{
			Rule: DoubleVote, Severity: rules.Error, Origin: rules.Derived, Subject: subject(r),
			Message: fmt.Sprintf("peer %s grants its term-%d vote to %s after granting it to %s (%s)",
				st.Peer, st.Vote.Term, st.Vote.Candidate, first.Candidate, first.From.Pos),
			Evidence: []rules.Evidence{rules.Cite(e), cite(first.From)},
			Facts: map[string]string{"term": fmt.Sprint(st.Vote.Term), "voter": st.Peer,
				"candidate": st.Vote.Candidate, "earlier_candidate": first.Candidate},
			State: state(),
		}, nil)
	}
}

// finishRaft runs the Raft rules that need the whole timeline: a lease is
// often proved still running only by lines logged after the revocation
// (the cut-off leader logs its step-down when it hears of the new term).
// What compaction dropped was judged before it went (judgeOld); this
// judges what the tablets still hold.
func (p *Pack) finishRaft() {
	raft := p.st.Raft()
	raft.EachTablet(func(t *ybstate.TabletRaft) { p.judgeTablet(t, -1) })
}

// judgeOld is the compaction hook: the tablet's terms below cut are about
// to go, so the rules finishRaft runs judge them now, with the tablet as
// it stands. A finding made again later is the same finding (each rule
// keeps one per line), so nothing is reported twice.
//
// A finding is made once, with the lines read by then, so a judgment at
// a compaction could not take back what a later line shows: the holder
// giving up within the clock-skew grace of a revocation, a later lease of
// the same term, a holder stepping down before a write's hybrid time.
// So at a compaction the lease rules pass over a finding whose earlier
// leader's lease, the one it would cite, is of a term the compaction
// keeps: that term keeps its leases, and the revocation, lease or write
// judged against it is of a later term, kept too; it is judged at a
// later compaction or at the end, as without compaction (stillOpen).
// A finding waits whole: a leader's own leases of one term make one
// finding, from the first of them in order, so the term waits if that
// one's cited lease is of a kept term, and is judged whole otherwise
// (replicatedPast).
//
// A finding that waits could be lost if a later line ruled out the
// lease it would cite while another that qualified, of a term that went,
// was still running: keeping every term, the finding would cite that
// one. That line shows the cited lease's holder gone by the time judged
// (the revocation's, the write's); the other lease ran past that time by
// more than the clock-skew grace, and the compaction keeps a lease that
// runs at the tablet's latest line less the slack (and each holder's
// latest lease whatever its end), so the line is over the grace and the
// slack (1.5 s) out of time order. Not covered: an own lease a later MVCC
// dump shows first, whose time can be older than the dump's line.
// Judging now whenever any qualifying lease was of a term that went
// differed from keeping every term on more random histories: 59 against
// 56 of 3,000 short ones and 75 against 70 of 1,000 long ones, keeping
// 2 terms.
func (p *Pack) judgeOld(t *ybstate.TabletRaft, cut int64) {
	p.judgeTablet(t, cut)
}

// stillOpen reports whether a finding against a lease of term leaseTerm
// is still open to later lines at compaction cut (-1 at the end of the
// logs), and waits for a later judgment (judgeOld).
func stillOpen(cut, leaseTerm int64) bool { return cut >= 0 && leaseTerm >= cut }

// judgeTablet runs the whole-timeline Raft rules on t; cut is the
// compaction's (the terms below it go next), or -1 at the end of the logs.
func (p *Pack) judgeTablet(t *ybstate.TabletRaft, cut int64) {
	p.judging = true
	defer func() { p.judging = false }()
	// Both rules read the same leases, and neither changes them.
	leases := p.leasesOf(t)
	p.earlyRevocations(t, leases, cut)
	p.replicatedPast(t, leases, cut)
	p.storms(t, cut)
	p.writeOverlaps(t, cut)
	p.noteNoOps(t)
}

// noteNoOps completes the lease-overlap findings whose op is a leader's
// NO_OP with that leader's line: the op an old leader refused under its
// lease is often the new leader's first, sent from another host.
func (p *Pack) noteNoOps(t *ybstate.TabletRaft) {
	open := p.overlaps[t.Tablet][:0]
	for _, i := range p.overlaps[t.Tablet] {
		f := &p.findings[i]
		n := t.NoOp(f.Facts["op_id"])
		if n == nil {
			open = append(open, i)
			continue
		}
		f.Facts["noop_leader"] = n.Leader
		f.Facts["noop_line"] = n.From.Pos.String()
		f.Message += fmt.Sprintf("; op %s is the NO_OP the term-%d leader %s sent (%s)", n.Op, n.Op.Term, n.Leader, n.From.Pos)
		f.Evidence = appendNew(f.Evidence, cite(n.From))
	}
	if len(open) == 0 {
		delete(p.overlaps, t.Tablet)
	} else {
		p.overlaps[t.Tablet] = open
	}
}

// heldLease is a lease another peer's log shows an earlier leader holding.
type heldLease struct {
	holder string
	term   int64
	kind   ybstate.LeaseKind
	// seen is the peer whose log printed it.
	seen string
	end  int64 // microseconds since the epoch
	// expiry (an ht lease) or until (a lease, on seen's wall clock) is
	// the end as the line printed it, for endText.
	expiry ybval.HybridTime
	until  time.Time
	from   ybstate.From
	// taken is when the holder had the lease at the latest, in
	// microseconds since the epoch, or 0 when unknown: the time an MVCC
	// dump shows it taken at, else the line that printed it.
	taken int64
}

// endText is the lease's end as a finding prints it.
func (h *heldLease) endText() string {
	if h.kind == ybstate.WallLeaseKind {
		return h.until.UTC().Format("15:04:05.000000") + " (wall clock of " + shortID(h.seen) + ")"
	}
	return h.expiry.String()
}

// running returns the leases, sorted by end, that end more than grace
// after w and within maxLeaseGap of it: the only ones a comparison with w
// can prove running. A lease ending within grace (the max clock skew) of
// w is not: the two times come from different hosts' clocks, and a new
// leader's lease starting that close to the old one's end is the hand-over
// YugabyteDB allows.
func running(leases []heldLease, w int64, grace time.Duration) []heldLease {
	after := w + grace.Microseconds()
	lo := sort.Search(len(leases), func(i int) bool { return leases[i].end > after })
	hi := lo
	for hi < len(leases) && leases[hi].end-w <= maxLeaseGap.Microseconds() {
		hi++
	}
	return leases[lo:hi]
}

// leasesOf gathers the leases of tablet from Raft lines and MVCC dumps,
// sorted by end (running looks them up by it).
func (p *Pack) leasesOf(t *ybstate.TabletRaft) []heldLease {
	out := p.leaseList(t)
	slices.SortStableFunc(out, func(a, b heldLease) int { return cmp.Compare(a.end, b.end) })
	return out
}

func (p *Pack) leaseList(t *ybstate.TabletRaft) []heldLease {
	dump := p.st.Leases(t.Tablet)
	// The list lives for one judgment: its buffer serves the next.
	facts := t.AppendLeases(p.scratch.facts[:0])
	clear(p.scratch.leases)
	out := slices.Grow(p.scratch.leases[:0], len(facts)+len(dump))
	defer func() { clear(facts); p.scratch.facts, p.scratch.leases = facts[:0], out }()
	for _, l := range facts {
		if l.Holder == "" || l.Term < 0 {
			continue
		}
		h := heldLease{holder: l.Holder, term: l.Term, kind: l.Kind, seen: l.Seen, end: l.EndMicros(), expiry: l.Expiry, until: l.Until, from: l.From}
		if l.At.IsZero() {
			h.taken = 0
		} else {
			h.taken = l.At.UnixMicro()
		}
		out = append(out, h)
	}
	for _, l := range dump {
		if l.Holder == "" || l.Term < 0 || !l.Expiry.Point() {
			continue
		}
		h := heldLease{holder: l.Holder, term: l.Term, kind: ybstate.HTLeaseKind, seen: l.Holder, end: int64(l.Expiry.Physical), expiry: l.Expiry, from: l.From}
		if l.Taken.Point() {
			h.taken = int64(l.Taken.Physical)
		}
		out = append(out, h)
	}
	return out
}

// earlyRevocations flags revocations made while an earlier leader other
// than the revoker still held a lease, as a log other than the revoker's
// shows.
func (p *Pack) earlyRevocations(t *ybstate.TabletRaft, leases []heldLease, cut int64) {
	reported := p.revoked
	for i := range t.Revocations() {
		rv := &t.Revocations()[i]
		if !rv.Timed || rv.ByTerm < 0 {
			continue
		}
		w := rv.At.UnixMicro()
		var best *heldLease
		var bestLead *ybstate.Leadership
		rs := running(leases, w, p.skew.grace())
		for i := range rs {
			l := &rs[i]
			// Only another peer's log can show what the revoker missed.
			if l.holder == rv.By || l.seen == rv.By || l.term >= rv.ByTerm {
				continue
			}
			lead := t.Leadership(l.holder, l.term)
			if lead != nil && lead.Ended && !lead.EndAt().IsZero() {
				grace := time.Duration(0)
				if l.holder == rv.Holder {
					// The revoked holder accepted the new leader before
					// the revocation; its step-down may carry a clock up to
					// the skew ahead.
					grace = p.skew.grace()
				}
				if !lead.EndAt().After(rv.At.Add(grace)) {
					continue
				}
			}
			if lead == nil && l.holder == rv.Holder {
				// A leader revokes only a holder that accepted its lease;
				// with no line of that holder leading on past the
				// revocation, take the protocol's word.
				continue
			}
			if best == nil || better(l, best) {
				best, bestLead = l, lead
			}
		}
		if best == nil {
			continue
		}
		if stillOpen(cut, best.term) {
			continue
		}
		key := revokedKey{t.Tablet, rv.By, rv.ByTerm, best.holder, best.term}
		if k, ok := reported[key]; ok {
			p.findings[k].Evidence = appendNew(p.findings[k].Evidence, cite(rv.From))
			continue
		}
		cleared := fmt.Sprintf("the ht lease of %s to %s", orUnknownID(rv.Holder), rv.Expiry)
		if rv.Kind == ybstate.WallLeaseKind {
			cleared = fmt.Sprintf("the lease of %s with %s left", orUnknownID(rv.Holder), rv.Remaining)
		}
		left := time.Duration(best.end-w) * time.Microsecond
		gaveUp := "no log shows it giving up"
		ev := []rules.Evidence{cite(rv.From), cite(best.from)}
		if bestLead != nil {
			ev = appendNew(ev, cite(bestLead.Since))
			if bestLead.Ended {
				gaveUp = fmt.Sprintf("it led on until %s (%s, %s)", bestLead.EndAt().UTC().Format("15:04:05.000000"), bestLead.EndHow(), bestLead.EndFrom().Pos)
				ev = appendNew(ev, cite(bestLead.EndFrom()))
			}
		}
		if bestLead == nil || !bestLead.Ended {
			if fs := t.FailedStepDownOf(best.holder, rv.At); fs != nil {
				gaveUp += fmt.Sprintf(", and the master's step-down of it failed (%s)", fs.From.Pos)
				ev = appendNew(ev, cite(fs.From))
			}
		}
		facts := map[string]string{
			"revoker": rv.By, "revoker_term": fmt.Sprint(rv.ByTerm), "revoked_holder": rv.Holder,
			"holder": best.holder, "holder_term": fmt.Sprint(best.term), "lease_kind": best.kind.String(),
			"lease_end": best.endText(), "remaining_us": fmt.Sprint(best.end - w),
			"revoked_at": rv.At.UTC().Format("2006-01-02T15:04:05.000000Z"),
		}
		p.skew.facts(facts)
		if rv.Kind == ybstate.HTLeaseKind {
			facts["revoked_expiry"] = rv.Expiry.String()
		} else {
			facts["revoked_remaining"] = rv.Remaining.String()
		}
		f := rules.Finding{
			Rule: EarlyRevocation, Severity: rules.Error, Origin: rules.Derived,
			Subject: rules.Subject{System: "yb", Tablet: t.Tablet, Peer: rv.By},
			Message: fmt.Sprintf("term-%d leader %s cleared %s while the term-%d leader %s still held its %s to %s, %.3f s more (%s); %s",
				rv.ByTerm, rv.By, cleared, best.term, best.holder, best.kind, best.endText(), left.Seconds(), best.from.Pos, gaveUp),
			Evidence: ev,
			Facts:    facts,
			State:    append(rv.Replica.Lines(), rv.Before.Lines()...),
		}
		n := len(p.findings)
		p.add(f, nil)
		if len(p.findings) > n {
			reported[key] = n
		}
	}
}

// revokedKey is a tablet, a revoker's term and the lease an early
// revocation cut short: one finding each. Peers are tservers, each a peer
// of many tablets whose terms run alike, so the tablet is part of it.
type revokedKey struct {
	tablet string
	by     string
	byTerm int64
	holder string
	term   int64
}

// pastKey is a tablet and a leader's term whose own lease replicatedPast
// flagged.
type pastKey struct {
	tablet string
	holder string
	term   int64
}

// better orders the leases a revocation cut short: an ht lease first (it
// is what binds writes), then the later end, then the holder's name so the
// choice does not depend on the order of the logs.
func better(a, b *heldLease) bool {
	if (a.kind == ybstate.HTLeaseKind) != (b.kind == ybstate.HTLeaseKind) {
		return a.kind == ybstate.HTLeaseKind
	}
	if a.end != b.end {
		return a.end > b.end
	}
	if a.holder != b.holder {
		return a.holder < b.holder
	}
	if a.from.Pos.Source != b.from.Pos.Source {
		return a.from.Pos.Source < b.from.Pos.Source
	}
	return a.from.Pos.Line < b.from.Pos.Line
}

func shortID(s string) string {
	if len(s) > 8 {
		return s[:8]
	}
	return s
}

func orUnknownID(s string) string {
	if s == "" {
		return "(unnamed holder)"
	}
	return s
}
