package ybrules

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/logsleuth/logsleuth/replay/ybstate"
	"github.com/logsleuth/logsleuth/rules"
)

// storms flags runs of election attempts, each within stormGap of the one
// before, of at least stormMinAttempts. With cut >= 0 the attempts of the
// terms below cut are about to go: every run but the last is closed and
// judged for good, and the last run is carried to the next judgment: its
// attempts of the terms about to go folded into a summary (stormRun) as
// far as they lead it, the others as they are, with the leaders elected
// inside it. A tablet whose elections never stop for 30 s thus keeps a
// summary of a few attempts, not every attempt since the storm began.
func (p *Pack) storms(t *ybstate.TabletRaft, cut int64) {
	memo := p.stormMemo[t.Tablet]
	if memo == nil && cut < 0 && len(t.Attempts()) < stormMinAttempts {
		// Nothing carried and too few attempts for a run: no storm,
		// and nothing to carry (most tablets of a node hosting many).
		return
	}
	if memo == nil {
		memo = &stormCarry{}
	}
	// timed, elected and leaders live for this judgment (what is carried
	// is copied out of them): their buffers serve the next.
	sc := &p.scratch
	clear(sc.timed)
	timed := append(slices.Grow(sc.timed[:0], len(memo.attempts)+len(t.Attempts())), memo.attempts...)
	for _, a := range t.Attempts() {
		if a.Timed && a.At.After(memo.closed) {
			timed = append(timed, a)
		}
	}
	// The attempts are mostly in time order already: a stable sort of a
	// sorted slice leaves it as it is, so the check alone does.
	if !slices.IsSortedFunc(timed, func(a, b ybstate.Attempt) int { return a.At.Compare(b.At) }) {
		sort.SliceStable(timed, func(i, j int) bool { return timed[i].At.Before(timed[j].At) })
	}
	// Leaders by term and peer: a term compaction kept (its lease still
	// ran) is both carried and still held. Those the summary already
	// counted are left out.
	terms := t.Terms()
	elected := slices.Grow(sc.elected[:0], len(terms)+len(memo.leaders))
	for _, term := range terms {
		for _, l := range t.Leaders(term) {
			if l.Timed && !slices.Contains(memo.counted, leaderKey{term, l.Peer}) {
				elected = append(elected, leaderAt{leaderKey{term, l.Peer}, l.At})
			}
		}
	}
	for _, c := range memo.leaders {
		if !slices.ContainsFunc(elected, func(e leaderAt) bool { return e.key == c.key }) {
			elected = append(elected, c)
		}
	}
	leaders := sc.leaders[:0]
	for _, e := range elected {
		leaders = append(leaders, e.at)
	}
	defer func() { sc.timed, sc.elected, sc.leaders = timed, elected, leaders }()
	slices.SortFunc(leaders, func(a, b time.Time) int { return a.Compare(b) })

	run := memo.run
	start := 0
	closed := memo.closed
	for i := 0; i <= len(timed); i++ {
		if i < len(timed) {
			prev, ok := run.last, run.n > 0
			if i > start {
				prev, ok = timed[i-1], true
			}
			if !ok || timed[i].At.Sub(prev.At) <= stormGap {
				continue
			}
		}
		if cut >= 0 && i == len(timed) {
			break
		}
		r := run.with(timed[start:i])
		if r.n >= stormMinAttempts {
			p.storm(t, r, leaders, memo.inRun)
		}
		if r.n > 0 {
			closed = r.last.At
		}
		run, memo.inRun = stormRun{}, 0
		start = i
	}
	if cut < 0 {
		delete(p.stormMemo, t.Tablet)
		return
	}
	// Carry the open run: the attempts of the terms about to go that lead
	// it join its summary, the others of those terms are kept as they are
	// (the rest stay with the tablet).
	next := &stormCarry{closed: closed, inRun: memo.inRun}
	open := timed[start:]
	k := 0
	for k < len(open) && open[k].Term >= 0 && open[k].Term < cut {
		k++
	}
	next.run = run.with(open[:k])
	for _, a := range open[k:] {
		if a.Term >= 0 && a.Term < cut {
			next.attempts = append(next.attempts, a)
		}
	}
	if run.n > 0 || len(open) > 0 {
		from, latest := run.first.At, run.last.At
		if run.n == 0 {
			from = open[0].At
		}
		if len(open) > 0 {
			latest = open[len(open)-1].At
		}
		// The leaders of the terms about to go elected inside the open
		// run: those no later than its latest attempt are in its window
		// for good and only counted (their keys kept, against counting
		// again a term compaction keeps); the others are carried.
		for _, c := range memo.counted {
			if len(t.Leaders(c.term)) > 0 {
				next.counted = append(next.counted, c)
			}
		}
		for _, e := range elected {
			if e.key.term >= cut || e.at.Before(from) {
				continue
			}
			if !e.at.After(latest) {
				next.inRun++
				next.counted = append(next.counted, e.key)
				continue
			}
			next.leaders = append(next.leaders, e)
		}
	}
	p.stormMemo[t.Tablet] = next
}

// stormCarry is what storms keeps of a tablet across a compaction: the
// open run (the summary of its first attempts, and its other attempts
// whose terms went), the leaders of those terms elected inside it (inRun
// counts those already in its window for good, counted holds their keys),
// and the end of the last run judged for good.
type stormCarry struct {
	run      stormRun
	attempts []ybstate.Attempt
	leaders  []leaderAt
	inRun    int
	counted  []leaderKey
	closed   time.Time
}

type leaderKey struct {
	term int64
	peer string
}

type leaderAt struct {
	key leaderKey
	at  time.Time
}

// stormEvidence is how many attempts a storm finding cites.
const stormEvidence = 10

// stormRun is what a storm finding says of a run of attempts, folded one
// attempt at a time: their number, the first and last, the first
// stormEvidence, the first that started the lowest term and the last that
// started the highest, and the peers.
type stormRun struct {
	n           int
	first, last ybstate.Attempt
	head        []ybstate.Attempt
	lo, hi      int64
	loAt, hiAt  int
	loA, hiA    ybstate.Attempt
	peers       []string
}

// with returns r followed by as, leaving r as it was.
func (r stormRun) with(as []ybstate.Attempt) stormRun {
	if len(as) == 0 {
		return r
	}
	r.head = slices.Clip(r.head)
	r.peers = slices.Clip(r.peers)
	for _, a := range as {
		if r.n == 0 {
			r.first, r.lo, r.hi = a, -1, -1
		}
		if len(r.head) < stormEvidence {
			r.head = append(r.head, a)
		}
		if a.Term >= 0 && (r.lo < 0 || a.Term < r.lo) {
			r.lo, r.loAt, r.loA = a.Term, r.n, a
		}
		if a.Term > r.hi {
			r.hi = a.Term
		}
		if a.Term == r.hi {
			r.hiAt, r.hiA = r.n, a
		}
		if i, ok := slices.BinarySearch(r.peers, a.Peer); !ok {
			r.peers = slices.Insert(r.peers, i, a.Peer)
		}
		r.last = a
		r.n++
	}
	return r
}

// at is the i-th attempt of the run, for the ones it keeps.
func (r *stormRun) at(i int) ybstate.Attempt {
	switch {
	case i < len(r.head):
		return r.head[i]
	case i == r.n-1:
		return r.last
	case i == r.loAt:
		return r.loA
	default:
		return r.hiA
	}
}

// storm reports run; elected holds the times leaders were elected, sorted,
// and inRun the leaders known elected inside the run that are not in it.
func (p *Pack) storm(t *ybstate.TabletRaft, run stormRun, elected []time.Time, inRun int) {
	first, last := run.first, run.last
	// The finding cites the first attempt first (pick holds 0): a run
	// judged again at each compaction while it lasts is found again, and
	// its finding, the tablet's state with it, is not made again.
	if p.again(onceKey{ElectionStorm, first.From.Pos, ""}) {
		return
	}
	lo, hi := run.lo, run.hi
	loAt := run.loAt
	if lo < 0 {
		loAt = 0
	}
	// At most ten lines, in order: the first and last attempts and those
	// that started the lowest and highest terms (the facts state them),
	// then the others from the start.
	pick := []int{0, run.n - 1, loAt, run.hiAt}
	slices.Sort(pick)
	pick = slices.Compact(pick)
	for i := 0; i < run.n && len(pick) < stormEvidence; i++ {
		if j, ok := slices.BinarySearch(pick, i); !ok {
			pick = slices.Insert(pick, j, i)
		}
	}
	var ev []rules.Evidence
	for _, i := range pick {
		ev = append(ev, cite(run.at(i).From))
	}
	names := run.peers
	from := sort.Search(len(elected), func(i int) bool { return !elected[i].Before(first.At) })
	to := sort.Search(len(elected), func(i int) bool { return elected[i].After(last.At) })
	leaders := to - from + inRun
	terms := "unknown"
	switch {
	case lo >= 0 && lo == hi:
		terms = fmt.Sprintf("all started in term %d (the term never advanced)", lo)
	case lo >= 0:
		terms = fmt.Sprintf("started in terms %d to %d", lo, hi)
	}
	outcome := "no leader elected"
	if leaders > 0 {
		outcome = fmt.Sprintf("%d leader(s) elected, none lasting", leaders)
	}
	window := last.At.Sub(first.At)
	subj := rules.Subject{System: "yb", Tablet: t.Tablet}
	if len(names) == 1 {
		subj.Peer = names[0]
	}
	p.add(rules.Finding{
		Rule: ElectionStorm, Severity: rules.Warning, Origin: rules.Derived, Subject: subj,
		Message: fmt.Sprintf("%d election attempts by %d peer(s) in %.3f s (%s to %s), %s, %s",
			run.n, len(names), window.Seconds(), first.At.UTC().Format("15:04:05.000000"), last.At.UTC().Format("15:04:05.000000"), terms, outcome),
		Evidence: ev,
		Facts: map[string]string{
			"attempts": fmt.Sprint(run.n), "window_s": fmt.Sprintf("%.3f", window.Seconds()),
			"first": first.At.UTC().Format(time.RFC3339Nano), "last": last.At.UTC().Format(time.RFC3339Nano),
			"min_term": fmt.Sprint(lo), "max_term": fmt.Sprint(hi), "peers": strings.Join(names, ","),
			"leaders_elected": fmt.Sprint(leaders),
		},
		State: t.Lines(first.Peer),
	}, nil)
}
