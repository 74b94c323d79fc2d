package timeline

import (
	"fmt"
	"sort"

	"github.com/logsleuth/logsleuth/internal/units"
)

// MaxItems bounds the marks and series points the page draws. A 200 MiB
// log holds hundreds of thousands of events, far more than a screen
// shows and enough to make the file hundreds of megabytes; past the
// budget each lane keeps a share, sampled evenly in time, and every mark
// and point a finding cites is kept. The page says what was left out.
const MaxItems = 20000

// maxItems is the budget bound applies: MaxItems, changed only by the
// benchmark that measures the page without it.
var maxItems = MaxItems

// contextLines is how many lines before and after a finding's evidence
// line the page keeps, where the model holds them, to show around it.
const contextLines = 3

// MaxBytes bounds what the page spends on drawn lanes and the evidence
// lines they cite, about half the page's bytes at most. A bundle of
// thousands of tablets has a lane per replica, each with its own terms,
// leases and marks: drawn in full, the page of a 17 MiB log was over
// 30 MB. Lanes that hold a finding's evidence are always drawn; the rest
// are drawn while the budget lasts, a finding's own tablet or shard
// first, then in the page's order. A lane left out is counted in its
// group's summary row (how many bands, marks and points, its first and
// last time, and the filter that draws it), up to MaxSummaries groups;
// groups past that are only counted in the page's notes.
const MaxBytes = 3 << 20

// MaxSummaries bounds the groups the page summarises in a row each; a
// row costs about 200 bytes.
const MaxSummaries = 2000

// maxBytes and maxSummaries are the budgets bound applies, changed only
// by tests and benchmarks.
var (
	maxBytes     = MaxBytes
	maxSummaries = MaxSummaries
)

// bound keeps the page within its budgets: first the lanes (budgetLanes),
// then the marks and points of the lanes drawn (sampleItems), and then
// drops the evidence lines nothing cites any more, keeping those near a
// finding's evidence.
// sampled says the builder already sampled marks or points (sample.go):
// the page then says so, with the counts of what the logs held.
func bound(m *Model, sampled bool, folded foldRest) {
	lanes := budgetLanes(m, folded)
	bands := sampleBands(m)
	items := sampleItems(m, sampled)
	if lanes || bands || items {
		compactLines(m)
	}
}

// maxBands is the bands (terms, leases, configs, bootstraps, recoveries)
// the page draws: half its item budget. A Raft-heavy log holds a term
// band per replica per election, and leases with them: 256 MiB of such
// a log held 244,000 bands, a 140 MB page, all of them in lanes that
// hold a finding.
func maxBands() int { return maxItems / 2 }

// minBands is how many bands a lane keeps however many lanes share the
// budget.
const minBands = 4

// sampleBands applies maxBands to the lanes drawn: past it, each lane
// over its share keeps its share, evenly in time on each row, with the
// first and last band of each row, its open bands and every band citing
// a finding's evidence that the builder held (a finding whose band the
// builder dropped has its evidence drawn as a mark). It reports whether it or the builder's sampling
// (thinBands) dropped any, and says so in the page's notes.
func sampleBands(m *Model) bool {
	var counts []int
	held, total := 0, 0 // the bands held, and those the logs showed
	for _, p := range m.Panes {
		for _, g := range p.Groups {
			for _, l := range g.Lanes {
				counts = append(counts, len(l.Bands))
				held += len(l.Bands)
				total += len(l.Bands) + l.dropBands
			}
		}
	}
	kept := held
	if held > maxBands() {
		level := fairLevel(counts, maxBands(), minBands)
		cited := citedLines(m)
		kept = 0
		for _, p := range m.Panes {
			for _, g := range p.Groups {
				for _, l := range g.Lanes {
					if n := len(l.Bands); n > level {
						l.Bands = sampleRows(l.Bands, float64(level)/float64(n), cited)
						l.dropBands += n - len(l.Bands)
					}
					kept += len(l.Bands)
				}
			}
		}
	}
	if kept == total {
		return false
	}
	m.Notes = append(m.Notes, fmt.Sprintf("the lanes drawn hold more bands (terms, leases, configs, bootstraps, recoveries) than the page can draw: %d of their %d bands are shown, sampled evenly per lane and row, so a gap in a row is bands left out; every finding's evidence is drawn, on its band or as a mark", kept, total))
	return true
}

// sampleRows keeps about frac of the bands on each row, evenly, the
// first and last of each row, the open ones and every one citing a line
// in cited, in their order.
func sampleRows(bs []Band, frac float64, cited map[int]bool) []Band {
	rows := map[int][]int{} // row -> indices into bs
	for i, b := range bs {
		rows[b.Row] = append(rows[b.Row], i)
	}
	keep := make([]bool, len(bs))
	step := 1 / frac
	for _, ix := range rows {
		next := 0.0
		for j, i := range ix {
			k := float64(j) >= next || j == len(ix)-1 || bs[i].Open
			if float64(j) >= next {
				next += step
			}
			for _, e := range bs[i].Ev {
				k = k || cited[e]
			}
			keep[i] = k
		}
	}
	out := bs[:0:0]
	for i, b := range bs {
		if keep[i] {
			out = append(out, b)
		}
	}
	return out
}

// fairLevel is the most items each of the holders of counts may keep for
// all to fit target, and at least floor.
func fairLevel(counts []int, target, floor int) int {
	under, hi := 0, 1
	var over []int
	for _, c := range counts {
		if c > floor {
			over = append(over, c)
			hi = max(hi, c)
		} else {
			under += c
		}
	}
	fits := func(l int) bool {
		n := under
		for _, c := range over {
			n += min(c, l)
		}
		return n <= target
	}
	lo := floor
	if !fits(lo) {
		return lo
	}
	for lo < hi { // the largest level that fits
		mid := lo + (hi-lo+1)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// countItems is the marks and series points of the lanes in m.
func countItems(m *Model) int {
	total := 0
	for _, p := range m.Panes {
		for _, g := range p.Groups {
			for _, l := range g.Lanes {
				total += len(l.Marks)
				for _, s := range l.Series {
					total += len(s.Pts)
				}
			}
		}
	}
	return total
}

// citedLines is the set of evidence lines the findings cite.
func citedLines(m *Model) map[int]bool {
	cited := map[int]bool{}
	for _, f := range m.Findings {
		for _, e := range f.Ev {
			cited[e] = true
		}
	}
	return cited
}

// sampleItems applies MaxItems, and half of MaxBytes, to the marks and
// points of the lanes drawn: past either, each lane keeps a share of its
// marks and points, evenly in time, and every one a finding cites. It
// reports whether it dropped any.
func sampleItems(m *Model, sampled bool) bool {
	must := findingLanes(m)
	var n0, ib0, n1, ib1 int
	for _, p := range m.Panes {
		for _, g := range p.Groups {
			for _, l := range g.Lanes {
				k, b := laneItems(m, l)
				if must[l] {
					n0, ib0 = n0+k, ib0+b
				} else {
					n1, ib1 = n1+k, ib1+b
				}
			}
		}
	}
	f0, f1 := itemShares(n0, ib0, n1, ib1)
	if f0 >= 1 && f1 >= 1 && !sampled {
		return false
	}
	cited := citedLines(m)
	var marksBefore, marksAfter, ptsBefore, ptsAfter int
	for _, p := range m.Panes {
		for _, g := range p.Groups {
			for _, l := range g.Lanes {
				keepFrac := f1
				if must[l] {
					keepFrac = f0
				}
				marksBefore += len(l.Marks) + l.dropMarks
				ptsBefore += l.dropPts
				if keepFrac < 1 {
					l.Marks = sampleMarks(l.Marks, keepFrac, cited)
				}
				marksAfter += len(l.Marks)
				for _, s := range l.Series {
					ptsBefore += len(s.Pts)
					if keepFrac < 1 {
						s.Pts = samplePoints(s.Pts, keepFrac, cited)
					}
					ptsAfter += len(s.Pts)
				}
			}
		}
	}
	whose := "the other lanes drawn"
	if f0 < 1 {
		whose = "the lanes drawn, those that hold a finding among them,"
	}
	m.Notes = append(m.Notes, fmt.Sprintf("%s hold more than the page can draw: %d of their %d marks and %d of their %d series points are shown, sampled evenly per lane; every finding and its evidence is kept", whose, marksAfter, marksBefore, ptsAfter, ptsBefore))
	return true
}

// findingLanes are the lanes that hold a finding: its flag, or an item
// citing its evidence.
func findingLanes(m *Model) map[*Lane]bool {
	cited := citedLines(m)
	flagged := map[string]bool{}
	for _, f := range m.Findings {
		for _, l := range f.Locs {
			flagged[l.Lane] = true
		}
	}
	out := map[*Lane]bool{}
	cites := func(evs []int) bool {
		for _, e := range evs {
			if cited[e] {
				return true
			}
		}
		return false
	}
	for _, p := range m.Panes {
		for _, g := range p.Groups {
		lanes:
			for _, l := range g.Lanes {
				if flagged[l.ID] {
					out[l] = true
					continue
				}
				for _, b := range l.Bands {
					if cites(b.Ev) {
						out[l] = true
						continue lanes
					}
				}
				for _, mk := range l.Marks {
					if cites(mk.Ev) {
						out[l] = true
						continue lanes
					}
				}
				for _, s := range l.Series {
					for _, pt := range s.Pts {
						if cited[int(pt[2])] {
							out[l] = true
							continue lanes
						}
					}
				}
			}
		}
	}
	return out
}

// The lane budget's priorities, drawn in this order.
const (
	prioFinding = iota // the lane holds a finding's evidence or flag
	prioSibling        // another lane of a finding's tablet or shard
	prioOther
)

// budgetLanes applies MaxBytes and MaxSummaries to m's lanes and reports
// whether it left any out. The cost of a lane is estimated as the bytes
// its JSON and its evidence lines take, its marks and points counted at
// the share sampleItems will keep of the marks and points of every lane
// drawn, so a lane with more marks than the page draws is not refused
// for marks it would not draw.
func budgetLanes(m *Model, folded foldRest) bool {
	must := findingLanes(m)
	type cand struct {
		g     *Group
		l     *Lane
		prio  int
		fixed int // the lane's label and bands, with their lines
		n, ib int // its marks and points, and their bytes
	}
	n := 0
	for _, p := range m.Panes {
		for _, g := range p.Groups {
			n += len(g.Lanes)
		}
	}
	cands := make([]cand, 0, n)
	findingGroup := map[*Group]bool{}
	for _, p := range m.Panes {
		for _, g := range p.Groups {
			for _, l := range g.Lanes {
				c := cand{g: g, l: l, prio: prioOther, fixed: 96 + len(l.Label) + len(l.Title) + len(l.Sub)}
				c.n, c.ib = laneItems(m, l)
				if must[l] {
					c.prio = prioFinding
					findingGroup[g] = true
				}
				for _, b := range l.Bands {
					c.fixed += 48 + len(b.Text) + lineBytes(m, b.Ev)
				}
				for _, s := range l.Series {
					c.fixed += 32 + len(s.Name)
				}
				cands = append(cands, c)
			}
		}
	}
	for i := range cands {
		if cands[i].prio == prioOther && findingGroup[cands[i].g] {
			cands[i].prio = prioSibling
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].prio < cands[j].prio })
	// The page's cost of what is drawn so far: the lanes' fixed parts in
	// full, their marks and points at the shares sampleItems will keep.
	var fixed, n0, ib0, n1, ib1 int
	cost := func(fixed, n0, ib0, n1, ib1 int) int {
		f0, f1 := itemShares(n0, ib0, n1, ib1)
		return fixed + int(float64(ib0)*f0+float64(ib1)*f1)
	}
	drawn := map[*Lane]bool{}
	for _, c := range cands {
		switch {
		case c.prio == prioFinding:
			n0, ib0 = n0+c.n, ib0+c.ib
		case cost(fixed+c.fixed, n0, ib0, n1+c.n, ib1+c.ib) <= maxBytes:
			n1, ib1 = n1+c.n, ib1+c.ib
		default:
			continue
		}
		drawn[c.l] = true
		fixed += c.fixed
	}
	if len(drawn) == len(cands) && folded.lanes+folded.made == 0 {
		return false
	}
	// Summaries: every group that keeps a lane says what it left out;
	// groups that keep none are summarised in the page's order while
	// MaxSummaries lasts, and only counted past it.
	summaries := 0
	for _, p := range m.Panes {
		for _, g := range p.Groups {
			for _, l := range g.Lanes {
				if drawn[l] {
					summaries++
					break
				}
			}
		}
	}
	var left Summary
	var groupsDrawn, groupsSummed, groupsLeft, lanesSummed int
	for _, p := range m.Panes {
		kept := p.Groups[:0]
		for _, g := range p.Groups {
			var sum Summary
			var lanes []*Lane
			if g.fold != nil {
				sum.absorb(g.fold)
			}
			for _, l := range g.Lanes {
				if drawn[l] {
					lanes = append(lanes, l)
					continue
				}
				sum.add(l)
			}
			switch {
			case sum.Lanes == 0 && len(lanes) == 0:
				continue // a folded group whose lanes were all made for findings
			case sum.Lanes == 0:
				groupsDrawn++
			case len(lanes) > 0 || summaries < maxSummaries:
				if len(lanes) == 0 {
					summaries++
				} else {
					groupsDrawn++
				}
				groupsSummed++
				lanesSummed += sum.Lanes
				sum.Filter = groupFilter(g.key)
				g.Sum = &sum
			default:
				groupsLeft++
				left.merge(sum)
				continue
			}
			if lanes == nil {
				lanes = []*Lane{}
			}
			g.Lanes = lanes
			kept = append(kept, g)
		}
		p.Groups = kept
	}
	if folded.groups > 0 {
		groupsLeft += folded.groups
		left.Lanes += folded.groupLanes
		left.Marks += folded.groupEvents
	}
	note := fmt.Sprintf("the page draws %d of %d lanes in full (every lane that holds a finding's evidence, then others while its budget of %s lasts); %d lanes of %d tablets or shards are not drawn and summarised by count and first and last time in a row of their group",
		len(drawn), len(cands)+folded.lanes, units.Bytes(int64(maxBytes)), lanesSummed, groupsSummed)
	if folded.lanes > 0 {
		note += fmt.Sprintf("; %d of the lanes not drawn (%d events) came after the first %d lanes and were only counted, not built: the counts of what they held take each event as a mark and none as a band", folded.lanes, folded.events, maxLanes)
	}
	if folded.made > 0 {
		verb := "are"
		if folded.made == 1 {
			verb = "is"
		}
		note += fmt.Sprintf("; %s not built %s drawn for the findings on them, from their evidence alone", plural(folded.made, "lane"), verb)
	}
	if groupsLeft > 0 {
		note += fmt.Sprintf("; %d more tablets or shards (%d lanes: %d bands, %d marks, %d series points) are left out entirely, past the page's %d summary rows", groupsLeft, left.Lanes, left.Bands, left.Marks, left.Points, maxSummaries)
	}
	note += "; to draw any of them, run again with --tablet ID or --peer ID (YugabyteDB), --index NAME --shard N (Elasticsearch), or --since and --until for a time window, or with fewer findings (--max-findings); logsleuth state lists every replica and shard copy"
	m.Notes = append(m.Notes, note)
	return true
}

// itemShares are the shares of their marks and points the page keeps of
// the lanes that hold a finding (n0 items, ib0 bytes with their lines)
// and of the other lanes drawn (n1, ib1). Marks and points may take
// MaxItems and half of MaxBytes. The finding lanes keep all theirs when
// they fit, and the others share what is left; when they do not, every
// lane keeps the same share.
func itemShares(n0, ib0, n1, ib1 int) (f0, f1 float64) {
	if itemShare(n0, ib0) < 1 {
		f := itemShare(n0+n1, ib0+ib1)
		return f, f
	}
	f1 = 1
	if n1 > maxItems-n0 {
		f1 = float64(maxItems-n0) / float64(n1)
	}
	if left := maxBytes/2 - ib0; ib1 > left {
		f1 = min(f1, float64(left)/float64(ib1))
	}
	return 1, max(f1, 0)
}

// itemShare is the share of n marks and points, ib bytes with their
// lines, the page keeps: all of them up to MaxItems and half of
// MaxBytes, else what fits both.
func itemShare(n, ib int) float64 {
	f := 1.0
	if n > maxItems {
		f = float64(maxItems) / float64(n)
	}
	if half := maxBytes / 2; ib > half {
		f = min(f, float64(half)/float64(ib))
	}
	return f
}

// laneItems is how many marks and points lane l has and their estimated
// bytes in the page, their evidence lines included.
func laneItems(m *Model, l *Lane) (n, bytes int) {
	for _, mk := range l.Marks {
		n++
		bytes += 40 + len(mk.Text) + lineBytes(m, mk.Ev)
	}
	for _, s := range l.Series {
		for _, pt := range s.Pts {
			n++
			bytes += 24 + lineBytes(m, []int{int(pt[2])})
		}
	}
	return n, bytes
}

// lineBytes estimates what citing the lines evs adds to the page: the
// index and, counted at each citation, the line.
func lineBytes(m *Model, evs []int) int {
	n := 0
	for _, e := range evs {
		n += 8
		if e >= 0 && e < len(m.Lines) {
			n += 32 + len(m.Lines[e].Text)*11/10
		}
	}
	return n
}

// add counts lane l into s.
func (s *Summary) add(l *Lane) {
	s.Lanes++
	s.Bands += len(l.Bands) + l.dropBands
	s.Marks += len(l.Marks) + l.dropMarks
	s.Points += l.dropPts
	see := func(t int64) {
		if !s.has {
			s.From, s.To, s.has = t, t, true
		}
		s.From, s.To = min(s.From, t), max(s.To, t)
	}
	if l.dropHas {
		see(l.dropLo)
		see(l.dropHi)
	}
	for _, b := range l.Bands {
		see(b.From)
		see(b.To)
	}
	for _, mk := range l.Marks {
		see(mk.At)
	}
	for _, sr := range l.Series {
		s.Points += len(sr.Pts)
		for _, pt := range sr.Pts {
			see(pt[0])
		}
	}
}

// merge adds o's counts to s (the times are not merged).
func (s *Summary) merge(o Summary) {
	s.Lanes += o.Lanes
	s.Bands += o.Bands
	s.Marks += o.Marks
	s.Points += o.Points
}

// groupFilter is the analyze flags that select group k alone.
func groupFilter(k groupKey) string {
	switch {
	case k.sys == sysYB && k.name != "":
		return "--tablet " + k.name
	case k.sys == sysES && k.name != "" && k.shard >= 0:
		return fmt.Sprintf("--index %s --shard %d", k.name, k.shard)
	}
	return ""
}

// sampleMarks keeps about frac of marks, evenly, and every mark citing a
// line in cited.
func sampleMarks(ms []Mark, frac float64, cited map[int]bool) []Mark {
	if len(ms) == 0 {
		return ms
	}
	step := 1 / frac
	out := ms[:0:0]
	next := 0.0
	for i, mk := range ms {
		keep := float64(i) >= next
		if keep {
			next += step
		}
		for _, e := range mk.Ev {
			keep = keep || cited[e]
		}
		if keep {
			out = append(out, mk)
		}
	}
	return out
}

// samplePoints keeps about frac of a series' points, evenly, its first
// and last, and every point citing a line in cited.
func samplePoints(ps [][3]int64, frac float64, cited map[int]bool) [][3]int64 {
	if len(ps) < 3 {
		return ps
	}
	step := 1 / frac
	out := ps[:0:0]
	next := 0.0
	for i, p := range ps {
		keep := float64(i) >= next || i == len(ps)-1 || cited[int(p[2])]
		if float64(i) >= next {
			next += step
		}
		if keep {
			out = append(out, p)
		}
	}
	return out
}

// compactLines drops the lines no item or finding cites, except those
// within contextLines of a finding's evidence, and renumbers the rest.
func compactLines(m *Model) {
	used := make([]bool, len(m.Lines))
	mark := func(i int) {
		if i >= 0 && i < len(used) {
			used[i] = true
		}
	}
	near := map[[2]int]bool{} // (source, line) within reach of a finding
	for _, f := range m.Findings {
		for _, e := range f.Ev {
			mark(e)
			l := m.Lines[e]
			for d := -contextLines; d <= contextLines; d++ {
				near[[2]int{l.Src, l.Line + d}] = true
			}
		}
	}
	for i, l := range m.Lines {
		if near[[2]int{l.Src, l.Line}] {
			used[i] = true
		}
	}
	for _, p := range m.Panes {
		for _, b := range p.Spans {
			for _, e := range b.Ev {
				mark(e)
			}
		}
		for _, g := range p.Groups {
			for _, l := range g.Lanes {
				for _, b := range l.Bands {
					for _, e := range b.Ev {
						mark(e)
					}
				}
				for _, mk := range l.Marks {
					for _, e := range mk.Ev {
						mark(e)
					}
				}
				for _, s := range l.Series {
					for _, pt := range s.Pts {
						mark(int(pt[2]))
					}
				}
			}
		}
	}
	remap := make([]int, len(m.Lines))
	var lines []Line
	for i, l := range m.Lines {
		remap[i] = -1
		if used[i] {
			remap[i] = len(lines)
			lines = append(lines, l)
		}
	}
	if lines == nil {
		lines = []Line{}
	}
	re := func(evs []int) {
		for j, e := range evs {
			if e >= 0 && e < len(remap) {
				evs[j] = remap[e]
			}
		}
	}
	for _, f := range m.Findings {
		re(f.Ev)
	}
	for _, p := range m.Panes {
		for _, b := range p.Spans {
			re(b.Ev)
		}
		for _, g := range p.Groups {
			for _, l := range g.Lanes {
				for _, b := range l.Bands {
					re(b.Ev)
				}
				for _, mk := range l.Marks {
					re(mk.Ev)
				}
				for _, s := range l.Series {
					for j := range s.Pts {
						if e := int(s.Pts[j][2]); e >= 0 && e < len(remap) {
							s.Pts[j][2] = int64(remap[e])
						}
					}
				}
			}
		}
	}
	m.Lines = lines
}
