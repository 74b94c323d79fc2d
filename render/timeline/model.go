package timeline

// The Model is the contract between Build and the page's script. Field
// names are short in JSON because a timeline of a large bundle holds tens
// of thousands of items; the script reads nothing else.

// Axis names a time axis. Both count microseconds, as JS numbers (exact up
// to 2^53, about 285 years of microseconds since 1970).
type Axis string

const (
	// Wall is the time the log line printed, as printed.
	Wall Axis = "wall"
	// Hybrid is YugabyteDB hybrid time, physical microseconds (the logical
	// component is shown in labels, not positions).
	Hybrid Axis = "ht"
)

// Model is everything the page draws.
type Model struct {
	Title   string   `json:"title"`
	Sources []string `json:"sources"`
	// Counts sums the findings by severity, for the header.
	Counts   map[string]int `json:"counts"`
	Panes    []*Pane        `json:"panes"`
	Findings []*Finding     `json:"findings"`
	// Lines is the evidence table: every item and finding cites lines by
	// index into it, so a line quoted by many items is stored once.
	Lines []Line `json:"lines"`
	// Notes are what the page must say about what it could not draw.
	Notes []string `json:"notes,omitempty"`
	// Diags are the run's diagnostics and unreadable inputs, as the page
	// lists them: a reader must know the verdict rests on a partial read.
	Diags []string `json:"diags,omitempty"`
	// Year says where the year of yearless (glog) timestamps came from
	// when the logs did not print it; YearGuessed is set then, and the
	// header says the dates are not as printed.
	Year        string `json:"year,omitempty"`
	YearGuessed bool   `json:"yearGuessed,omitempty"`
	// Recognised says per source "N of M lines recognised".
	Recognised []string `json:"recognised,omitempty"`
	// Footer is the run's provenance, for the page's footer.
	Footer string `json:"footer,omitempty"`
}

// Line is one log line quoted as evidence.
type Line struct {
	Src  int    `json:"s"` // index into Model.Sources
	Line int    `json:"l"`
	Text string `json:"t"`
}

// Pane is one time axis and the lanes drawn on it.
type Pane struct {
	Axis  Axis   `json:"axis"`
	Title string `json:"title"`
	// Note says what the axis is, for the reader who would otherwise
	// assume one clock.
	Note   string   `json:"note"`
	Min    int64    `json:"min"`
	Max    int64    `json:"max"`
	Groups []*Group `json:"groups"`
	// Spans shade the whole pane (an Elasticsearch network disruption).
	Spans []Band `json:"spans,omitempty"`
}

// Group is one subject's lanes: a YugabyteDB tablet or an Elasticsearch
// shard.
type Group struct {
	// ID is an opaque name, unique in the model.
	ID    string  `json:"id"`
	Label string  `json:"label"`
	Lanes []*Lane `json:"lanes"`
	// Sum stands for the group's lanes the page's budget left undrawn.
	Sum *Summary `json:"sum,omitempty"`

	key groupKey
	// fold counts the lanes of the group the builder folded (fold.go).
	fold *Summary
}

// Summary counts what a group's undrawn lanes held, so the page can say
// what it left out and how to see it.
type Summary struct {
	Lanes  int   `json:"n"`
	Bands  int   `json:"b"`
	Marks  int   `json:"m"`
	Points int   `json:"p"`
	From   int64 `json:"a"`
	To     int64 `json:"z"`
	// Filter is the analyze flags that draw the group on its own.
	Filter string `json:"f,omitempty"`

	has bool // From and To are set
}

// Lane is one peer (or copy): its bands, marks and series.
type Lane struct {
	// ID is an opaque name, unique in the model, that locations cite.
	ID    string `json:"id"`
	Label string `json:"label"`
	// Title is the lane's full name for the tooltip (labels shorten uuids).
	Title string `json:"title"`
	// Sub is a second label line: the log files that speak for the peer,
	// which is how an engineer knows the nodes.
	Sub string `json:"sub,omitempty"`
	// Rows is, on the hybrid-time pane, how many MVCC entries the lane
	// stacks top to bottom (its vertical axis is entry order); 0 on the
	// wall pane, whose lanes have fixed rows (see the Row constants).
	Rows int `json:"rows,omitempty"`
	// YMin and YMax bound the values of value-over-time series (sequence
	// numbers), so the script scales them within the lane.
	YMin   int64     `json:"ymin,omitempty"`
	YMax   int64     `json:"ymax,omitempty"`
	Bands  []Band    `json:"bands,omitempty"`
	Marks  []Mark    `json:"marks,omitempty"`
	Series []*Series `json:"series,omitempty"`

	key laneKey
	// What the builder's sampling (sample.go) keeps of the lane: the
	// tag of each mark held, every
	// series that holds points (attached to Series only at the end), and
	// how many marks and points it dropped, between which times.
	tags               []markTag
	series             []*Series
	dropMarks, dropPts int
	// dropBands is how many bands the builder's sampling and the page's
	// budget left out; bandSeq is the bands numbered so far, bandStep the
	// stride of those the builder keeps (0 before it thinned any).
	dropBands, bandSeq, bandStep int
	dropLo, dropHi               int64
	dropHas                      bool
}

// The fixed rows of a wall-time lane, top to bottom.
const (
	RowRole   = 0 // Raft term and role; Elasticsearch primary term
	RowLease  = 1 // leader leases
	RowMember = 2 // Raft config membership, pending config changes
	RowRBS    = 3 // remote bootstrap sessions; Elasticsearch recoveries
)

// Band is an interval: a term, a lease, a membership, a session.
type Band struct {
	Row  int    `json:"r"`
	From int64  `json:"a"`
	To   int64  `json:"b"`
	Kind string `json:"k"`
	Text string `json:"t"`
	// Open is set when the band runs to the end of what the logs show
	// rather than to a line that ended it.
	Open bool  `json:"o,omitempty"`
	Ev   []int `json:"e,omitempty"`

	// seq is the band's arrival number in its lane, from 1, given by the
	// builder's band sampling (0 until then).
	seq int
}

// Mark is a point: an op, a vote, an election, a revocation, an assertion.
type Mark struct {
	At int64 `json:"a"`
	// Row is the entry row on the hybrid-time pane; unused on the wall pane.
	Row  int    `json:"r,omitempty"`
	Kind string `json:"k"`
	Text string `json:"t"`
	Ev   []int  `json:"e,omitempty"`
}

// Series is a step line. On the hybrid-time pane a point is (the safe time
// as x, the entry row as y): the line walks down the entries and steps
// right as the safe time advances, so an op left of it is an op below a
// safe time already served. On the wall pane a point is (wall time, value).
type Series struct {
	Name string `json:"n"`
	Kind string `json:"k"`
	// Pts are [x, y, evidence line index].
	Pts [][3]int64 `json:"p"`

	// The builder's sampling: the stride, the arrival index of each
	// point held, whether the last is held only as the last, and the
	// range of every value offered.
	smp      sampler
	idx      []int
	tail     bool
	vlo, vhi int64
	vhas     bool
}

// Finding is a rules.Finding as the page shows it, with where to draw it.
type Finding struct {
	Rule     string      `json:"rule"`
	Severity string      `json:"sev"`
	Origin   string      `json:"origin"`
	Subject  string      `json:"subject"`
	Message  string      `json:"msg"`
	Ev       []int       `json:"e"`
	Facts    [][2]string `json:"facts,omitempty"`
	State    []string    `json:"state,omitempty"`
	Locs     []Loc       `json:"locs"`
}

// Loc is one place a finding is drawn: a lane of a pane, at a time (and on
// the hybrid-time pane, an entry row).
type Loc struct {
	Pane int    `json:"p"`
	Lane string `json:"l"`
	At   int64  `json:"a"`
	Row  int    `json:"r,omitempty"`
	// Lo and Hi span every evidence line of the finding drawn on this
	// pane's lane, so selecting the finding zooms to show all of them.
	Lo int64 `json:"lo"`
	Hi int64 `json:"hi"`
}
