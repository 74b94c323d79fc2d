package timeline

import (
	"container/heap"
	"math"

	"github.com/logsleuth/logsleuth/render"
)

// MaxLanes bounds the lanes the builder builds. A lane's state (its
// labels, its peer's terms and bands, its samplers, its lines) costs about
// 1.5 KB however little it holds, and the page draws at most MaxBytes of
// lanes, each at least about 96 bytes: a bundle of a million tablets with
// a line each took 3 GiB to draw 4,300 of them. Once MaxLanes lanes are
// built, a tablet or shard seen for the first time is folded: its events
// are counted (per group, for its summary row, while MaxSummaries rows
// last; in a total past them), not built. A group already built takes
// new lanes up to twice MaxLanes, and folds those past that. Which lanes
// are built is decided by arrival order alone, so the same input folds
// the same lanes. A finding on a folded lane is drawn on a lane made for
// it at the end, from its evidence (see redraw).
const MaxLanes = MaxBytes / 96

// maxLanes is the cap the builder applies, changed only by tests.
var maxLanes = MaxLanes

// folding is what the builder counts of the lanes it does not build.
type folding struct {
	// lanes are the hashes of the lanes folded, with the events each
	// held, and groups those of the groups folded whole: some tens of
	// bytes a lane, not a lane's state. A hash collision can only
	// miscount a lane, never draw one wrongly.
	lanes  map[uint64]uint32
	groups map[uint64]struct{}
	// events is how many events the folded lanes held; groupLanes and
	// groupEvents the part of lanes and events of groups folded whole.
	events, groupLanes, groupEvents int
	// made is the lanes made for findings on them, and madeGroups their
	// groups folded whole, each with whether it has a summary row.
	made       int
	madeGroups map[groupKey]bool
	// rows are the summaries of the groups folded whole that come first
	// in the page's order, at most maxSummaries: no later group can take
	// a summary row from them. order is their keys as a max-heap.
	rows  map[groupKey]*Summary
	order keyHeap
}

func (f *folding) init() {
	f.lanes = map[uint64]uint32{}
	f.groups = map[uint64]struct{}{}
	f.rows = map[groupKey]*Summary{}
}

// any reports whether a lane was folded.
func (f *folding) any() bool { return len(f.lanes) > 0 }

// admit reports whether lane k is built: it is, or it may be. A lane not
// built is counted as folded, with its group when that is new.
func (b *builder) admit(k laneKey) bool {
	if b.wall.lanes[k] != nil {
		// Every lane built has a wall lane.
		return true
	}
	f := &b.fold
	n := len(b.wall.lanes)
	// Lanes are never taken away, so once a group is folded whole every
	// group not built is: the cap was reached.
	whole := b.wall.groups[k.group] == nil
	switch {
	case b.forced:
		return true
	case !whole && n < 2*maxLanes:
		return true
	case whole && n < maxLanes:
		return true
	}
	lh := laneHash(k)
	if _, seen := f.lanes[lh]; !seen {
		f.lanes[lh] = 0
		if whole {
			if gh := groupHash(k.group); !f.hasGroup(gh) {
				f.groups[gh] = struct{}{}
				f.openRow(k.group)
			}
			f.groupLanes++
			if s := f.rows[k.group]; s != nil {
				s.Lanes++
			}
		} else {
			// Every lane built has a wall lane, so a group built is there.
			g := b.wall.groups[k.group]
			if g.fold == nil {
				g.fold = &Summary{}
			}
			g.fold.Lanes++
		}
	}
	return false
}

// foldEvent counts the event being built, whose lane k was folded.
func (b *builder) foldEvent(k laneKey) {
	f := &b.fold
	f.events++
	if lh := laneHash(k); f.lanes[lh] < math.MaxUint32 {
		f.lanes[lh]++
	}
	var s *Summary
	if g := b.wall.groups[k.group]; g == nil {
		f.groupEvents++
		if len(f.rows) > 0 {
			s = f.rows[k.group]
		}
	} else {
		s = g.fold
	}
	if s == nil {
		return
	}
	s.Marks++
	if b.now != unknownStart {
		s.seeTime(b.now)
	}
}

// openRow gives group k, folded whole and new, a summary row when it is
// among the first maxSummaries folded groups in the page's order.
func (f *folding) openRow(k groupKey) {
	if maxSummaries <= 0 {
		return
	}
	if len(f.order) == maxSummaries {
		top := f.order[0]
		if !k.less(top) {
			return
		}
		heap.Pop(&f.order)
		delete(f.rows, top)
	}
	heap.Push(&f.order, k)
	f.rows[k] = &Summary{}
}

func (f *folding) hasGroup(h uint64) bool {
	_, ok := f.groups[h]
	return ok
}

// folded reports whether lane k was folded, and whether its group was,
// whole: it is not built, or only its lanes made for findings are.
func (b *builder) folded(k laneKey) (lane, whole bool) {
	if _, ok := b.fold.lanes[laneHash(k)]; !ok {
		return false, false
	}
	_, made := b.fold.madeGroups[k.group]
	return true, made || b.wall.groups[k.group] == nil
}

// unfold takes lane k out of the folded counts, as a lane is made for a
// finding on it.
func (b *builder) unfold(k laneKey, whole bool) {
	f := &b.fold
	lh := laneHash(k)
	ev := int(f.lanes[lh])
	delete(f.lanes, lh)
	f.events -= ev
	f.made++
	var s *Summary
	if whole {
		f.groupLanes--
		f.groupEvents -= ev
		s = f.rows[k.group]
		if f.madeGroups == nil {
			f.madeGroups = map[groupKey]bool{}
		}
		f.madeGroups[k.group] = s != nil
	} else if g := b.wall.groups[k.group]; g != nil {
		s = g.fold
	}
	if s != nil {
		s.Lanes--
		s.Marks -= ev
	}
}

// seeTime widens s's span to take t.
func (s *Summary) seeTime(t int64) {
	if !s.has {
		s.From, s.To, s.has = t, t, true
	}
	s.From, s.To = min(s.From, t), max(s.To, t)
}

// absorb adds o's counts and span to s.
func (s *Summary) absorb(o *Summary) {
	s.merge(*o)
	if o.has {
		s.seeTime(o.From)
		s.seeTime(o.To)
	}
}

// keyHeap is group keys with the last in the page's order on top.
type keyHeap []groupKey

func (h keyHeap) Len() int           { return len(h) }
func (h keyHeap) Less(i, j int) bool { return h[j].less(h[i]) }
func (h keyHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *keyHeap) Push(x any)        { *h = append(*h, x.(groupKey)) }
func (h *keyHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// fnv64 is FNV-1a, 64 bits: a fixed hash, so the counts are the same in
// every run.
type fnv64 uint64

const (
	fnvOffset fnv64 = 14695981039346656037
	fnvPrime  fnv64 = 1099511628211
)

func (h fnv64) u64(v uint64) fnv64 {
	for i := 0; i < 8; i++ {
		h = (h ^ fnv64(byte(v>>(8*i)))) * fnvPrime
	}
	return h
}

// str hashes s with its length, so no two keys' fields run together.
func (h fnv64) str(s string) fnv64 {
	h = h.u64(uint64(len(s)))
	for i := 0; i < len(s); i++ {
		h = (h ^ fnv64(s[i])) * fnvPrime
	}
	return h
}

func (h fnv64) group(k groupKey) fnv64 {
	return h.u64(uint64(k.sys)).u64(uint64(int64(k.shard))).str(k.name)
}

func groupHash(k groupKey) uint64 { return uint64(fnvOffset.group(k)) }

func laneHash(k laneKey) uint64 { return uint64(fnvOffset.group(k.group).str(k.name)) }

// foldRest is what the page's notes say of the folded lanes that no
// group's summary row counts: the groups folded whole past the first
// maxSummaries, with their lanes and events, and all the lanes folded.
type foldRest struct {
	lanes, events, made             int
	groups, groupLanes, groupEvents int
}

// unfoldFindings makes a lane for each finding whose subject's lane was
// folded, so the finding is drawn there from its evidence (redraw), and
// reports which findings it made lanes for (nil for none).
func (b *builder) unfoldFindings(rep *render.Report) map[int]bool {
	if rep == nil || !b.fold.any() {
		return nil
	}
	var made map[int]bool
	lanes := map[laneKey]bool{}
	b.forced = true
	defer func() { b.forced = false }()
	for i := range rep.Findings {
		k, ok := subjectKey(rep.Findings[i].Subject)
		if !ok {
			continue
		}
		if lane, whole := b.folded(k); lane {
			b.unfold(k, whole)
			switch k.group.sys {
			case sysYB:
				b.yb.peer(k.group.name, k.name)
			case sysES:
				b.es.copyOf(k.group.name, k.group.shard, k.name)
			}
			lanes[k] = b.wall.lanes[k] != nil
		}
		if !lanes[k] {
			continue
		}
		if made == nil {
			made = map[int]bool{}
		}
		made[i] = true
	}
	return made
}

// foldGroups puts the groups folded whole that have summary rows into the
// wall pane, as groups of no lanes (or of the lanes made for findings),
// and sums up the rest.
func (b *builder) foldGroups() foldRest {
	f := &b.fold
	r := foldRest{lanes: len(f.lanes), events: f.events, made: f.made,
		groups: len(f.groups) - len(f.rows), groupLanes: f.groupLanes, groupEvents: f.groupEvents}
	for _, row := range f.madeGroups {
		if !row {
			r.groups-- // on the page, with its lanes made
		}
	}
	for k, s := range f.rows {
		r.groupLanes -= s.Lanes
		r.groupEvents -= s.Marks
		g := b.wall.groups[k]
		if g == nil {
			g = &Group{Label: groupLabel(k), key: k}
			b.wall.groups[k] = g
		}
		g.fold = s
	}
	return r
}

// groupLabel is the label the builder gives group k's first lane.
func groupLabel(k groupKey) string {
	switch k.sys {
	case sysYB:
		return ybGroupLabel(k.name)
	case sysES:
		return esGroupLabel(k.name, k.shard)
	}
	return otherGroupLabel
}
