package timeline

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/render"
	"github.com/logsleuth/logsleuth/rules"
)

// Order is the wall pane's axis when no event printed a wall time (a
// pasted excerpt): events are then spaced one second apart in timeline
// order, and the page labels the axis as event order, not as a clock.
const Order Axis = "order"

// unknownStart marks a band whose start the logs do not show (a member of
// the first config seen, already there before it); finish moves it to the
// start of the axis.
const unknownStart = math.MinInt64 / 2

// maxEvidence bounds the lines one band cites (a long RBS session, a
// recovery), so one item cannot grow the page without bound.
const maxEvidence = 16

type lineKey struct {
	src  string
	line int
}

// lineRef is a line of a source by the source's builder-wide id: the
// evidence table's index, cheaper to hash than a lineKey.
type lineRef struct {
	src  int32
	line int
}

// place is where an evidence line was drawn, so a finding citing it is
// drawn there too.
type place struct {
	pane int
	lane *Lane
	at   int64
	row  int
}

// paneB collects one pane's groups and lanes.
type paneB struct {
	pane   *Pane
	groups map[groupKey]*Group
	lanes  map[laneKey]*Lane
	lo, hi int64
	has    bool
}

// The systems, in the order the page draws their groups.
const (
	sysYB    = 1
	sysES    = 2
	sysOther = 9
)

// groupKey names a group by its parts, never by joining them: a tablet
// id, an index name or a file name can hold any separator, and two
// subjects whose joined names collided would share a lane, one of them
// gone from the page. The key is also the group's sort order.
type groupKey struct {
	sys   int    // sysYB, sysES or sysOther
	name  string // the tablet, the index; empty for sysOther
	shard int    // the Elasticsearch shard number, -1 for none
}

// laneKey names a lane within its pane's group: the peer, the node, or
// for sysOther the source.
type laneKey struct {
	group groupKey
	name  string
}

func (a groupKey) less(b groupKey) bool {
	if a.sys != b.sys {
		return a.sys < b.sys
	}
	if a.name != b.name {
		return a.name < b.name
	}
	return a.shard < b.shard
}

func (a laneKey) less(b laneKey) bool {
	if a.group != b.group {
		return a.group.less(b.group)
	}
	return a.name < b.name
}

func newPaneB(axis Axis, title, note string) *paneB {
	return &paneB{pane: &Pane{Axis: axis, Title: title, Note: note}, groups: map[groupKey]*Group{}, lanes: map[laneKey]*Lane{}}
}

// see widens the pane's range to take t.
func (p *paneB) see(t int64) {
	if t == unknownStart {
		return
	}
	if !p.has || t < p.lo {
		p.lo = t
	}
	if !p.has || t > p.hi {
		p.hi = t
	}
	p.has = true
}

// lane returns the lane k, creating it and its group. Ids are given in
// finish, once every lane is known, as short opaque names in draw order:
// the page's script looks lanes up by them, and no log text is in them.
func (p *paneB) lane(k laneKey, glabel, label, title string) *Lane {
	if l := p.lanes[k]; l != nil {
		return l
	}
	g := p.groups[k.group]
	if g == nil {
		g = &Group{Label: glabel, key: k.group}
		p.groups[k.group] = g
	}
	l := &Lane{Label: label, Title: title, key: k}
	g.Lanes = append(g.Lanes, l)
	p.lanes[k] = l
	return l
}

// builder turns a timeline of events into a Model. It is a single pass in
// timeline order, like replay, keeping per-lane state (the open term band,
// the open lease, the open session) and closing what is still open at the
// end of the axis. What it keeps is bounded by what the page can draw, not
// by the input: marks and points are sampled per lane as they arrive
// (sample.go), and the evidence table keeps only the lines what is kept
// cites.
type builder struct {
	m *Model
	// srcIdx and srcNames are the sources as first seen; Finish orders
	// them as the report lists them.
	srcIdx   map[string]int
	srcNames []string
	lineIdx  map[lineRef]int
	// lineRefs is the key of each line of m.Lines, to rebuild lineIdx
	// when the table is compacted.
	lineRefs []lineRef
	// srcIDs numbers the sources for lineRef as first seen; unlike
	// srcIdx it is never reordered. lastSrc and lastID are the source
	// numbered last, since lines come in runs of one source.
	srcIDs  map[string]int32
	lastSrc string
	lastID  int32
	wall    *paneB
	ht      *paneB
	// places are where lines were drawn, in the order they were; a place
	// lives while its anchor line is in the table.
	places []placeRec
	// now is the wall position of the event being built, in microseconds.
	now   int64
	yb    *ybBuilder
	es    *esBuilder
	other int
	smp   sampling
	// placeIdx is places by line, made at the end.
	placeIdx map[lineKey][]place
	// times is, per source, a sparse index of line number to wall time,
	// to draw a finding's evidence line whose mark was sampled out.
	times map[string]*timeIndex
	// fold counts the lanes past maxLanes (fold.go); forced makes lanes
	// past it, for findings on folded lanes.
	fold   folding
	forced bool
}

// placeRec records that lines first..last of src are drawn at p.
type placeRec struct {
	src         string
	first, last int
	anchor      int // the line of src whose presence keeps the record
	p           place
}

func newBuilder() *builder {
	b := &builder{
		m:       &Model{Counts: map[string]int{}, Sources: []string{}, Lines: []Line{}, Findings: []*Finding{}},
		srcIdx:  map[string]int{},
		lineIdx: map[lineRef]int{},
		srcIDs:  map[string]int32{},
		lastID:  -1,
		wall:    newPaneB(Wall, "Wall time", "times the log lines printed, as printed (no time-zone conversion); merged across sources"),
		ht:      newPaneB(Hybrid, "Hybrid time", "YugabyteDB hybrid time, physical microseconds: MVCC dump entries, which print no wall time; each lane's rows are the entries in dump order, top to bottom"),
		times:   map[string]*timeIndex{},
	}
	b.yb = newYBBuilder(b)
	b.es = newESBuilder(b)
	b.smp.init()
	b.fold.init()
	return b
}

// pendingBase is the wall position of the events before the first one that
// printed a time, until that event says where they are: they are drawn at
// its time, as Merge placed them. It lies far from any real time and from
// unknownStart, so a position derived from it (a lease's end, D after it)
// is known as one and moved with it.
const pendingBase = -(int64(1) << 61)

// pendingSpan bounds how far from pendingBase a derived position lies.
const pendingSpan = int64(1) << 55

// Builder makes the Model of a run from its events, given one at a time
// in timeline order (as replay.Merge returns them), so a run need not keep
// its events for the page: what the builder holds is bounded by what the
// page draws.
type Builder struct {
	timed *builder
	// order builds the event-order axis, used when no event prints a wall
	// time; it is dropped at the first event that does.
	order  *builder
	n      int
	timed0 bool // an event printed a wall time
	m      *Model
}

// NewBuilder starts an empty timeline.
func NewBuilder() *Builder {
	return &Builder{timed: newBuilder(), order: newBuilder()}
}

// Add draws event e, the next one of the timeline.
func (tb *Builder) Add(e parse.Event) {
	t := e.Info().Time
	if !t.IsZero() && !tb.timed0 {
		tb.timed0 = true
		tb.order = nil
		tb.timed.shift(t.UnixMicro())
	}
	if tb.order != nil {
		tb.order.add(e, int64(tb.n)*1_000_000)
	}
	switch {
	case !t.IsZero():
		tb.timed.add(e, t.UnixMicro())
	case !tb.timed0:
		tb.timed.add(e, pendingBase)
	default:
		// An untimed event keeps the time of the one before it, as
		// Merge placed it.
		tb.timed.add(e, tb.timed.now)
	}
	tb.n++
}

// Finish makes the Model of the events added and the report's findings.
// It is called once the events are all added; later calls return the
// same Model.
func (tb *Builder) Finish(rep *render.Report) *Model {
	if tb.m != nil {
		return tb.m
	}
	b := tb.timed
	if tb.order != nil && tb.n > 0 {
		b = tb.order
		b.wall.pane.Axis = Order
		b.wall.pane.Title = "Event order"
		b.wall.pane.Note = "no line printed a wall time: events are spaced evenly in timeline order"
	}
	tb.timed, tb.order = nil, nil
	b.finish(rep)
	tb.m = b.m
	return tb.m
}

// Build makes the Model of a run: the merged events (in timeline order, as
// replay.Merge returns them) and the report's findings.
func Build(events []parse.Event, rep *render.Report) *Model {
	tb := NewBuilder()
	for _, e := range events {
		tb.Add(e)
	}
	return tb.Finish(rep)
}

// add draws event e at wall position now.
func (b *builder) add(e parse.Event, now int64) {
	b.now = now
	b.wall.see(b.now)
	m := e.Info()
	b.timeIndex(m.Pos.Source).add(m.Pos.Line, now)
	if !b.yb.event(e) && !b.es.event(e) {
		b.generic(e)
	}
	b.compactIfDue()
}

// shift moves what was drawn at pendingBase to first, the time of the
// first event that printed one.
func (b *builder) shift(first int64) {
	d := first - pendingBase
	fix := func(v *int64) {
		if *v > pendingBase-pendingSpan && *v < pendingBase+pendingSpan {
			*v += d
		}
	}
	fix(&b.now)
	if b.wall.has {
		fix(&b.wall.lo)
		fix(&b.wall.hi)
	}
	for _, l := range b.wall.lanes {
		for i := range l.Bands {
			fix(&l.Bands[i].From)
			fix(&l.Bands[i].To)
		}
		for i := range l.Marks {
			fix(&l.Marks[i].At)
		}
		for _, s := range l.series {
			for i := range s.Pts {
				fix(&s.Pts[i][0])
			}
		}
		fix(&l.dropLo)
		fix(&l.dropHi)
	}
	for i := range b.wall.pane.Spans {
		fix(&b.wall.pane.Spans[i].From)
		fix(&b.wall.pane.Spans[i].To)
	}
	for i := range b.places {
		if b.places[i].p.pane == 0 {
			fix(&b.places[i].p.at)
		}
	}
	for _, p := range b.yb.peers {
		fix(&p.leaderFrom)
	}
	for _, ix := range b.times {
		for i := range ix.at {
			fix(&ix.at[i])
		}
	}
}

// src returns the index of source s in Model.Sources.
func (b *builder) src(s string) int {
	if i, ok := b.srcIdx[s]; ok {
		return i
	}
	i := len(b.m.Sources)
	b.m.Sources = append(b.m.Sources, render.Sanitize(s))
	b.srcNames = append(b.srcNames, s)
	b.srcIdx[s] = i
	return i
}

// line returns the index of an evidence line, adding it once.
func (b *builder) line(src string, line int, text string) int {
	k := lineRef{b.srcID(src), line}
	if i, ok := b.lineIdx[k]; ok {
		return i
	}
	i := len(b.m.Lines)
	t := render.Sanitize(text)
	if b.smp.thinned {
		// The text may be a slice of the reader's buffer, which a line
		// kept among the few sampled from it would keep whole.
		t = strings.Clone(t)
	}
	b.m.Lines = append(b.m.Lines, Line{Src: b.src(src), Line: line, Text: t})
	b.lineRefs = append(b.lineRefs, k)
	b.lineIdx[k] = i
	return i
}

// srcID is the lineRef number of source s.
func (b *builder) srcID(s string) int32 {
	if b.lastID >= 0 && s == b.lastSrc {
		return b.lastID
	}
	id, ok := b.srcIDs[s]
	if !ok {
		id = int32(len(b.srcIDs))
		b.srcIDs[s] = id
	}
	b.lastSrc, b.lastID = s, id
	return id
}

// evLine is the evidence index of an event's first line.
func (b *builder) evLine(e parse.Event) int {
	m := e.Info()
	return b.line(m.Pos.Source, m.Pos.Line, m.Text)
}

// placeLines records that lines first..last of src are drawn at p.
func (b *builder) placeLines(src string, first, last int, p place) {
	if last < first {
		last = first
	}
	// A block longer than this is a dump whose entries place themselves.
	if last-first > 64 {
		last = first
	}
	b.places = append(b.places, placeRec{src: src, first: first, last: last, anchor: first, p: p})
}

// placeLine records that line of src is drawn at p, while anchor is in
// the table.
func (b *builder) placeLine(src string, line, anchor int, p place) {
	b.places = append(b.places, placeRec{src: src, first: line, last: line, anchor: anchor, p: p})
}

// mark adds a wall-time mark for event e on lane l and records its lines.
func (b *builder) mark(l *Lane, e parse.Event, kind, text string) {
	t, ok := b.keepMark(l, kind, b.now)
	if !ok {
		return
	}
	m := e.Info()
	b.addMark(l, t, Mark{At: b.now, Kind: kind, Text: text, Ev: []int{b.evLine(e)}})
	b.placeLines(m.Pos.Source, m.Pos.Line, m.Last, place{pane: 0, lane: l, at: b.now})
}

// htMark adds a hybrid-time mark on lane l at row, citing src:line.
func (b *builder) htMark(l *Lane, at int64, row int, kind, text string, src string, line int, lineText string) {
	b.ht.see(at)
	t, ok := b.keepMark(l, kind, at)
	if !ok {
		return
	}
	ev := b.line(src, line, lineText)
	b.addMark(l, t, Mark{At: at, Row: row, Kind: kind, Text: text, Ev: []int{ev}})
	b.placeLine(src, line, line, place{pane: 1, lane: l, at: at, row: row})
}

// otherGroupLabel is the label of the group of events that name no
// subject.
const otherGroupLabel = "Events that name no tablet or shard"

// generic draws an event no system builder knows: on its subject's lane
// when it names one, else on a lane of its source. New event types thus
// appear in the page before anyone teaches the page about them.
func (b *builder) generic(e parse.Event) {
	var l *Lane
	var k laneKey
	if s, ok := e.(interface{ Subject() (tablet, peer string) }); ok {
		t, p := s.Subject()
		k = ybLaneKey(t, p)
		l = b.yb.wallLane(t, p)
	} else if s, ok := e.(interface {
		ShardSubject() (index string, shard int, node string)
	}); ok {
		idx, shard, node := s.ShardSubject()
		k = copyKey(idx, shard, node)
		l = b.es.lane(idx, shard, node)
	} else {
		src := e.Info().Pos.Source
		b.other++
		k = laneKey{groupKey{sys: sysOther, shard: -1}, src}
		if b.admit(k) {
			l = b.wall.lane(k, otherGroupLabel, src, "events of "+src+" that name no tablet or shard")
		}
	}
	if l == nil {
		b.foldEvent(k)
		return
	}
	b.mark(l, e, "event", e.Kind())
}

// finish closes open bands, sorts everything for the script (marks by
// time, for its binary search) and for determinism, and places findings.
func (b *builder) finish(rep *render.Report) {
	if b.smp.thinned {
		b.compact()
	}
	b.smp.marks, b.smp.all = nil, nil
	for _, p := range []*paneB{b.wall, b.ht} {
		for _, l := range p.lanes {
			l.tags = nil
		}
	}
	made := b.unfoldFindings(rep)
	b.yb.finish()
	b.es.finish()
	b.orderSources(rep)
	b.placeIdx = b.placeMap()
	if rep != nil && (b.smp.thinned || made != nil) {
		for i := range rep.Findings {
			if b.smp.thinned || made[i] {
				b.redraw(&rep.Findings[i])
			}
		}
	}
	rest := b.foldGroups()
	panes := []*paneB{b.wall, b.ht}
	groups, lanes := 0, 0
	for i, p := range panes {
		if !p.has {
			p.lo, p.hi = 0, 1_000_000
		}
		if p.hi <= p.lo {
			p.lo -= 500_000
			p.hi += 500_000
		}
		p.pane.Min, p.pane.Max = p.lo, p.hi
		gs := make([]*Group, 0, len(p.groups))
		for _, g := range p.groups {
			gs = append(gs, g)
		}
		sort.Slice(gs, func(x, y int) bool { return gs[x].key.less(gs[y].key) })
		for _, g := range gs {
			g.ID = "g" + strconv.Itoa(groups)
			groups++
			sort.Slice(g.Lanes, func(x, y int) bool { return g.Lanes[x].key.less(g.Lanes[y].key) })
			for _, l := range g.Lanes {
				l.ID = "l" + strconv.Itoa(lanes)
				lanes++
				for j := range l.Bands {
					if l.Bands[j].From == unknownStart {
						l.Bands[j].From = p.lo
					}
				}
				sort.SliceStable(l.Marks, func(x, y int) bool { return l.Marks[x].At < l.Marks[y].At })
				sort.SliceStable(l.Bands, func(x, y int) bool { return l.Bands[x].From < l.Bands[y].From })
			}
			p.pane.Groups = append(p.pane.Groups, g)
		}
		if p.pane.Groups == nil {
			p.pane.Groups = []*Group{}
		}
		if i == 0 || len(p.pane.Groups) > 0 {
			b.m.Panes = append(b.m.Panes, p.pane)
		}
	}
	if b.other > 0 {
		b.m.Notes = append(b.m.Notes, fmt.Sprintf("%d events name no tablet or shard; they are drawn on a lane of their source", b.other))
	}
	if rep != nil {
		for i := range rep.Findings {
			b.finding(&rep.Findings[i])
		}
		b.m.Title = title(rep)
		b.m.Diags, b.m.Year, b.m.YearGuessed = diagnostics(rep)
		if p := rep.Provenance; p != nil {
			b.m.Footer = p.FooterLine()
		}
		for i, c := range rep.Stats.Recognitions() {
			if i == maxDiags {
				b.m.Recognised = append(b.m.Recognised, fmt.Sprintf("... and %d more sources (see the JSON report)", len(rep.Stats.Sources)-i))
				break
			}
			b.m.Recognised = append(b.m.Recognised, render.Sanitize(c.String()))
		}
		if note := omittedNote(rep); note != "" {
			b.m.Notes = append(b.m.Notes, note)
		}
	}
	bound(b.m, b.smp.thinned, rest)
	sanitizeModel(b.m)
}

// maxDiags bounds the diagnostics the page lists; all are in the JSON
// report.
const maxDiags = 200

// diagnostics are what the page must say about the read: unreadable
// inputs, inputs nothing in which was recognised, diagnostics, and where
// the year came from when the logs did not print one.
func diagnostics(rep *render.Report) (diags []string, year string, guessed bool) {
	st := &rep.Stats
	for _, u := range st.Unreadable {
		diags = append(diags, "not read: "+render.Sanitize(u))
	}
	for _, s := range st.Unrecognised() {
		diags = append(diags, fmt.Sprintf("%s: nothing recognised (%s)", render.Sanitize(s.Source), plural(s.Lines, "line")))
	}
	for i, d := range st.Diagnostics {
		if i == maxDiags {
			diags = append(diags, fmt.Sprintf("... and %d more diagnostics (see the JSON report)", len(st.Diagnostics)-i))
			break
		}
		diags = append(diags, render.Sanitize(d.String()))
	}
	var whys []string
	for _, s := range st.Sources {
		why := ""
		switch s.YearFrom {
		case parse.YearAssumed:
			why = fmt.Sprintf("year %d assumed for %s: it printed none (use --year)", s.Year, s.Source)
		case parse.YearFromHybridTime:
			why = fmt.Sprintf("year %d of %s inferred from its hybrid times", s.Year, s.Source)
		case parse.YearFromCollector:
			why = fmt.Sprintf("year %d of %s taken from the collector's timestamps", s.Year, s.Source)
		}
		if why != "" {
			whys = append(whys, render.Sanitize(why))
			guessed = true
		}
	}
	return diags, strings.Join(whys, "; "), guessed
}

// omittedNote says, when --max-findings left findings out, how many.
func omittedNote(rep *render.Report) string {
	n := rep.OmittedCount()
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%s more not shown (--max-findings %d)", plural(n, "finding"), rep.MaxFindings)
}

// sanitizeModel cleans every string that came from a log (ids, node
// names, labels built from messages) as render.Sanitize cleans text for a
// terminal: the page needs no control characters, and text copied out of
// it into a terminal must not carry escape sequences. Lines, sources and
// findings are cleaned as they are added. Ids hold no log text.
func sanitizeModel(m *Model) {
	c := render.Sanitize
	for _, p := range m.Panes {
		for i := range p.Spans {
			p.Spans[i].Text = c(p.Spans[i].Text)
		}
		for _, g := range p.Groups {
			g.Label = c(g.Label)
			if g.Sum != nil {
				g.Sum.Filter = c(g.Sum.Filter)
			}
			for _, l := range g.Lanes {
				l.Label, l.Title, l.Sub = c(l.Label), c(l.Title), c(l.Sub)
				for i := range l.Bands {
					l.Bands[i].Text = c(l.Bands[i].Text)
				}
				for i := range l.Marks {
					l.Marks[i].Text = c(l.Marks[i].Text)
				}
			}
		}
	}
}

// title sums the run up in one line, as the text report's last line does.
func title(rep *render.Report) string {
	c := rep.Counts()
	return fmt.Sprintf("%s (%s, %s, %s) in %s, %s, %s",
		plural(len(rep.Findings)+rep.OmittedCount(), "finding"), plural(c[rules.Error], "error"), plural(c[rules.Warning], "warning"), plural(c[rules.Note], "note"),
		plural(len(rep.Stats.Sources), "source"), plural(rep.Stats.Lines, "line"), plural(rep.Stats.Events, "event"))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// finding adds f to the model and places it: on each pane, at the first
// evidence line drawn there, preferring the subject's own lanes.
func (b *builder) finding(f *rules.Finding) {
	out := &Finding{
		Rule:     f.Rule,
		Severity: f.Severity.String(),
		Origin:   string(f.Origin),
		Subject:  render.Sanitize(f.Subject.String()),
		Message:  render.Sanitize(f.Message),
		Ev:       []int{},
		Locs:     []Loc{},
	}
	b.m.Counts[out.Severity]++
	for _, ev := range f.Evidence {
		out.Ev = append(out.Ev, b.line(ev.Source, ev.Line, ev.Text))
	}
	keys := make([]string, 0, len(f.Facts))
	for k := range f.Facts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out.Facts = append(out.Facts, [2]string{render.Sanitize(k), render.Sanitize(f.Facts[k])})
	}
	for _, s := range f.State {
		out.State = append(out.State, render.Sanitize(s))
	}
	own := b.subjectLanes(f.Subject)
	for pane := 0; pane < 2; pane++ {
		var best, first *place
		for _, ev := range f.Evidence {
			for _, p := range b.placeIdx[lineKey{ev.Source, ev.Line}] {
				if p.pane != pane {
					continue
				}
				p := p
				if first == nil {
					first = &p
				}
				if own[p.lane] && best == nil {
					best = &p
				}
			}
		}
		if best == nil {
			best = first
		}
		if best == nil {
			continue
		}
		loc := Loc{Pane: b.paneIndex(pane), Lane: best.lane.ID, At: best.at, Row: best.row, Lo: best.at, Hi: best.at}
		for _, ev := range f.Evidence {
			for _, p := range b.placeIdx[lineKey{ev.Source, ev.Line}] {
				if p.pane == pane && p.lane == best.lane {
					loc.Lo, loc.Hi = min(loc.Lo, p.at), max(loc.Hi, p.at)
				}
			}
		}
		out.Locs = append(out.Locs, loc)
	}
	b.m.Findings = append(b.m.Findings, out)
}

// paneIndex maps a builder pane (0 wall, 1 hybrid) to its index in
// Model.Panes (the hybrid pane is left out when empty, but a finding is
// only ever placed on a pane that has lanes).
func (b *builder) paneIndex(p int) int {
	if p == 0 {
		return 0
	}
	return len(b.m.Panes) - 1
}

// subjectLanes are the lanes a finding's subject names.
func (b *builder) subjectLanes(s rules.Subject) map[*Lane]bool {
	out := map[*Lane]bool{}
	k, ok := subjectKey(s)
	if !ok {
		return out
	}
	for _, p := range []*paneB{b.wall, b.ht} {
		if l := p.lanes[k]; l != nil {
			out[l] = true
		}
	}
	return out
}

// subjectKey is the lane key a finding's subject names.
func subjectKey(s rules.Subject) (laneKey, bool) {
	switch s.System {
	case "yb":
		return ybLaneKey(s.Tablet, s.Peer), true
	case "es":
		shard := -1
		if s.Shard != nil {
			shard = *s.Shard
		}
		return esLaneKey(s.Index, shard, s.Node), true
	}
	return laneKey{}, false
}

// placeMap indexes the places by line, each line's in the order drawn.
func (b *builder) placeMap() map[lineKey][]place {
	out := make(map[lineKey][]place, len(b.places))
	for _, r := range b.places {
		for l := r.first; l <= r.last; l++ {
			k := lineKey{r.src, l}
			out[k] = append(out[k], r.p)
		}
	}
	b.places = nil
	return out
}

// orderSources numbers the sources as the report lists them, then those
// it does not in the order seen, as the page lists them.
func (b *builder) orderSources(rep *render.Report) {
	var names []string
	seen := map[string]bool{}
	if rep != nil {
		for _, s := range rep.Stats.Sources {
			if !seen[s.Source] {
				seen[s.Source] = true
				names = append(names, s.Source)
			}
		}
	}
	for _, s := range b.srcNames {
		if !seen[s] {
			seen[s] = true
			names = append(names, s)
		}
	}
	remap := make([]int, len(b.srcNames))
	idx := make(map[string]int, len(names))
	b.m.Sources = make([]string, len(names))
	for i, s := range names {
		idx[s] = i
		b.m.Sources[i] = render.Sanitize(s)
	}
	for i, s := range b.srcNames {
		remap[i] = idx[s]
	}
	for i := range b.m.Lines {
		b.m.Lines[i].Src = remap[b.m.Lines[i].Src]
	}
	b.srcNames, b.srcIdx = names, idx
}

// redraw gives each evidence line of f that the builder's sampling left
// with no place a mark of its own on the subject's lane, so every finding
// is drawn where its evidence is: on the hybrid-time lane when the line
// is among the dump entries drawn there, else on the wall lane at the
// time of the nearest line before it.
func (b *builder) redraw(f *rules.Finding) {
	k, ok := subjectKey(f.Subject)
	if !ok {
		return
	}
	for _, ev := range f.Evidence {
		lk := lineKey{ev.Source, ev.Line}
		if len(b.placeIdx[lk]) > 0 {
			continue
		}
		text := "evidence of " + f.Rule + ": " + clip(ev.Text, 100)
		// The mark drawn stands for one the sampling dropped.
		redrawn := func(l *Lane) {
			if l.dropMarks > 0 {
				l.dropMarks--
			}
		}
		if l := b.ht.lanes[k]; l != nil {
			if at, row, ok := b.nearestHT(l, ev.Source, ev.Line); ok {
				l.Marks = append(l.Marks, Mark{At: at, Row: row, Kind: "event", Text: text, Ev: []int{b.line(ev.Source, ev.Line, ev.Text)}})
				redrawn(l)
				b.placeIdx[lk] = append(b.placeIdx[lk], place{pane: 1, lane: l, at: at, row: row})
				continue
			}
		}
		l := b.wall.lanes[k]
		ix := b.times[ev.Source]
		if l == nil || ix == nil {
			continue
		}
		at, ok := ix.lookup(ev.Line)
		if !ok {
			continue
		}
		l.Marks = append(l.Marks, Mark{At: at, Kind: "event", Text: text, Ev: []int{b.line(ev.Source, ev.Line, ev.Text)}})
		redrawn(l)
		b.placeIdx[lk] = append(b.placeIdx[lk], place{pane: 0, lane: l, at: at})
	}
}

// nearestHT is where on hybrid-time lane l the entry of src nearest
// before line sits, when line lies among the entries of src the lane
// holds.
func (b *builder) nearestHT(l *Lane, src string, line int) (at int64, row int, ok bool) {
	si, known := b.srcIdx[src]
	if !known {
		return 0, 0, false
	}
	lo, hi, best := -1, -1, -1
	see := func(ev int, a int64, r int) {
		if ev < 0 || ev >= len(b.m.Lines) {
			return
		}
		ln := b.m.Lines[ev]
		if ln.Src != si {
			return
		}
		if lo < 0 || ln.Line < lo {
			lo = ln.Line
		}
		hi = max(hi, ln.Line)
		if ln.Line <= line && ln.Line > best {
			best, at, row = ln.Line, a, r
		}
	}
	for _, mk := range l.Marks {
		for _, e := range mk.Ev {
			see(e, mk.At, mk.Row)
		}
	}
	for _, s := range l.Series {
		for _, p := range s.Pts {
			see(int(p[2]), p[0], int(p[1]))
		}
	}
	return at, row, best >= 0 && line <= hi
}

// short keeps the first 8 characters of a uuid for a lane label; the full
// id is in the lane's title.
func short(u string) string {
	if len(u) > 8 {
		return u[:8]
	}
	return u
}

// clip bounds a label; the evidence line beside it is whole.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(c byte) bool { return c&0xC0 != 0x80 }

// addEv appends line index i to evs, up to maxEvidence, once.
func addEv(evs []int, i int) []int {
	if len(evs) >= maxEvidence {
		return evs
	}
	for _, x := range evs {
		if x == i {
			return evs
		}
	}
	return append(evs, i)
}
