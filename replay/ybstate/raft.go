package ybstate

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unsafe"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// applyRaft folds an event into the cross-peer Raft view. A step that
// shows a break, and every revocation, keeps the replica's MVCC lines as
// they stood before the event, for the finding that cites it.
func (s *State) applyRaft(r *Replica, e yb.Event) Step {
	st := s.raft.Apply(e)
	if st.Before != nil || st.Revocation != nil {
		st.Replica = linesOf(r)
	}
	if st.Revocation != nil {
		st.Revocation.Replica = st.Replica
	}
	return st
}

// Raft is what every peer's log says about Raft leadership and leader
// leases, per tablet: the leader of each term, each peer's term and role
// over time, real votes, lease expiries as any peer printed them, and
// revocations. A single peer's log cannot show an overlap of leases
// between three peers; this merged view can.
//
// Apply is a pure fold over the merged timeline: the same events in the
// same order give the same Raft.
type Raft struct {
	// tablets holds each tablet's Raft history with its first replica's
	// state (State.Replica): one map entry a tablet, as a node can host a
	// million. An entry made for a replica alone is no Raft history
	// (TabletRaft.seen).
	tablets tabletIndex
	// made holds the entries themselves, in the order they were made, in
	// slabs of entrySlab: walking it reads the entries one after the
	// other, where the map's order jumps across the heap, and a million
	// tablets take four thousand allocations instead of a million.
	made [][]tabletEntry
	// last is the entry entry returned last: a line is looked up by the
	// rules, the state and the Raft view in turn, and a tablet's lines
	// come in runs.
	last *tabletEntry
	rows *rowBudget
	// ids reads the ids of the lines kept (line.keep).
	ids        idCache
	compaction Compaction
	onDrop     func(tablet string, cut, live int64) (int, []int64)
	// reread keeps lines by place (SetRereader); nil keeps their text.
	reread *reread
	// preloaded is the sum preload returned last, kept so that its loads
	// are not optimised away; it means nothing.
	preloaded uintptr
}

// NewRaft returns an empty view.
func NewRaft() *Raft {
	return &Raft{rows: &rowBudget{left: MaxRows}}
}

// tabletEntry is one tablet's Raft history and its first replica (its
// other replicas are in the history's rare part).
type tabletEntry struct {
	raft TabletRaft
	rep  Replica
}

// entry returns tablet's entry, making it.
func (r *Raft) entry(tablet string) *tabletEntry {
	if e := r.last; e != nil && e.raft.Tablet == tablet {
		return e
	}
	e := r.tablets.get(tablet)
	if e == nil {
		e = r.newEntry()
		e.raft = TabletRaft{Tablet: tablet, raft: r}
		r.tablets.put(tablet, e)
	}
	r.last = e
	return e
}

// entrySlab is how many entries a slab of Raft.made holds: 48 KiB of
// them, which the allocator rounds to pages only. A slab of 24 KiB,
// one of its small sizes, took a header (an object with pointers does)
// that put it a size class up: 21 bytes more a tablet.
const entrySlab = 256

// newEntry returns a zero entry at the end of the last slab, starting a
// slab when that one is full. A slab is never grown past its capacity,
// so an entry never moves.
func (r *Raft) newEntry() *tabletEntry {
	if n := len(r.made); n == 0 || len(r.made[n-1]) == cap(r.made[n-1]) {
		r.made = append(r.made, make([]tabletEntry, 0, entrySlab))
	}
	last := &r.made[len(r.made)-1]
	*last = append(*last, tabletEntry{})
	return &(*last)[len(*last)-1]
}

// eachEntry calls fn with every entry, in the order they were made.
func (r *Raft) eachEntry(fn func(*tabletEntry)) {
	for _, slab := range r.made {
		for i := range slab {
			fn(&slab[i])
		}
	}
}

// entries is how many entries there are: every slab but the last is
// full.
func (r *Raft) entries() int {
	if len(r.made) == 0 {
		return 0
	}
	return (len(r.made)-1)*entrySlab + len(r.made[len(r.made)-1])
}

// TabletRaft is one tablet's Raft history.
type TabletRaft struct {
	Tablet string
	// peers is sorted by peer id: a tablet has a handful of peers, and a
	// node can host a million tablets, so a slice, not a map.
	peers []*PeerRaft
	// led holds every leadership, by term ascending and, within a term,
	// in the order its peers first acted as leader: one slice, not one
	// per term, as most tablets of a busy node see a leader a term.
	led []*Leadership
	// noOps are the NO_OPs leaders sent, one per op id, in timeline order
	// (NoOp): the first write of a term, which an old leader receiving it
	// checks against its lease. A leader sends one per term. A NO_OP
	// whose line began its leader's leadership is kept in it instead
	// (Leadership.noOp).
	noOps []NoOpRec
	// raft is the view t belongs to (nil for a stand-in): its rows are
	// the budget all tablets share.
	raft *Raft
	// x holds what most tablets never need, made on first use (more): a
	// node can host a million tablets that log a line each, and it keeps
	// TabletRaft in the 128-byte size class.
	x *tabletRare
	// below is the lowest term compaction still holds (Compacted.Below),
	// set by the first leadership once compaction is on (compactInit).
	below       int64
	dropped     int
	compactInit bool
	// seen is set once a Raft line names the tablet; hasRep once its
	// entry holds a replica.
	seen, hasRep bool
}

// tabletRare is the part of a TabletRaft most tablets never need: what
// a tablet's lease, vote and election lines add. A node can host a
// million tablets that each log one such line, so what fewer still need
// (the readable timeline, the master's word, replicas past the first,
// compaction's counts) is one level further (tabletRarer), and this part
// stays in the 112-byte size class.
type tabletRare struct {
	// leases are the lease expiries the Raft lines printed, in timeline
	// order (Leases). MVCC dump leases stay in State.Leases.
	leases []LeaseFact
	// leasesShared is set while a RaftView holds part of leases' array
	// (View): a fact is then changed in place only in a copy (ownLeases).
	leasesShared bool
	// revocationsShared is the same for revocations' array (compaction
	// then leaves it to the views).
	revocationsShared bool
	// revocations are in timeline order; a revocation that stands for a
	// lease fact (Revocation.lease) is one of Leases too, not a copy.
	revocations []Revocation
	// attempts are election attempts, one per peer burst of start lines.
	attempts []Attempt
	// votes holds the real (binding) votes granted, in timeline order, one
	// per voter, term and candidate.
	votes []VoteRec
	// y is the rarer part, made on first use (moreRarer).
	y *tabletRarer
}

// tabletRarer is the part of a tablet's history that only the tablets
// with a timeline row, a master's report, a second replica, a wait on an
// old leader's lease or compacted terms need.
type tabletRarer struct {
	// failedStepDowns are the master's step-downs that came back with an
	// error, in timeline order.
	failedStepDowns []FailedStepDown
	// rows is the readable timeline (Rows).
	rows []Row
	// compacted counts what compaction dropped; its Below is
	// TabletRaft.below.
	compacted Compacted
	// reps are the tablet's replicas but the first, in the order made.
	reps []*Replica
	// waits indexes Leases by waiting peer and term and the leader waited
	// on; waitRow marks the waits already shown in Rows.
	waits   map[waitKey]int
	waitRow map[waitKey]bool
	// masterOpen holds the leaderships known only from reports to the
	// master that no line has ended yet.
	masterOpen []*Leadership
	// lastDropped is, for each peer compaction dropped a leadership of,
	// the one of the latest term: Leadership still finds it, so a lease
	// of its term that a later line shows (a new leader waiting on its
	// predecessor after more failed elections than compaction keeps
	// terms, a cut-off leader's own lines) is judged against when it
	// ended, and a cut-off leader's lines of that term make no new one.
	lastDropped []*Leadership
	// droppedAttempts holds, for each peer whose latest election attempt
	// compaction dropped, that attempt (without its line): a start line
	// of the same burst that comes after the compaction joins it, as it
	// would have joined it held, instead of starting an attempt of its
	// own. It is read only while the peer's latest attempt is not held
	// (PeerRaft.lastAttempt < 0), and the next drop of a latest attempt
	// of the peer's replaces it.
	droppedAttempts []Attempt
}

// droppedAttempt is peer's latest attempt if compaction dropped it, or
// nil.
func (y *tabletRarer) droppedAttempt(peer string) *Attempt {
	for i := range y.droppedAttempts {
		if y.droppedAttempts[i].Peer == peer {
			return &y.droppedAttempts[i]
		}
	}
	return nil
}

// noRarer is what rarer returns for a rare part without its rarer part:
// read it, never write it.
var noRarer tabletRarer

// rarer is x's rarer part for reading.
func (x *tabletRare) rarer() *tabletRarer {
	if x.y == nil {
		return &noRarer
	}
	return x.y
}

// moreRarer is x's rarer part for writing, made on first use.
func (x *tabletRare) moreRarer() *tabletRarer {
	if x.y == nil {
		x.y = &tabletRarer{}
	}
	return x.y
}

// ownLeases gives x a lease array of its own, for a change in place, when
// a RaftView holds its array.
func (x *tabletRare) ownLeases() {
	if x.leasesShared {
		x.leases, x.leasesShared = slices.Clone(x.leases), false
	}
}

// noRare is what rare returns for a tablet without its rare part: read
// it, never write it.
var noRare tabletRare

// rare is t's rare part for reading.
func (t *TabletRaft) rare() *tabletRare {
	if t.x == nil {
		return &noRare
	}
	return t.x
}

// more is t's rare part for writing, made on first use.
func (t *TabletRaft) more() *tabletRare {
	if t.x == nil {
		t.x = &tabletRare{}
	}
	return t.x
}

// Leases are the lease expiries the Raft lines printed, in timeline
// order. MVCC dump leases stay in State.Leases. The slice is the tablet's
// own array when no revocation stands for a lease fact, and a new one
// otherwise: read it, never write it. AppendLeases fills a buffer.
func (t *TabletRaft) Leases() []LeaseFact {
	x := t.rare()
	if !revokesLease(x.revocations) {
		return x.leases
	}
	return appendLeases(nil, x.leases, x.revocations)
}

// AppendLeases appends Leases to dst.
func (t *TabletRaft) AppendLeases(dst []LeaseFact) []LeaseFact {
	x := t.rare()
	return appendLeases(dst, x.leases, x.revocations)
}

// hasLeases is whether Leases holds any fact.
func (t *TabletRaft) hasLeases() bool {
	x := t.rare()
	return len(x.leases) > 0 || revokesLease(x.revocations)
}

// revokesLease is whether a revocation of revs stands for a lease fact.
func revokesLease(revs []Revocation) bool {
	for i := range revs {
		if revs[i].lease {
			return true
		}
	}
	return false
}

// appendLeases appends to dst the lease facts of leases and of the
// revocations of revs that stand for one, in the order their lines came:
// a revocation's fact comes after leases[:pos].
func appendLeases(dst, leases []LeaseFact, revs []Revocation) []LeaseFact {
	next := 0
	for i := range revs {
		rv := &revs[i]
		if !rv.lease {
			continue
		}
		dst = append(dst, leases[next:rv.pos]...)
		next = int(rv.pos)
		dst = append(dst, rv.leaseFact())
	}
	return append(dst, leases[next:]...)
}

// Revocations are the lease revocations, in timeline order.
func (t *TabletRaft) Revocations() []Revocation { return t.rare().revocations }

// Attempts are election attempts, one per peer burst of start lines, in
// timeline order.
func (t *TabletRaft) Attempts() []Attempt { return t.rare().attempts }

// Rows is the readable timeline, in timeline order, at most maxTabletRows
// and within the budget all tablets share (MaxRows); Dropped counts the
// rows past that. A row keeps its line's position, not its text.
func (t *TabletRaft) Rows() []Row { return t.rare().rarer().rows }

// Dropped is how many of t's timeline rows were not kept.
func (t *TabletRaft) Dropped() int { return t.dropped }

// Compacted counts the history compaction dropped (Compaction).
func (t *TabletRaft) Compacted() Compacted {
	c := t.rare().rarer().compacted
	c.Below = t.below
	return c
}

type waitKey struct {
	peer       string
	term       int64
	holder     string
	holderTerm int64
}

// maxTabletRows bounds a tablet's timeline, and MaxRows the timelines of
// all tablets together: a log of a tablet stuck in elections for days, or
// of a node hosting thousands of tablets, must not hold every line in
// memory for tables no one reads to the end. The rules do not read Rows.
const (
	maxTabletRows = 5000
	MaxRows       = 10000
)

// rowBudget is the rows all tablets' timelines may still keep, and the
// rows dropped for want of it.
type rowBudget struct {
	left    int
	dropped int
}

// DroppedRows is how many timeline rows were not kept, over all tablets.
func (r *Raft) DroppedRows() int { return r.rows.dropped }

// NoOpRec is a leader's NO_OP.
type NoOpRec struct {
	Leader string
	Op     ybval.OpID
	From   From
}

// PeerRaft is one peer's Raft view of itself.
type PeerRaft struct {
	Peer string
	// Term is the latest term its log showed, -1 before any; High is the
	// highest, so a drop below it can be shown with the line that set it.
	Term     int64
	High     int64
	HighFrom From
	// role is the role its log last showed (Role).
	role roleName
	// Leading is the term it currently leads, or -1.
	Leading int64
	// LastLed is the last term it was seen leading, or -1.
	LastLed int64
	// delayed is the term whose step-down it put off until its protege
	// caught up (`Delay step down`), or -1: a step-down the master hears
	// accepted meanwhile has not happened yet.
	delayed int64
	// lastAttempt indexes its latest election attempt in Attempts, or -1.
	lastAttempt int32
}

// Role is the role the peer's log last showed, or "".
func (p *PeerRaft) Role() string { return p.role.String() }

// roleName is a Raft role as a log printed it, held as a pointer to its
// name: a node hosting a million tablets holds two a tablet (its peer's
// and its replica's), and a handful of names cover nearly all.
type roleName struct{ p *string }

// knownRoles are the roles glog prefixes and role lines print.
var knownRoles = []string{"LEADER", "FOLLOWER", "CANDIDATE", "PRE_CANDIDATE", "LEARNER",
	"NON_PARTICIPANT", "UNKNOWN_ROLE", "VOTER", "PRE_VOTER", "OBSERVER", "PRE_OBSERVER"}

func roleOf(s string) roleName {
	if s == "" {
		return roleName{}
	}
	for i := range knownRoles {
		if knownRoles[i] == s {
			return roleName{&knownRoles[i]}
		}
	}
	// Only a name no list has costs an allocation.
	name := s
	return roleName{&name}
}

func (r roleName) String() string {
	if r.p == nil {
		return ""
	}
	return *r.p
}

// Leadership is one peer leading one term: from the first line that shows
// it (Becoming Leader, election won, a [term N LEADER] prefix, its NO_OP)
// to the first that shows it gave up (step-down, Becoming Follower, a
// later term, Reset our lease). A leader cut off by a partition logs
// nothing until it hears of the new term: its leadership, and the reads it
// serves under its lease, run on until then.
type Leadership struct {
	Peer  string
	Term  int64
	Since From
	At    time.Time
	// Timed sits by Ended: bools apart took Leadership a size class up,
	// and a node hosting a million tablets holds one each.
	Timed bool
	Ended bool
	// byMaster is set when Since is the master's word, not a peer's log
	// (By).
	byMaster bool
	// noOp is set when Since is the leader's NO_OP, at op index noOpIndex
	// of the term (TabletRaft.NoOp).
	noOp      bool
	noOpIndex int64
	// end is the line that showed it gave up, made when it did: most
	// leaderships of a node hosting many tablets never end in its log.
	end *leadEnd
}

// leadEnd is how a leadership ended.
type leadEnd struct {
	at   time.Time
	from From
	how  string
	by   string
}

// noEnd is what a leadership that has not ended reads as its end.
var noEnd leadEnd

func (l *Leadership) ending() *leadEnd {
	if l.end == nil {
		return &noEnd
	}
	return l.end
}

// By says whose word Since is when it is not a peer's log: "master" for
// the master's reading of a tablet report.
func (l *Leadership) By() string {
	if l.byMaster {
		return masterWord
	}
	return ""
}

// EndAt and EndFrom are the line that showed it gave up (zero while it
// has not).
func (l *Leadership) EndAt() time.Time { return l.ending().at }

// EndFrom is the line that showed it gave up.
func (l *Leadership) EndFrom() From { return l.ending().from }

// EndHow says how it gave up.
func (l *Leadership) EndHow() string { return l.ending().how }

// EndBy is "master" when the line that ended it is the master's (a
// step-down it asked for and heard back about), which the peer's own later
// lines outweigh.
func (l *Leadership) EndBy() string { return l.ending().by }

// finish records that l gave up at the line from, in the word of by ("" for
// a peer's own line, masterWord for the master's).
func (l *Leadership) finish(at time.Time, from From, how, by string) {
	l.Ended = true
	l.end = &leadEnd{at: at, from: from, how: how, by: by}
}

// reopen undoes an end: the peer's own line shows it leading on.
func (l *Leadership) reopen() {
	l.Ended = false
	l.end = nil
}

// VoteRec is a real vote granted.
type VoteRec struct {
	Voter, Candidate string
	Term             int64
	From             From
}

// LeaseKind says which lease a fact is about. It is a number, not a
// string: a node hosting a million tablets keeps a lease fact and a
// revocation for each, and the kind and How pack into one word of them.
// Not a byte, so that go vet refuses string(k) (String names it).
type LeaseKind uint16

const (
	// HTLeaseKind is the hybrid-time lease: reads at safe times up to its
	// expiry, so no later leader may write at or below it.
	HTLeaseKind LeaseKind = 1 + iota
	// WallLeaseKind is the monotonic-clock leader lease, known here as a
	// wall-clock end on the printing peer's clock.
	WallLeaseKind
)

// String is the kind as reports name it: "ht lease" or "lease" ("" for
// none).
func (k LeaseKind) String() string {
	switch k {
	case HTLeaseKind:
		return "ht lease"
	case WallLeaseKind:
		return "lease"
	}
	return ""
}

// LeaseHow is what the line that stated a lease fact was (a uint16 for
// go vet, as LeaseKind).
type LeaseHow uint16

const (
	// LeaseRevoked is a new leader revoking the lease.
	LeaseRevoked LeaseHow = 1 + iota
	// LeaseReset is the holder dropping it.
	LeaseReset
	// LeaseWaited is a new leader waiting it out.
	LeaseWaited
	// LeaseInDump is a lease an MVCC dump printed (the rules' own facts).
	LeaseInDump
)

// String is How as reports print it.
func (h LeaseHow) String() string {
	switch h {
	case LeaseRevoked:
		return "revoked"
	case LeaseReset:
		return "reset by holder"
	case LeaseWaited:
		return "waited on"
	case LeaseInDump:
		return "mvcc dump"
	}
	return ""
}

// LeaseFact is one peer's log stating a leader's lease expiry.
type LeaseFact struct {
	Holder string
	// Term is the holder's leader term, or -1 when no log showed it.
	Term int64
	Kind LeaseKind
	// How is what the line was: revoked (a new leader revoking it), reset
	// by holder (the holder dropping it) or waited on (a new leader
	// waiting it out); mvcc dump for the leases the rules read from a
	// dump.
	How LeaseHow
	// Expiry is the ht lease expiry (HTLeaseKind).
	Expiry ybval.HybridTime
	// Until is the lease end on the printing peer's wall clock
	// (WallLeaseKind): the line's time plus the time it said was left.
	Until time.Time
	// Seen is the peer whose log printed it.
	Seen string
	From From
	// At is the wall time of the line that printed it.
	At time.Time
}

// EndMicros is the lease end in microseconds since the epoch, comparable
// with a hybrid time's physical part and with UTC wall times.
func (l LeaseFact) EndMicros() int64 {
	if l.Kind == HTLeaseKind {
		return int64(l.Expiry.Physical)
	}
	return l.Until.UnixMicro()
}

func (l LeaseFact) String() string {
	term := "term ?"
	if l.Term >= 0 {
		term = fmt.Sprintf("term %d", l.Term)
	}
	end := htText(l.Expiry)
	if l.Kind == WallLeaseKind {
		end = clock(l.Until) + " on the clock of " + short(l.Seen)
	}
	return fmt.Sprintf("%s of %s (%s) to %s: %s, in the log of %s (%s)", l.Kind, orUnknown(l.Holder), term, end, l.How, orUnknown(l.Seen), l.From.Pos)
}

// Revocation is a leader clearing its record of an older leader's lease:
// from then on it serves and writes as if that lease were over.
type Revocation struct {
	By     string
	ByTerm int64
	Holder string
	// HolderTerm is the term the holder last led, as any log showed, or -1.
	HolderTerm int64
	Kind       LeaseKind
	// Timed is whether the line had a time (At).
	Timed bool
	// lease is set when the line names the holder, has a time and an
	// expiry a lease can end at: the revocation is then also the
	// tablet's lease fact (leaseFact), after the first pos of its
	// lease array.
	lease bool
	pos   int32
	// Expiry (ht lease) or Remaining (lease, on the revoker's clock) as
	// the line printed them.
	Expiry    ybval.HybridTime
	Remaining ybval.Deadline
	At        time.Time
	From      From
	// Before is the revoking peer's Raft state just before the line, and
	// Replica its MVCC state then.
	Before  *RaftView
	Replica ReplicaLines
}

// leaseFact is the lease fact of the lease rv revoked, as Leases holds it.
func (rv *Revocation) leaseFact() LeaseFact {
	f := LeaseFact{Holder: rv.Holder, Term: rv.HolderTerm, Kind: rv.Kind, How: LeaseRevoked, Seen: rv.By, From: rv.From, At: rv.At}
	if rv.Kind == HTLeaseKind {
		f.Expiry = rv.Expiry
	} else {
		f.Until = rv.At.Add(time.Duration(rv.Remaining.Millis) * time.Millisecond)
	}
	return f
}

// Attempt is one election attempt by one peer: the burst of lines
// (failure detected, triggering, starting) one attempt logs.
type Attempt struct {
	Peer string
	// Term is the peer's term when it started, or -1.
	Term  int64
	Pre   bool
	At    time.Time
	Timed bool
	From  From
	// Won is set when this peer won a real election before its next
	// attempt: later start lines then begin a new attempt however soon.
	Won bool
}

// attemptBurst is how close start lines of one peer must be to count as one
// attempt: an attempt logs its lines within milliseconds, while the
// failure detector waits at least an election timeout (about a second and
// more) before trying again.
const attemptBurst = time.Second

// Row is one line of the timeline table.
type Row struct {
	At     time.Time
	Timed  bool
	Peer   string
	Term   int64
	What   string
	Detail string
	From   From
}

// Step is what one event meant, against the state before it. It is how
// the rules see a break without re-deriving the fold.
type Step struct {
	Tablet, Peer string
	// TermBack is set when the event shows the peer in Term, below the
	// High it had shown at HighFrom.
	TermBack bool
	Term     int64
	High     int64
	HighFrom From
	// Led is the term the event shows a peer newly leading, or -1; Leader
	// is that peer (the event's own peer, or the sender of an update it
	// rejects); Rivals are the other peers already seen leading that term.
	Led    int64
	Leader string
	Rivals []*Leadership
	// Vote is a real vote the event grants; Earlier holds the voter's real
	// votes for other candidates in the same term.
	Vote    *VoteRec
	Earlier []VoteRec
	// Revocation is set for a lease revocation.
	Revocation *Revocation
	// Before is the peer's Raft state before the event, filled only when
	// the step shows a break (so findings can show it); Replica is its
	// MVCC state then (State.Apply fills it, Raft.Apply alone does not).
	Before  *RaftView
	Replica ReplicaLines
}

// Tablet returns tablet's history, or nil.
func (r *Raft) Tablet(tablet string) *TabletRaft {
	if e := r.tablets.get(tablet); e != nil && e.raft.seen {
		return &e.raft
	}
	return nil
}

// Tablets returns the tablets seen, sorted.
func (r *Raft) Tablets() []string {
	seen := r.seenSorted()
	out := make([]string, len(seen))
	for i, k := range seen {
		out[i] = k.t.Tablet
	}
	return out
}

// EachTablet calls fn with the history of every tablet seen, in the
// order of Tablets: what Tablets and Tablet give, without looking each
// tablet up again (a node hosting a million tablets spent more in those
// lookups than in judging its tablets at the end of the logs). A walk
// writes r (Raft.preloaded), so two walks of one Raft do not run at
// once.
func (r *Raft) EachTablet(fn func(*TabletRaft)) { r.eachTablet(fn, true) }

// eachTablet is EachTablet, with each batch of tablets preloaded or not
// (for the benchmark that weighs it).
func (r *Raft) eachTablet(fn func(*TabletRaft), preloaded bool) {
	keys := r.seenSorted()
	for len(keys) > 0 {
		batch := keys[:min(preloadBatch, len(keys))]
		keys = keys[len(batch):]
		if preloaded {
			r.preloaded = preload(batch)
		}
		for _, k := range batch {
			fn(k.t)
		}
	}
}

// In the order of their ids, tablets lie all over the heap: judging a
// million of them (EachTablet) waited on memory for most of its time, a
// handful of cache misses a tablet, each waiting for the one before (the
// history, then its rare part, then its leases). preload reads, for a
// batch of tablets, the words the judgment reads first, a level at a
// time: the loads of a level do not depend on each other, so the CPU
// waits on many misses at once, and the judgment then finds them in
// the cache. It changes nothing; what it reads is summed into
// Raft.preloaded so that the compiler keeps the loads.
const preloadBatch = 16

func preload(batch []tabletKey) uintptr {
	var s uintptr
	for _, k := range batch {
		t := k.t
		s += uintptr(len(t.Tablet)) + uintptr(unsafe.Pointer(t.x)) + uintptr(len(t.led)+len(t.peers)+len(t.noOps))
	}
	for _, k := range batch {
		t := k.t
		if len(t.Tablet) > 0 {
			s += uintptr(t.Tablet[0])
		}
		if t.x != nil {
			s += uintptr(len(t.x.leases) + len(t.x.revocations) + len(t.x.attempts) + len(t.x.votes))
		}
		if len(t.led) > 0 {
			s += uintptr(unsafe.Pointer(t.led[0]))
		}
		if len(t.peers) > 0 {
			s += uintptr(unsafe.Pointer(t.peers[0]))
		}
		if len(t.noOps) > 0 {
			s += uintptr(len(t.noOps[0].Leader))
		}
	}
	for _, k := range batch {
		t := k.t
		if x := t.x; x != nil {
			if len(x.leases) > 0 {
				s += uintptr(x.leases[0].Term)
			}
			if len(x.revocations) > 0 {
				s += uintptr(x.revocations[0].ByTerm)
			}
		}
		if len(t.led) > 0 {
			s += uintptr(t.led[0].Term)
		}
		if len(t.peers) > 0 {
			s += uintptr(t.peers[0].Term)
		}
	}
	return s
}

// tabletKey is a tablet seen, for sorting: the first eight bytes of its
// id as a big-endian number (a shorter id padded with zeros), and the
// tablet.
type tabletKey struct {
	prefix uint64
	t      *TabletRaft
}

// seenSorted returns the tablets seen in the order of their ids
// (strings.Compare). The sort compares the ids' first eight bytes held
// in the keys themselves, and reads the ids only where those are equal:
// comparing the strings, each in its own allocation, made sorting a
// million tablets an eighth of their run, for the cache misses. Numbers
// ordered so are the ids' bytes ordered so, and a zero of padding ties
// with a zero byte, which the ids' comparison then orders. The keys are
// gathered from the entries in the order they were made (Raft.made),
// which reads them about as they lie in memory.
func (r *Raft) seenSorted() []tabletKey {
	out := make([]tabletKey, 0, r.entries())
	r.eachEntry(func(e *tabletEntry) {
		if e.raft.seen {
			out = append(out, tabletKey{prefix: idPrefix(e.raft.Tablet), t: &e.raft})
		}
	})
	slices.SortFunc(out, func(a, b tabletKey) int {
		if c := cmp.Compare(a.prefix, b.prefix); c != 0 {
			return c
		}
		return strings.Compare(a.t.Tablet, b.t.Tablet)
	})
	return out
}

// idPrefix is id's first eight bytes as a big-endian number, zeros past
// its end.
func idPrefix(id string) uint64 {
	var b [8]byte
	copy(b[:], id)
	return binary.BigEndian.Uint64(b[:])
}

func (r *Raft) tablet(t string) *TabletRaft {
	// The parts a tablet may never need are made on first use: a node
	// can host a million tablets that log a line each.
	tr := &r.entry(t).raft
	tr.seen = true
	return tr
}

// Peer returns the peer's view, or nil.
func (t *TabletRaft) Peer(peer string) *PeerRaft {
	if i, ok := t.peerAt(peer); ok {
		return t.peers[i]
	}
	return nil
}

// peerAt is where peer is, or would go, in t.peers.
func (t *TabletRaft) peerAt(peer string) (int, bool) {
	return slices.BinarySearchFunc(t.peers, peer, func(p *PeerRaft, id string) int { return strings.Compare(p.Peer, id) })
}

// Peers returns the peers seen, sorted.
func (t *TabletRaft) Peers() []string {
	out := make([]string, len(t.peers))
	for i, p := range t.peers {
		out[i] = p.Peer
	}
	return out
}

func (t *TabletRaft) peer(p string) *PeerRaft {
	i, ok := t.peerAt(p)
	if ok {
		return t.peers[i]
	}
	pr := &PeerRaft{Peer: p, Term: -1, High: -1, Leading: -1, LastLed: -1, lastAttempt: -1, delayed: -1}
	t.peers = slices.Insert(t.peers, i, pr)
	return pr
}

// sameOp reports whether a and b print the same (every unread op id
// prints alike).
func sameOp(a, b ybval.OpID) bool {
	if a.Unread || b.Unread {
		return a.Unread == b.Unread
	}
	return a.Term == b.Term && a.Index == b.Index
}

// NoOp returns the NO_OP sent at op id op (as OpID.String prints it), or
// nil.
func (t *TabletRaft) NoOp(op string) *NoOpRec {
	for i := range t.noOps {
		if t.noOps[i].Op.String() == op {
			return &t.noOps[i]
		}
	}
	for _, l := range t.led {
		if l.noOp {
			if id := (ybval.OpID{Term: l.Term, Index: l.noOpIndex}); id.String() == op {
				return &NoOpRec{Leader: l.Peer, Op: id, From: l.Since}
			}
		}
	}
	return nil
}

// hasNoOp reports whether t holds a NO_OP at op.
func (t *TabletRaft) hasNoOp(op ybval.OpID) bool {
	if slices.ContainsFunc(t.noOps, func(n NoOpRec) bool { return sameOp(n.Op, op) }) {
		return true
	}
	if op.Unread {
		return false
	}
	for _, l := range t.Leaders(op.Term) {
		if l.noOp && l.noOpIndex == op.Index {
			return true
		}
	}
	return false
}

// Leaders returns the peers seen leading term, in the order they did.
func (t *TabletRaft) Leaders(term int64) []*Leadership {
	if term < 0 {
		return nil
	}
	i, j := t.termsBelow(term), t.termsBelow(term+1)
	if i == j {
		return nil
	}
	return t.led[i:j:j]
}

// Terms returns the terms that had a leader, ascending.
func (t *TabletRaft) Terms() []int64 {
	out := make([]int64, 0, len(t.led))
	for _, l := range t.led {
		if n := len(out); n == 0 || out[n-1] != l.Term {
			out = append(out, l.Term)
		}
	}
	return out
}

// Leadership returns peer's leadership of term, or nil.
func (t *TabletRaft) Leadership(peer string, term int64) *Leadership {
	for _, l := range t.Leaders(term) {
		if l.Peer == peer {
			return l
		}
	}
	if term >= 0 && term < t.below {
		for _, l := range t.rare().rarer().lastDropped {
			if l.Peer == peer && l.Term == term {
				return l
			}
		}
	}
	return nil
}

// Votes returns the real votes granted in term, by voter then order.
func (t *TabletRaft) Votes(term int64) []VoteRec {
	var out []VoteRec
	for _, v := range t.rare().votes {
		if v.Term == term {
			out = append(out, v)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Voter < out[j].Voter })
	return out
}

// votesOf returns voter's real votes in term, in timeline order.
func (t *TabletRaft) votesOf(voter string, term int64) []VoteRec {
	var out []VoteRec
	for _, v := range t.rare().votes {
		if v.Term == term && v.Voter == voter {
			out = append(out, v)
		}
	}
	return out
}

// line is the line an event was read from, as the fold keeps it: its
// text is packed (packIDs) when a part of the history first keeps it.
// Most Raft lines only confirm a term, a role or a leader already known,
// and packing each cost a quarter of the fold.
type line struct {
	m   *parse.Meta
	rep *yb.Replica
	ids *idCache
	// rr keeps the line by place when its input can be read again
	// (nil: by text).
	rr     *reread
	text   string
	packed bool
}

// lineOf is e's line, its ids read through ids (nil reads them anew).
func lineOf(e yb.Event, ids *idCache) line { return line{m: e.Info(), rep: e.Rep(), ids: ids} }

// pos is where the line is.
func (l *line) pos() parse.Pos { return l.m.Pos }

// keep is the line as the history keeps it (fromEvent).
func (l *line) keep() From {
	if !l.packed {
		if p, ok := l.rr.place(l.m.Pos.Source, l.m.Off-1, l.m.Text); ok {
			l.text = p
		} else {
			l.text = packIDsWith(l.m.Text, l.rep.Tablet, l.rep.Peer, l.ids)
		}
		l.packed = true
	}
	return From{Pos: l.m.Pos, text: l.text}
}

// draft is the line as a peer's HighFrom holds it: its text as read,
// packed only once another part of the history keeps it (Apply then
// shares it). A peer's High moves with every term, and its HighFrom is
// cited only by a term that went down, so most are replaced unread.
func (l *line) draft() From {
	if l.packed || (len(l.m.Text) > 0 && l.m.Text[0] == packedMark) || l.rr.can(l.m.Pos.Source, l.m.Off-1, l.m.Text) {
		// A text read that starts as a packed one does reads as packed;
		// a place costs less than the text it spares.
		return l.keep()
	}
	return From{Pos: l.m.Pos, text: l.m.Text}
}

// Apply folds one event into the view and says what it meant.
func (r *Raft) Apply(e yb.Event) Step {
	rep := e.Rep()
	st := Step{Tablet: rep.Tablet, Peer: rep.Peer, Led: -1, Term: -1, High: -1}
	switch ev := e.(type) {
	case *yb.TabletReport:
		// The master's reading of a report: the reporter's prefix says
		// nothing of its own term (a master line has none).
		return r.report(ev, st)
	case *yb.MasterStepDown:
		return r.masterStepDown(ev, st)
	}
	if rep.Tablet == "" || rep.Peer == "" {
		return st
	}
	t := r.tablet(rep.Tablet)
	p := t.peer(rep.Peer)
	ln := lineOf(e, &r.ids)
	ln.rr = r.reread
	from := &ln
	m := e.Info()
	at, timed := m.Time, m.Timed
	before := func() {
		if st.Before == nil {
			st.Before = t.View(p.Peer)
		}
	}
	if _, ok := e.(*yb.LeaseRevoked); ok {
		// A revocation is kept with the revoker's state, for the finding
		// a later line may prove it early.
		before()
	}
	// The terms a line shows the peer in: its prefix (the term it was in
	// when it printed the line), then the term an explicit advance names.
	adv := int64(-1)
	if rc, ok := e.(*yb.RoleChange); ok && rc.What == yb.AdvanceTerm {
		adv = rc.Term
	}
	for _, seen := range []int64{rep.Term, adv} {
		if seen < 0 {
			continue
		}
		if p.High >= 0 && seen < p.High && !st.TermBack {
			before()
			st.TermBack, st.Term, st.High, st.HighFrom = true, seen, p.High, p.HighFrom
		}
		if seen > p.High {
			p.High, p.HighFrom = seen, from.draft()
		}
		if seen != p.Term {
			if p.Term >= 0 || rep.Term < 0 || seen == adv {
				t.row(at, timed, p.Peer, seen, "term", func() string { return fmt.Sprintf("term %d", seen) }, from.pos())
			}
			p.Term = seen
		}
		if p.Leading >= 0 && seen > p.Leading {
			t.endLeading(p, at, timed, from, fmt.Sprintf("in term %d", seen))
		}
	}
	if rep.Role != "" && rep.Term >= 0 {
		switch rep.Role {
		case "LEADER":
			r.claim(t, p, rep.Term, at, timed, from, &st, before)
		}
		// A FOLLOWER prefix in the term it leads is not a step-down:
		// `Becoming Leader` itself prints the old role, and a leader that
		// gives up logs it (step-down, Becoming Follower, a later term).
		p.role = roleOf(rep.Role)
	}
	switch ev := e.(type) {
	case *yb.RoleChange:
		switch ev.What {
		case yb.StepDown:
			if l := t.Leadership(p.Peer, ev.Term); l != nil && !l.Ended {
				l.finish(at, from.keep(), "stepped down", "")
			}
			if p.Leading == ev.Term {
				p.Leading = -1
			}
			p.role = roleOf("FOLLOWER")
			t.row(at, timed, p.Peer, ev.Term, "step down", func() string {
				return fmt.Sprintf("leader of term %d steps down (new term %s)", ev.Term, termText(ev.NewTerm))
			}, from.pos())
		case yb.BecomeLeader:
			term := ev.Term
			if term < 0 {
				term = p.Term
			}
			if term >= 0 {
				r.claim(t, p, term, at, timed, from, &st, before)
			}
			p.role = roleOf("LEADER")
		case yb.BecomeFollower:
			if p.Leading >= 0 {
				t.endLeading(p, at, timed, from, "became follower")
			}
			p.role = roleOf("FOLLOWER")
			t.row(at, timed, p.Peer, p.Term, "follower", func() string { return "becomes follower" }, from.pos())
		case yb.MasterRole:
			if ev.NewRole == "LEADER" && p.Term >= 0 {
				r.claim(t, p, p.Term, at, timed, from, &st, before)
			} else if ev.NewRole != "LEADER" && p.Leading >= 0 {
				t.endLeading(p, at, timed, from, "role "+ev.NewRole)
			}
			p.role = roleOf(ev.NewRole)
		}
	case *yb.ActiveRole:
		if ev.To == "LEADER" && p.Term >= 0 {
			r.claim(t, p, p.Term, at, timed, from, &st, before)
		} else if ev.From == "LEADER" && p.Leading >= 0 {
			t.endLeading(p, at, timed, from, "role "+ev.To)
		}
		p.role = roleOf(ev.To)
	case *yb.ElectionStart:
		r.attempt(t, p, ev, at, timed, from)
	case *yb.ElectionResult:
		what := "lost"
		if ev.Won {
			what = "won"
		}
		kind := "election"
		if ev.Pre {
			kind = "pre-election"
		}
		if ev.Defunct {
			what += " (defunct term)"
		}
		t.row(at, timed, p.Peer, ev.Term, kind, func() string { return fmt.Sprintf("%s %s for term %d", kind, what, ev.Term) }, from.pos())
		if ev.Won && !ev.Pre && !ev.Defunct {
			if p.lastAttempt >= 0 {
				t.x.attempts[p.lastAttempt].Won = true
			} else if d := t.rare().rarer().droppedAttempt(p.Peer); d != nil {
				d.Won = true
			}
			r.claim(t, p, ev.Term, at, timed, from, &st, before)
		}
	case *yb.Vote:
		if ev.Granted && !ev.Pre && ev.Term >= 0 {
			v := VoteRec{Voter: p.Peer, Candidate: ev.Candidate, Term: ev.Term, From: from.keep()}
			var earlier []VoteRec
			dup := false
			for _, o := range t.votesOf(p.Peer, ev.Term) {
				if o.Candidate == ev.Candidate {
					dup = true
				} else {
					earlier = append(earlier, o)
				}
			}
			if len(earlier) > 0 {
				before()
			}
			st.Vote, st.Earlier = &v, earlier
			if !dup {
				x := t.more()
				x.votes = append(x.votes, v)
			}
			t.row(at, timed, p.Peer, ev.Term, "vote", func() string { return fmt.Sprintf("votes for %s in term %d", ev.Candidate, ev.Term) }, from.pos())
		} else if ev.Granted {
			t.row(at, timed, p.Peer, ev.Term, "pre-vote", func() string {
				return fmt.Sprintf("pre-vote for %s for term %d (does not bind)", ev.Candidate, ev.Term)
			}, from.pos())
		} else {
			kind := "vote"
			if ev.Pre {
				kind = "pre-vote"
			}
			t.row(at, timed, p.Peer, ev.Term, "denied", func() string {
				return fmt.Sprintf("denies %s to %s for term %s: %s", kind, ev.Candidate, termText(ev.Term), ev.Reason)
			}, from.pos())
		}
	case *yb.NoOp:
		r.claim(t, p, ev.Op.Term, at, timed, from, &st, before)
		if !t.hasNoOp(ev.Op) {
			// Most NO_OPs are the line that showed their leader leading
			// the term: the leadership keeps its op index, not a copy of
			// its leader and line.
			if l := t.Leadership(p.Peer, ev.Op.Term); l != nil && !ev.Op.Unread && l.Since.Pos == from.pos() && l.Since == from.keep() {
				l.noOp, l.noOpIndex = true, ev.Op.Index
			} else {
				t.noOps = append(t.noOps, NoOpRec{Leader: p.Peer, Op: ev.Op, From: from.keep()})
			}
		}
		t.row(at, timed, p.Peer, ev.Op.Term, "no-op", func() string { return fmt.Sprintf("NO_OP at %s", ev.Op) }, from.pos())
	case *yb.Transfer:
		delayed := int64(-1)
		switch ev.What {
		case yb.TransferDelayed:
			delayed = p.Leading
			if delayed < 0 {
				delayed = p.Term
			}
			p.delayed = delayed
		case yb.TransferStart, yb.TransferUnsynced:
			p.delayed = -1
		}
		t.row(at, timed, p.Peer, p.Term, "transfer", func() string {
			if ev.What == yb.TransferDelayed {
				return fmt.Sprintf("puts off stepping down from term %s until its protege %s catches up", termText(delayed), orUnknown(ev.To))
			}
			detail := string(ev.What)
			if ev.To != "" {
				detail += " to " + ev.To
			}
			return detail
		}, from.pos())
	case *yb.LeaseRevoked:
		rv := Revocation{By: p.Peer, ByTerm: p.Term, Holder: ev.Holder, HolderTerm: t.lastLed(ev.Holder, p.Term),
			At: at, Timed: timed, From: from.keep(), Before: st.Before}
		if ev.HT {
			rv.Kind, rv.Expiry = HTLeaseKind, ev.Expiry
			t.row(at, timed, p.Peer, p.Term, "revoke", func() string {
				return fmt.Sprintf("revokes %s's ht lease to %s", orUnknown(ev.Holder), htText(ev.Expiry))
			}, from.pos())
		} else {
			rv.Kind, rv.Remaining = WallLeaseKind, ev.Remaining
			t.row(at, timed, p.Peer, p.Term, "revoke", func() string {
				return fmt.Sprintf("revokes %s's lease with %s left", orUnknown(ev.Holder), ev.Remaining)
			}, from.pos())
		}
		x := t.more()
		rv.lease, rv.pos = ev.Holder != "" && timed && usable(ev.HT, ev.Expiry, ev.Remaining), int32(len(x.leases))
		x.revocations = append(x.revocations, rv)
		st.Revocation = &x.revocations[len(x.revocations)-1]
	case *yb.LeaseReset:
		term := p.LastLed
		if p.Leading >= 0 {
			term = p.Leading
		}
		f := LeaseFact{Holder: p.Peer, Term: term, Seen: p.Peer, How: LeaseReset, At: at}
		if ev.HT {
			f.Kind, f.Expiry = HTLeaseKind, ev.Expiry
			t.row(at, timed, p.Peer, p.Term, "lease reset", func() string {
				return fmt.Sprintf("drops its term-%s ht lease to %s", termText(term), htText(ev.Expiry))
			}, from.pos())
		} else {
			// Reset our lease prints now minus the expiry.
			f.Kind, f.Until = WallLeaseKind, at.Add(-time.Duration(ev.Since.Millis)*time.Millisecond)
			t.row(at, timed, p.Peer, p.Term, "lease reset", func() string { return fmt.Sprintf("drops its lease, which ran to %s", clock(f.Until)) }, from.pos())
		}
		if timed && usable(ev.HT, ev.Expiry, ev.Since) {
			f.From = from.keep()
			x := t.more()
			x.leases = append(x.leases, f)
		}
		// Not a step-down: builds of 2020 print it as the winner of an
		// election takes over (its old lease long over), newer ones when
		// a leader's lease lapses. Role and term lines say when it gave up.
	case *yb.OldLeaseWait:
		// A new leader logs this on every refused read or write while it
		// waits: keep one fact per waiting peer and term, with the
		// latest end, and one row.
		if ev.HasRemaining {
			if prev := t.previousLeader(p.Peer, p.Term); prev != nil && timed && ev.Remaining.Inf == 0 {
				f := LeaseFact{Holder: prev.Peer, Term: prev.Term, Kind: WallLeaseKind,
					Until: at.Add(time.Duration(ev.Remaining.Millis) * time.Millisecond), Seen: p.Peer, How: LeaseWaited, At: at}
				key := waitKey{p.Peer, p.Term, prev.Peer, prev.Term}
				if i, ok := t.rare().rarer().waits[key]; ok {
					if f.Until.After(t.x.leases[i].Until) {
						f.From = from.keep()
						t.x.ownLeases()
						t.x.leases[i] = f
					}
				} else {
					x := t.more()
					y := x.moreRarer()
					if y.waits == nil {
						y.waits = map[waitKey]int{}
					}
					y.waits[key] = len(x.leases)
					f.From = from.keep()
					x.leases = append(x.leases, f)
				}
			}
		}
		if wk := (waitKey{p.Peer, p.Term, "", -1}); !t.rare().rarer().waitRow[wk] {
			y := t.more().moreRarer()
			if y.waitRow == nil {
				y.waitRow = map[waitKey]bool{}
			}
			y.waitRow[wk] = true
			t.row(at, timed, p.Peer, p.Term, "lease wait", func() string {
				if ev.HasRemaining {
					return fmt.Sprintf("waits: previous leader's lease may run %s more", ev.Remaining)
				}
				detail := "waits: an old leader may hold a lease"
				if ev.HT {
					detail = "waits: an old leader may hold an ht lease"
				}
				if ev.Op != "" {
					detail += ", refusing " + ev.Op
				}
				return detail
			}, from.pos())
		}
	case *yb.UpdateRejected:
		t.row(at, timed, p.Peer, p.Term, "reject", func() string {
			if ev.EarlierTerm {
				return fmt.Sprintf("rejects update from %s for earlier term %d (current %d)", ev.From, ev.Term, ev.Current)
			}
			return fmt.Sprintf("refuses update from %s: log matching (%s)", ev.From, ev.Mismatch)
		}, from.pos())
		if ev.EarlierTerm && ev.Term >= 0 && ev.From != "" && ev.From != p.Peer {
			// The sender still acts as leader of that earlier term. Its
			// own view is left alone: this is another peer's word, and
			// only its own lines say when it gave up.
			t.lead(ev.From, ev.Term, at, timed, from, &st, before)
		}
	}
	if ln.packed && p.HighFrom.Pos == ln.m.Pos && p.HighFrom.text == ln.m.Text {
		// The line that raised the peer's term is kept packed: its
		// HighFrom shares that text.
		p.HighFrom.text = ln.text
	}
	return st
}

// claim records p leading term; a peer already seen leading it is a rival.
func (r *Raft) claim(t *TabletRaft, p *PeerRaft, term int64, at time.Time, timed bool, from *line, st *Step, before func()) {
	if term < 0 {
		return
	}
	if p.Leading >= 0 && p.Leading != term {
		t.endLeading(p, at, timed, from, fmt.Sprintf("leads term %d", term))
	}
	p.Leading = term
	if term > p.LastLed {
		p.LastLed = term
	}
	if l := t.Leadership(p.Peer, term); l != nil && l.Ended && l.EndBy() == masterWord && (!timed || !l.EndAt().After(at)) {
		// The peer's own line shows it leading on after the master
		// heard it had stepped down: its own word outweighs the master's.
		l.reopen()
		t.row(at, timed, p.Peer, term, "leader", func() string { return fmt.Sprintf("still leads term %d by its own log", term) }, from.pos())
	}
	t.lead(p.Peer, term, at, timed, from, st, before)
}

// lead records peer leading term, seen at from (its own line or another
// peer's), unless already known; a different peer already seen leading
// the term is a rival.
func (t *TabletRaft) lead(peer string, term int64, at time.Time, timed bool, from *line, st *Step, before func()) {
	if t.Leadership(peer, term) != nil {
		// Seen already; a leader cut off from the others goes on logging
		// its old term as leader, and Leadership still finds the last
		// one compaction dropped of each peer's (lastDropped).
		return
	}
	var rivals []*Leadership
	for _, l := range t.Leaders(term) {
		if l.Peer != peer {
			rivals = append(rivals, l)
		}
	}
	if len(rivals) > 0 {
		before()
		st.Rivals = rivals
	}
	st.Led, st.Leader = term, peer
	l := &Leadership{Peer: peer, Term: term, Since: from.keep(), At: at, Timed: timed}
	t.led = slices.Insert(t.led, t.termsBelow(term+1), l)
	if t.raft != nil {
		t.raft.maybeCompact(t, term)
	}
	t.row(at, timed, peer, term, "leader", func() string { return fmt.Sprintf("leader of term %d", term) }, from.pos())
}

// endLeading records that p gave up the term it led.
func (t *TabletRaft) endLeading(p *PeerRaft, at time.Time, timed bool, from *line, how string) {
	if l := t.Leadership(p.Peer, p.Leading); l != nil && !l.Ended {
		l.finish(at, from.keep(), how, "")
		t.row(at, timed, p.Peer, p.Leading, "leader ends", func() string { return fmt.Sprintf("no longer leader of term %d: %s", p.Leading, how) }, from.pos())
	}
	p.Leading, p.delayed = -1, -1
}

// attempt records an election attempt, merging the lines one attempt logs.
func (r *Raft) attempt(t *TabletRaft, p *PeerRaft, ev *yb.ElectionStart, at time.Time, timed bool, from *line) {
	var last *Attempt
	if p.lastAttempt >= 0 {
		last = &t.x.attempts[p.lastAttempt]
	} else {
		last = t.rare().rarer().droppedAttempt(p.Peer)
	}
	if last != nil && timed && last.Timed && at.Sub(last.At) >= 0 && at.Sub(last.At) < attemptBurst && !last.Won {
		if ev.PreKnown && !ev.Pre {
			last.Pre = false
		}
		return
	}
	a := Attempt{Peer: p.Peer, Term: p.Term, Pre: ev.PreKnown && ev.Pre, At: at, Timed: timed, From: from.keep()}
	x := t.more()
	x.attempts = append(x.attempts, a)
	p.lastAttempt = int32(len(x.attempts) - 1)
	t.row(at, timed, p.Peer, p.Term, "election", func() string {
		detail := "starts an election"
		if ev.FailedLeader != "" {
			detail += " (leader " + ev.FailedLeader + " failed)"
		}
		if ev.Mode != "" {
			detail += ", " + ev.Mode
		}
		return detail
	}, from.pos())
}

// lastLed is the latest term below below that holder was seen leading, or
// -1. It walks the led terms back from below: the holder of a lease being
// revoked led a term or two before, so this stops soon. Compaction may
// have dropped that leadership and kept an older one of the holder's (a
// lease of its still running), so the peer's own record of the last term
// it led (LastLed) outweighs the walk when it is below below.
func (t *TabletRaft) lastLed(holder string, below int64) int64 {
	led := int64(-1)
	for i := t.termsBelow(below) - 1; i >= 0; i-- {
		if t.led[i].Peer == holder {
			led = t.led[i].Term
			break
		}
	}
	if p := t.Peer(holder); p != nil && p.LastLed < below {
		led = max(led, p.LastLed)
	}
	return led
}

// previousLeader is the leader of the latest term below term other than
// peer (the lowest peer id of those leading that term), or nil.
func (t *TabletRaft) previousLeader(peer string, term int64) *Leadership {
	var best *Leadership
	better := func(l *Leadership) bool {
		return l.Peer != peer && (best == nil || l.Term > best.Term || l.Term == best.Term && l.Peer < best.Peer)
	}
	for i := t.termsBelow(term) - 1; i >= 0; i-- {
		l := t.led[i]
		if best != nil && l.Term != best.Term {
			// The latest term below with another leader is done.
			break
		}
		if better(l) {
			best = l
		}
	}
	// Compaction may have dropped that term and kept an older one (a
	// lease of its still running). It drops a term's leaders together, so
	// a dropped leader never shares a term with a kept one.
	for _, l := range t.rare().rarer().lastDropped {
		if (term < 0 || l.Term < term) && better(l) {
			best = l
		}
	}
	return best
}

// termsBelow is how many leaderships are of terms below term (all of
// them for a negative term).
func (t *TabletRaft) termsBelow(term int64) int {
	n := len(t.led)
	if term < 0 {
		return n
	}
	// Nearly every line is of the latest term or the next: the last few
	// leaderships answer before a search does.
	for i := n - 1; i >= max(n-4, 0); i-- {
		if t.led[i].Term < term {
			return i + 1
		}
	}
	if n <= 4 {
		return 0
	}
	return sort.Search(n-4, func(i int) bool { return t.led[i].Term >= term })
}

// row adds a row to the timeline, within its budgets; detail is called
// only for a row kept: most rows of a long log are not, and formatting
// each one cost more than the fold itself.
func (t *TabletRaft) row(at time.Time, timed bool, peer string, term int64, what string, detail func() string, pos parse.Pos) {
	var budget *rowBudget
	if t.raft != nil {
		budget = t.raft.rows
	}
	if len(t.rare().rarer().rows) >= maxTabletRows || budget == nil || budget.left <= 0 {
		t.dropped++
		if budget != nil {
			budget.dropped++
		}
		return
	}
	budget.left--
	y := t.more().moreRarer()
	y.rows = append(y.rows, Row{At: at, Timed: timed, Peer: peer, Term: term, What: what, Detail: detail(), From: From{Pos: pos}})
}

// usable reports whether a printed lease end is a point in time: a real
// hybrid time for an ht lease, a finite duration for a lease.
func usable(ht bool, expiry ybval.HybridTime, d ybval.Deadline) bool {
	if ht {
		return expiry.Special == ybval.Normal && expiry.Physical > 0
	}
	return d.Inf == 0
}

func termText(n int64) string {
	if n < 0 {
		return "?"
	}
	return fmt.Sprint(n)
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}

// htText prints a hybrid time with its physical part as a UTC clock time,
// so it can be read against the log's wall times.
func htText(h ybval.HybridTime) string {
	if h.Special != ybval.Normal || h.Physical == 0 {
		return h.String()
	}
	return fmt.Sprintf("%s (%s UTC)", h, clock(time.UnixMicro(int64(h.Physical))))
}

// clock prints the time of day of t in UTC, to the microsecond.
func clock(t time.Time) string { return t.UTC().Format("15:04:05.000000") }

// stamp prints a wall time the way glog does, with the date.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05.000000")
}
