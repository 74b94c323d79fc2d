package ybrules

import (
	"fmt"
	"strings"
	"time"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay/ybstate"
	"github.com/logsleuth/logsleuth/rules"
)

// Pack is the YugabyteDB rule pack. It reads the replayed state and
// decides; only ybstate folds events into it. Each event is judged against
// the state before it (an MVCC dump entry against the replica just before
// the entry, a Raft line through the Step the fold returns, which says what
// it meant against the state before it), then folded in.
type Pack struct {
	st       *ybstate.State
	findings []rules.Finding
	// once keeps one finding per rule and event: a dump with one bad op
	// would otherwise repeat it for every entry after.
	once map[onceKey]int
	// skew is the clock-skew grace the lease rules allow.
	skew clockSkew
	// fatalDumps holds, per source, an MVCC dump a FATAL printed whose
	// assertion is not read yet (fatal_dump.go).
	fatalDumps map[string]fatalDump

	// What the whole-timeline Raft rules keep between judgments of a
	// tablet (at each compaction, then at the end): the revocation
	// findings by revoker and holder, the leaders judged for a replicated
	// lease, the election runs still open, the lease-overlap findings
	// still to be matched with a NO_OP, and the keys those rules have
	// reported (judging a tablet again finds them again).
	revoked    map[revokedKey]int
	pastDone   map[pastKey]bool
	stormMemo  map[string]*stormCarry
	overlaps   map[string][]int
	judging    bool
	judgedKeys map[onceKey]bool
	// scratch holds the buffers a judgment of a tablet works in, for the
	// next judgment: a Raft-heavy log judges a tablet at every
	// compaction.
	scratch struct {
		leases  []heldLease
		facts   []ybstate.LeaseFact
		order   []int
		timed   []ybstate.Attempt
		elected []leaderAt
		leaders []time.Time
	}
}

// DefaultKeepTerms is how many of a tablet's latest terms the replayed
// state keeps in full (compaction runs once a tablet's terms reach twice
// as many past the oldest it holds, so 2 to 4): the older ones are judged
// before they go, and what a later line can still contradict stays
// whatever its term: the leases not ended by the tablet's latest line
// (less the clock-skew slack) and each holder's latest lease, the
// leaderships of their terms, and the terms whose MVCC dump leases are
// kept. A leader cut off by a partition that comes back terms later is
// judged against those. VoteTerms is how many keep their leaders and
// real votes (4 to 8 terms), for a second leader or vote in an old term:
// such a line is logged about when the term's other leader and votes
// were, and logs merged by time put lines of different hosts apart by
// their clocks' skew, far less than the election timeout in which a term
// can pass. Keeping 4 terms in full and
// 16 of leaders and votes held twice the heap at the end of a busy
// node's 512 MiB log as at 64 MiB (TestHeapDoesNotGrowWithLog).
const (
	DefaultKeepTerms = 2
	VoteTerms        = 4
)

type onceKey struct {
	rule string
	pos  parse.Pos
	// kind tells apart two different breaks of one rule in one dump
	// (a Replicated off the front, an Aborted off the back).
	kind string
}

// New returns a pack with empty state.
func New() *Pack {
	p := &Pack{st: ybstate.New(), once: map[onceKey]int{},
		revoked: map[revokedKey]int{}, pastDone: map[pastKey]bool{}, stormMemo: map[string]*stormCarry{},
		overlaps: map[string][]int{}, judgedKeys: map[onceKey]bool{}}
	p.KeepTerms(DefaultKeepTerms)
	return p
}

// KeepTerms sets how many of a tablet's latest terms the state keeps in
// full before the older ones are judged and compacted; 0 keeps every
// term (memory then grows with the log).
func (p *Pack) KeepTerms(n int64) {
	if n <= 0 {
		p.st.SetCompaction(ybstate.Compaction{})
		return
	}
	// A lease that ended within twice the clock-skew grace of the latest
	// line can still be found running by a later one from another host.
	p.st.SetCompaction(ybstate.Compaction{KeepTerms: n, VoteTerms: VoteTerms, Before: p.judgeOld,
		Slack: func() time.Duration { return 2 * p.skew.grace() }})
}

// Rules implements rules.Pack.
func (p *Pack) Rules() []rules.Rule {
	out := append([]rules.Rule(nil), catalog...)
	out = append(out, raftCatalog...)
	return append(out, configCatalog...)
}

// State is the replayed state, for `logsleuth state`.
func (p *Pack) State() *ybstate.State { return p.st }

// Finish implements rules.Pack: rules about what never happened by the
// end of the logs run here.
func (p *Pack) Finish() []rules.Finding {
	p.finishFatalDumps()
	p.finishRaft()
	p.finishConfig()
	return p.findings
}

// Observe implements rules.Pack.
func (p *Pack) Observe(e parse.Event) {
	ye, ok := e.(yb.Event)
	if !ok {
		return
	}
	r := p.st.Replica(ybstate.KeyOf(ye))
	p.skew.readSkew(ye)
	p.settleFatalDump(ye)
	switch ev := ye.(type) {
	case *yb.MvccDump:
		p.st.ApplyEach(ev, func(r *ybstate.Replica, from ybstate.From, it *yb.Item) {
			p.checkItem(r, ev, from, it)
		})
		p.holdFatalDump(ev, r)
		return
	case *yb.HTTooLow:
		p.checkTooLow(r, ev)
	case *yb.CheckFailed:
		p.checkFailed(r, ev)
	case *yb.OpSequence:
		// Confirmed when the replay's last op is the one the line names
		// (both read); the line that added it is cited beside.
		origin := rules.Reported
		evidence := []rules.Evidence{rules.Cite(ev)}
		if r.Mvcc().HasLastOp && ev.Prev.Known() && r.Mvcc().LastOp == ev.Prev {
			origin = rules.Confirmed
			evidence = appendNew(evidence, cite(r.Mvcc().LastOpFrom))
		}
		p.add(rules.Finding{
			Rule: QueueOrder, Severity: rules.Error, Origin: origin, Subject: subject(r),
			Message:  fmt.Sprintf("op id %s added after %s: op ids must increase", ev.Next, ev.Prev),
			Evidence: evidence,
			Facts:    map[string]string{"previous_op_id": ev.Prev.String(), "next_op_id": ev.Next.String()},
		}, r)
	case *yb.FollowerSafeTimeBack:
		f := rules.Finding{
			Rule: SafeTimeRegression, Severity: rules.Note, Origin: rules.Reported, Subject: subject(r),
			Message: fmt.Sprintf("follower received propagated safe time %s, %s the %s it already had (kept the old value; expected after a leader change)",
				ev.New, below(ev.New, ev.Old), ev.Old),
			Evidence: []rules.Evidence{rules.Cite(ev)},
			Facts:    map[string]string{"received": ev.New.String(), "kept": ev.Old.String()},
		}
		setBelowUS(f.Facts, "below_us", ev.New, ev.Old)
		p.add(f, r)
	case *yb.LeaderSafeTimeBack:
		f := rules.Finding{
			Rule: SafeTimeRegression, Severity: rules.Error, Origin: rules.Reported, Subject: subject(r),
			Message: fmt.Sprintf("leader safe time %s is %s the propagated safe time %s it had already published",
				ev.Safe, below(ev.Safe, ev.Propagated), ev.Propagated),
			Evidence: []rules.Evidence{rules.Cite(ev)},
			Facts:    map[string]string{"safe_time": ev.Safe.String(), "propagated_safe_time": ev.Propagated.String()},
		}
		setBelowUS(f.Facts, "below_us", ev.Safe, ev.Propagated)
		p.add(f, r)
	case *yb.MvccFatal:
		p.add(rules.Finding{
			Rule: MvccInvariant, Severity: rules.Error, Origin: rules.Reported, Subject: subject(r),
			Message:  "mvcc.cc asserted: " + clip(ev.Message),
			Evidence: []rules.Evidence{rules.Cite(ev)},
		}, r)
	default:
		p.checkConfig(ye)
		p.checkRaft(r, ye, p.st.Apply(e))
		return
	}
	p.st.Apply(e)
}

func subject(r *ybstate.Replica) rules.Subject {
	return rules.Subject{System: "yb", Tablet: r.Tablet, Peer: r.Peer}
}

func cite(f ybstate.From) rules.Evidence {
	return rules.Evidence{Source: f.Pos.Source, Line: f.Pos.Line, Text: f.Text()}
}

// add records f with r's state before the break, once per rule and line.
func (p *Pack) add(f rules.Finding, r *ybstate.Replica) {
	p.addKeyed(onceKey{f.Rule, f.Pos(), ""}, f, r)
}

// addIn records f once per rule and dump: the first entry of a dump that
// breaks a rule is cited, and the later ones are counted in the finding's
// occurrences.
func (p *Pack) addIn(d *yb.MvccDump, kind string, f rules.Finding, r *ybstate.Replica) {
	p.addKeyed(onceKey{f.Rule, d.Pos, kind}, f, r)
}

func (p *Pack) addKeyed(k onceKey, f rules.Finding, r *ybstate.Replica) {
	if p.again(k) {
		return
	}
	if r != nil {
		f.State = r.Lines()
	}
	if p.judging {
		p.judgedKeys[k] = true
	}
	if f.Rule == LeaseOverlap && f.Subject.Tablet != "" {
		p.overlaps[f.Subject.Tablet] = append(p.overlaps[f.Subject.Tablet], len(p.findings))
	}
	p.once[k] = len(p.findings)
	p.findings = append(p.findings, f)
}

// again takes a finding keyed k that is already recorded, as addKeyed
// would, and reports whether it was: a rule whose finding costs much to
// make can ask before it makes it.
func (p *Pack) again(k onceKey) bool {
	if p.judging && p.judgedKeys[k] {
		// The same line judged again after a compaction.
		return true
	}
	i, ok := p.once[k]
	if !ok {
		return false
	}
	prev := &p.findings[i]
	if prev.Facts == nil {
		prev.Facts = map[string]string{}
	}
	n := 1
	fmt.Sscan(prev.Facts["occurrences"], &n)
	prev.Facts["occurrences"] = fmt.Sprint(n + 1)
	return true
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// below describes how far a is below b: "77902 us below", "equal to",
// or "at or below" alone when either was not read as a point in time (a
// special name, or a number out of range): no number is stated that was
// not read.
func below(a, b ybval.HybridTime) string {
	d, ok := a.PhysicalDiffOK(b)
	c, cok := a.CompareOK(b)
	switch {
	case cok && c == 0:
		return "equal to"
	case !ok:
		return "at or below"
	case d < 0:
		return fmt.Sprintf("%d us below", -d)
	case d > 0:
		return fmt.Sprintf("%d us above", d)
	}
	return fmt.Sprintf("at or below (same microsecond, logical %d vs %d)", a.Logical, b.Logical)
}

// atOrBelow reports whether a <= b, both read; lessThan whether a < b.
// A time that was not read is never placed against another.
func atOrBelow(a, b ybval.HybridTime) bool {
	c, ok := a.CompareOK(b)
	return ok && c <= 0
}

func lessThan(a, b ybval.HybridTime) bool {
	c, ok := a.CompareOK(b)
	return ok && c < 0
}

// setBelowUS states how many microseconds a lies below b under key, when
// both are points in time.
func setBelowUS(facts map[string]string, key string, a, b ybval.HybridTime) {
	if d, ok := a.PhysicalDiffOK(b); ok {
		facts[key] = fmt.Sprint(-d)
	}
}

// before is how far a is before a lease's end b: "77902 us before", or
// "at or before" when either was not read as a point in time.
func before(a, b ybval.HybridTime) string {
	if d, ok := a.PhysicalDiffOK(b); ok {
		return fmt.Sprintf("%d us before", -d)
	}
	return "at or before"
}

func opText(op ybval.OpID, has bool, ht ybval.HybridTime) string {
	if has {
		return fmt.Sprintf("op %s at ht %s", op, ht)
	}
	return fmt.Sprintf("op at ht %s", ht)
}

func joinNames(ns []string) string { return strings.Join(ns, ", ") }
