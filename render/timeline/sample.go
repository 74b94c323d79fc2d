package timeline

import "sort"

// The builder keeps what the page can draw, not what the logs hold. A
// 200 MiB log holds millions of events; the page draws MaxItems marks and
// points. So each lane's marks of one kind, and each series, keep every
// step-th item as they arrive, step doubling for those over their share
// while the items kept exceed twice the page's budget; the page's own
// sampling (budget.go) then cuts what is left to the budget, with every
// finding's evidence. A lane counts what it dropped and when, for the
// page's notes and summary rows, and the evidence table is compacted to
// the lines what is kept cites. Sampling is by arrival order only, so the
// same input keeps the same items.

// sampler is the stride of one lane's marks of a kind, or of one series.
type sampler struct {
	lane *Lane
	step int // keep the items whose arrival index is a multiple of step
	seen int // items offered
	kept int // items held
}

// markTag is where a mark kept in Lane.Marks came from.
type markTag struct {
	smp *sampler
	idx int
}

// markKey names the sampler of one lane's marks of a kind.
type markKey struct {
	lane *Lane
	kind string
}

type sampling struct {
	all   []*sampler
	marks map[markKey]*sampler
	// kept is the marks and points held; limit is when to thin them.
	kept, limit int
	// thinned is set once any item was dropped: the evidence table is
	// compacted from then on, and findings whose evidence lost its mark
	// get one drawn.
	thinned bool
	// linesDue and placesDue are the table sizes at which it is compacted
	// next.
	linesDue, placesDue int
	// bigTable is the table size compacted even when nothing was thinned:
	// lines that no item cites (dump entries of kinds not drawn) do not
	// count toward the items.
	bigTable int
}

func (s *sampling) init() {
	s.marks = map[markKey]*sampler{}
	s.limit = budgetLimit()
	s.linesDue, s.placesDue = 1<<12, 1<<12
	s.bigTable = 1 << 20
}

// budgetLimit is how many items the builder holds before thinning: twice
// what the page draws.
func budgetLimit() int {
	if maxItems > 1<<40 {
		return 1 << 62
	}
	return 2 * maxItems
}

func (b *builder) newSampler(l *Lane) *sampler {
	s := &sampler{lane: l, step: 1}
	b.smp.all = append(b.smp.all, s)
	return s
}

// register starts the sampling of series s, at its first point.
func (b *builder) register(s *Series) {
	s.smp.step = 1
	b.smp.all = append(b.smp.all, &s.smp)
	s.smp.lane.series = append(s.smp.lane.series, s)
}

// keepMark reports whether the next mark of kind on lane l, at at, is
// kept, and its tag; a mark not kept is only counted.
func (b *builder) keepMark(l *Lane, kind string, at int64) (markTag, bool) {
	k := markKey{l, kind}
	s := b.smp.marks[k]
	if s == nil {
		s = b.newSampler(l)
		b.smp.marks[k] = s
	}
	i := s.seen
	s.seen++
	if i%s.step != 0 {
		l.dropMarks++
		l.dropped(at)
		return markTag{}, false
	}
	return markTag{smp: s, idx: i}, true
}

// addMark adds a mark keepMark kept.
func (b *builder) addMark(l *Lane, t markTag, mk Mark) {
	l.Marks = append(l.Marks, mk)
	l.tags = append(l.tags, t)
	t.smp.kept++
	b.held()
}

// newSeries is a series of lane l, attached to the lane's Series by the
// system's finish once it holds points.
func (b *builder) newSeries(l *Lane, name, kind string) *Series {
	s := &Series{Name: name, Kind: kind}
	s.smp.lane = l
	return s
}

// addPoint adds a point to series s. A series always holds its last
// point, the value it ends at, even off its stride.
func (b *builder) addPoint(s *Series, pt [3]int64) {
	l := s.smp.lane
	if s.smp.step == 0 {
		b.register(s)
	}
	if !s.vhas || pt[1] < s.vlo {
		s.vlo = pt[1]
	}
	if !s.vhas || pt[1] > s.vhi {
		s.vhi = pt[1]
	}
	s.vhas = true
	if s.tail {
		n := len(s.Pts) - 1
		l.dropPts++
		l.dropped(s.Pts[n][0])
		s.Pts, s.idx = s.Pts[:n], s.idx[:n]
		s.smp.kept--
		b.smp.kept--
	}
	i := s.smp.seen
	s.smp.seen++
	s.Pts = append(s.Pts, pt)
	s.idx = append(s.idx, i)
	s.tail = i%s.smp.step != 0
	s.smp.kept++
	b.held()
}

// dropped widens the range of the items lane l dropped to take t.
func (l *Lane) dropped(t int64) {
	if !l.dropHas || t < l.dropLo {
		l.dropLo = t
	}
	if !l.dropHas || t > l.dropHi {
		l.dropHi = t
	}
	l.dropHas = true
}

// held counts an item kept and thins when they are over the limit.
func (b *builder) held() {
	b.smp.kept++
	if b.smp.kept > b.smp.limit {
		b.thin()
	}
}

// minKept is how many items a sampler keeps before it is thinned at all:
// a lane with a few marks of a kind, the usual lane of a finding among
// thousands of replicas, is drawn whole however large the input. The
// floors of all samplers together take at most floorItems (4 MaxItems):
// past floorItems/minKept samplers (5,000: 500 replicas with marks of
// ten kinds) each keeps fewer, down to minFloor, so what the builder
// holds follows the page's budget and not the number of lanes times 16:
// 1,200 replicas of a 1 GiB tserver log held 190,000 marks with their
// lines, where the page draws 20,000.
const (
	minKept  = 16
	minFloor = 4
)

// floor is the items a sampler keeps before it is thinned: minKept, less
// once the samplers' floors would take more than 4 MaxItems together.
func (s *sampling) floor() int {
	if maxItems > 1<<40 || len(s.all) == 0 {
		return minKept
	}
	return max(minFloor, min(minKept, 4*maxItems/len(s.all)))
}

// thin doubles the stride of the samplers holding the most items, those
// above the level at which the items held fit half the limit (never below
// the floor), until they fit or no sampler is above the level. The next
// thinning is due when the items held double or pass the limit, whichever
// is later, so thinning costs a constant per item.
func (b *builder) thin() {
	s := &b.smp
	target := budgetLimit() / 2
	for s.kept > target {
		before := s.kept
		level := s.level(target)
		dirty := map[*Lane]bool{}
		var series []*Series
		for _, x := range s.all {
			if x.kept > level {
				x.step *= 2
				dirty[x.lane] = true
			}
		}
		if len(dirty) == 0 {
			break
		}
		// Thinning a lane does not depend on the others, so the map's
		// order does not matter.
		for l := range dirty {
			b.thinMarks(l)
			series = append(series, l.series...)
		}
		for _, sr := range series {
			b.thinSeries(sr)
		}
		s.thinned = true
		if s.kept >= before {
			break // each sampler is down to its first and last item
		}
	}
	s.limit = max(budgetLimit(), 2*s.kept)
}

// level is the most items a sampler may hold for all to fit target, and
// at least its floor.
func (s *sampling) level(target int) int {
	counts := make([]int, len(s.all))
	for i, x := range s.all {
		counts[i] = x.kept
	}
	return fairLevel(counts, target, s.floor())
}

// thinMarks drops lane l's marks off their sampler's stride.
func (b *builder) thinMarks(l *Lane) {
	ms, ts := l.Marks[:0], l.tags[:0]
	for i, mk := range l.Marks {
		t := l.tags[i]
		if t.idx%t.smp.step == 0 {
			ms, ts = append(ms, mk), append(ts, t)
			continue
		}
		t.smp.kept--
		b.smp.kept--
		l.dropMarks++
		l.dropped(mk.At)
	}
	clear(l.Marks[len(ms):])
	l.Marks, l.tags = ms, ts
}

// thinSeries drops the points of sr off its stride, but its last.
func (b *builder) thinSeries(sr *Series) {
	l := sr.smp.lane
	ps, ix := sr.Pts[:0], sr.idx[:0]
	for i, p := range sr.Pts {
		if sr.idx[i]%sr.smp.step == 0 || i == len(sr.Pts)-1 {
			ps, ix = append(ps, p), append(ix, sr.idx[i])
			continue
		}
		sr.smp.kept--
		b.smp.kept--
		l.dropPts++
		l.dropped(p[0])
	}
	sr.Pts, sr.idx = ps, ix
	sr.tail = len(ix) > 0 && ix[len(ix)-1]%sr.smp.step != 0
}

// compactIfDue compacts the evidence table when it has grown past what
// the items kept cite: after thinning, or when it is very large.
func (b *builder) compactIfDue() {
	s := &b.smp
	n, p := len(b.m.Lines), len(b.places)
	if !s.thinned && n < s.bigTable {
		return
	}
	if n < s.linesDue && p < s.placesDue {
		return
	}
	b.thinBands()
	b.compact()
	s.linesDue = max(2*len(b.m.Lines), 1<<12)
	s.placesDue = max(2*len(b.places), 1<<12)
}

// compact keeps the lines that a band, mark, point or span cites, and the
// places anchored on them, renumbering the citations.
func (b *builder) compact() {
	used := make([]bool, len(b.m.Lines))
	b.eachCitation(func(e *int) {
		if *e >= 0 && *e < len(used) {
			used[*e] = true
		}
	})
	remap := make([]int, len(b.m.Lines))
	lines := make([]Line, 0, len(b.m.Lines)/2)
	keys := make([]lineRef, 0, len(b.m.Lines)/2)
	idx := make(map[lineRef]int, len(b.m.Lines)/2)
	for i, l := range b.m.Lines {
		remap[i] = -1
		if used[i] {
			remap[i] = len(lines)
			idx[b.lineRefs[i]] = len(lines)
			lines = append(lines, l)
			keys = append(keys, b.lineRefs[i])
		}
	}
	b.eachCitation(func(e *int) {
		if *e >= 0 && *e < len(remap) {
			*e = remap[*e]
		}
	})
	b.m.Lines, b.lineRefs, b.lineIdx = lines, keys, idx
	places := b.places[:0]
	for _, p := range b.places {
		if _, ok := idx[lineRef{b.srcID(p.src), p.anchor}]; ok {
			places = append(places, p)
		}
	}
	clear(b.places[len(places):])
	b.places = places
}

// eachCitation calls f with every evidence index the items hold.
func (b *builder) eachCitation(f func(*int)) {
	evs := func(ev []int) {
		for i := range ev {
			f(&ev[i])
		}
	}
	for _, p := range []*paneB{b.wall, b.ht} {
		for i := range p.pane.Spans {
			evs(p.pane.Spans[i].Ev)
		}
		for _, l := range p.lanes {
			for i := range l.Bands {
				evs(l.Bands[i].Ev)
			}
			for i := range l.Marks {
				evs(l.Marks[i].Ev)
			}
			for _, s := range l.series {
				for i := range s.Pts {
					e := int(s.Pts[i][2])
					f(&e)
					s.Pts[i][2] = int64(e)
				}
			}
		}
	}
}

// timeIndex maps a source's line numbers to the wall times they were
// drawn at, sparsely: at most timeIndexMax entries, every step-th line
// apart, step doubling when full. It places a finding's evidence line
// whose mark was sampled out, at the time of the nearest line before it.
type timeIndex struct {
	step int
	next int // the first line the next entry may be
	line []int
	at   []int64
}

const timeIndexMax = 1 << 12

func (b *builder) timeIndex(src string) *timeIndex {
	ix := b.times[src]
	if ix == nil {
		ix = &timeIndex{step: 1}
		b.times[src] = ix
	}
	return ix
}

func (ix *timeIndex) add(line int, at int64) {
	if line < ix.next {
		return
	}
	if len(ix.line) == timeIndexMax {
		n := 0
		for i := 0; i < len(ix.line); i += 2 {
			ix.line[n], ix.at[n] = ix.line[i], ix.at[i]
			n++
		}
		ix.line, ix.at = ix.line[:n], ix.at[:n]
		ix.step *= 2
	}
	ix.line = append(ix.line, line)
	ix.at = append(ix.at, at)
	ix.next = line + ix.step
}

// lookup is the time of the last entry at or before line.
func (ix *timeIndex) lookup(line int) (int64, bool) {
	i := sort.SearchInts(ix.line, line+1) - 1
	if i < 0 {
		return 0, false
	}
	return ix.at[i], true
}

// thinBands bounds the bands the builder holds as the marks are: once the
// lanes hold more than twice the page's band budget, the lanes over their
// share double their stride and drop the closed bands off it that the
// builder no longer writes to. Which bands a finding will cite is not
// known yet; a finding whose evidence lost its band gets a mark drawn,
// as one whose mark was sampled away does.
func (b *builder) thinBands() {
	var lanes []*Lane
	var counts []int
	total := 0
	for _, p := range []*paneB{b.wall, b.ht} {
		for _, l := range p.lanes {
			lanes = append(lanes, l)
			counts = append(counts, len(l.Bands))
			total += len(l.Bands)
		}
	}
	if total <= 2*maxBands() {
		return
	}
	level := fairLevel(counts, maxBands(), minBands)
	over := map[*Lane]bool{}
	for _, l := range lanes {
		if len(l.Bands) > level {
			over[l] = true
		}
	}
	// The bands the builder still indexes stay, and are renumbered.
	held := map[*Lane]map[int]bool{}
	refs := func(f func(*Lane, *int)) {
		b.yb.bandRefs(f)
		b.es.bandRefs(f)
	}
	refs(func(l *Lane, i *int) {
		if over[l] && *i >= 0 {
			if held[l] == nil {
				held[l] = map[int]bool{}
			}
			held[l][*i] = true
		}
	})
	remaps := map[*Lane][]int{}
	for l := range over {
		for i := range l.Bands {
			if l.Bands[i].seq == 0 {
				l.bandSeq++
				l.Bands[i].seq = l.bandSeq
			}
		}
		l.bandStep = max(2*l.bandStep, 2)
		remap := make([]int, len(l.Bands))
		kept := l.Bands[:0]
		for i, bd := range l.Bands {
			remap[i] = len(kept)
			if bd.Open || held[l][i] || (bd.seq-1)%l.bandStep == 0 {
				kept = append(kept, bd)
				continue
			}
			remap[i] = -1
			l.dropBands++
			if bd.From != unknownStart {
				l.dropped(bd.From)
			}
			l.dropped(bd.To)
		}
		clear(l.Bands[len(kept):])
		l.Bands = kept
		remaps[l] = remap
	}
	refs(func(l *Lane, i *int) {
		if r := remaps[l]; r != nil && *i >= 0 && *i < len(r) {
			*i = r[*i]
		}
	})
	b.smp.thinned = true
}
