package timeline

import "fmt"

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

// bound applies MaxItems to m and then drops the evidence lines nothing
// cites any more, keeping those near a finding's evidence.
func bound(m *Model) {
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
	if total <= maxItems {
		return
	}
	cited := map[int]bool{}
	for _, f := range m.Findings {
		for _, e := range f.Ev {
			cited[e] = true
		}
	}
	keepFrac := float64(maxItems) / float64(total)
	var marksBefore, marksAfter, ptsBefore, ptsAfter int
	for _, p := range m.Panes {
		for _, g := range p.Groups {
			for _, l := range g.Lanes {
				marksBefore += len(l.Marks)
				l.Marks = sampleMarks(l.Marks, keepFrac, cited)
				marksAfter += len(l.Marks)
				for _, s := range l.Series {
					ptsBefore += len(s.Pts)
					s.Pts = samplePoints(s.Pts, keepFrac, cited)
					ptsAfter += len(s.Pts)
				}
			}
		}
	}
	m.Notes = append(m.Notes, fmt.Sprintf("the logs hold more than the page can draw: %d of %d marks and %d of %d series points are shown, sampled evenly per lane; every finding and its evidence is kept", marksAfter, marksBefore, ptsAfter, ptsBefore))
	compactLines(m)
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
