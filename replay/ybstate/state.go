package ybstate

import (
	"fmt"
	"slices"
	"sort"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// Key names a tablet replica.
type Key struct {
	Tablet string
	Peer   string
}

func (k Key) String() string {
	if k.Peer == "" {
		return "T " + k.Tablet
	}
	return "T " + k.Tablet + " P " + k.Peer
}

// From is the log line a value was read from, so a finding can cite it.
type From struct {
	Pos parse.Pos
	// text is the line, its ids packed (packText): Text reads it.
	text string
}

// Text is the line as read.
func (f From) Text() string {
	if isPlace(f.text) {
		return readPlace(f.Pos.Source, f.text)
	}
	return unpackText(f.text)
}

// HT is a hybrid time with the line that set it. Set is false until a log
// line gives it a value.
type HT struct {
	HT   ybval.HybridTime
	Set  bool
	From From
}

func (h HT) String() string {
	if !h.Set {
		return "unknown"
	}
	return fmt.Sprintf("%s (%s)", h.HT, h.From.Pos)
}

// raise sets h to v when v is higher, and reports whether it did.
func (h *HT) raise(v ybval.HybridTime, from From) bool {
	if !v.Valid() || v.IsMin() {
		return false
	}
	if !h.Set || v.Compare(h.HT) > 0 {
		*h = HT{HT: v, Set: true, From: from}
		return true
	}
	return false
}

// Pending is an op in the MVCC queue.
type Pending struct {
	HT    ybval.HybridTime
	Op    ybval.OpID
	HasOp bool
	From  From
}

func (p Pending) String() string {
	if p.HasOp {
		return fmt.Sprintf("%s@%s", p.Op, p.HT)
	}
	return p.HT.String()
}

// Lease is a hybrid-time leader lease: the leader of Term may serve reads
// at safe times up to Expiry, so no later leader may write at or below it.
type Lease struct {
	// Term is the Raft term of the leader that held it, or -1 when the log
	// does not say.
	Term   int64
	Holder string
	Taken  ybval.HybridTime
	Expiry ybval.HybridTime
	From   From
}

func (l Lease) String() string {
	term := "term ?"
	if l.Term >= 0 {
		term = fmt.Sprintf("term %d", l.Term)
	}
	return fmt.Sprintf("%s to %s (%s, %s)", l.Holder, l.Expiry, term, l.From.Pos)
}

// Mvcc is one replica's MvccManager as far as its log shows it.
type Mvcc struct {
	// Queue holds the pending ops this log showed being added and not yet
	// replicated or aborted. Ops added before the visible part of a dump
	// are not in it.
	Queue          []Pending
	LastReplicated HT
	Propagated     HT
	WithLease      HT
	WithoutLease   HT
	ForFollower    HT
	HTLease        *Lease
	LastOp         ybval.OpID
	HasLastOp      bool
	LastOpFrom     From
	LeaderOnly     bool
	// lastItem is the number of the last dump entry applied, to notice
	// gaps in a dump.
	lastItem int
	// dumpSource is the source of the last dump applied.
	dumpSource string
	// lease tells the term of the leadership an ht lease in the current
	// dump belongs to; writeLease is the same for the writes the dump
	// shows (noteWrites reads each part before ApplyItem does).
	lease, writeLease leaseTerms
}

// Replica is one tablet peer's replayed state.
type Replica struct {
	Key
	// Term and Role are the latest a log line of this peer printed; Term
	// is -1 until one does.
	Term int64
	role roleName
	// LeaderTerm is the latest term this peer was seen leading, or -1.
	LeaderTerm int64
	// mvcc is made by the first MVCC line of the replica (Mvcc): most
	// replicas of a node hosting many tablets only ever log Raft lines.
	mvcc *Mvcc
}

// Role is the role a log line of this peer last printed, or "".
func (r *Replica) Role() string { return r.role.String() }

// Mvcc is the replica's MVCC state, made empty on first use.
func (r *Replica) Mvcc() *Mvcc {
	if r.mvcc == nil {
		r.mvcc = &Mvcc{lease: newLeaseTerms(), writeLease: newLeaseTerms()}
	}
	return r.mvcc
}

// leaseTerms follows, entry by entry, which leadership the ht leases of a
// dump belong to. A lease is the leader's: it belongs to the peer and the
// term it led when it held it, never to the term of an op it replicated as
// a follower (a follower of term 3 that becomes leader of term 4 serves
// under its term-4 lease).
type leaseTerms struct {
	// led is the term of the last op the dump showed the peer add as
	// leader, or -1.
	led int64
	// followed is the term of the last op it added as a follower after
	// that, or -1: it led no term up to that one since.
	followed int64
}

func newLeaseTerms() leaseTerms { return leaseTerms{led: -1, followed: -1} }

// see notes the op an entry adds.
func (l *leaseTerms) see(it *yb.Item) {
	if !it.HasOp {
		return
	}
	switch it.Kind {
	case yb.AddLeaderPending:
		l.led, l.followed = it.Op.Term, -1
	case yb.AddFollowerPending:
		l.followed = it.Op.Term
	}
}

// term is the term a lease held now belongs to, given the last term any
// line showed the peer leading, or -1 when no line tells.
func (l leaseTerms) term(leaderTerm int64) int64 {
	if l.led >= 0 && l.followed < 0 {
		return l.led
	}
	if l.followed >= 0 && leaderTerm <= l.followed {
		// It followed term F since any leadership seen: its lease is of
		// a later term no line names.
		return -1
	}
	return max(leaderTerm, l.led)
}

// State is everything the YugabyteDB logs showed, folded into one place:
// every replica's MVCC state keyed by tablet and peer, the cross-peer Raft
// view (terms, leaders, votes, leases), each tablet's Raft config and
// remote bootstrap history, and the writes a leader made at a hybrid time.
// Rules read it; only Apply changes it.
type State struct {
	// replicas holds the replicas of no tablet; a tablet's are in its
	// Raft entry (Raft.entry), so a node hosting a million tablets pays
	// for one map, not two.
	replicas map[Key]*Replica
	// leases holds, per tablet, the highest ht lease expiry seen for each
	// leader term, from any peer's log.
	leases  map[string]map[int64]*Lease
	raft    *Raft
	configs *Configs
	writes  map[string]*tabletWrites
	// last is the replica Replica returned last: the rules and the state
	// each look up an event's replica, and a replica's lines come in runs.
	last *Replica
}

// New returns an empty state.
func New() *State {
	return &State{replicas: map[Key]*Replica{}, leases: map[string]map[int64]*Lease{},
		raft: NewRaft(), configs: NewConfigs(), writes: map[string]*tabletWrites{}}
}

// Raft is the cross-peer Raft and lease view folded so far.
func (s *State) Raft() *Raft { return s.raft }

// Configs is the Raft config and remote bootstrap state folded so far.
func (s *State) Configs() *Configs { return s.configs }

// Replica returns the replica for k, creating it.
func (s *State) Replica(k Key) *Replica {
	if r := s.last; r != nil && r.Tablet == k.Tablet && r.Peer == k.Peer {
		return r
	}
	r := s.replica(k)
	s.last = r
	return r
}

func (s *State) replica(k Key) *Replica {
	if k.Tablet == "" {
		r := s.replicas[k]
		if r == nil {
			r = &Replica{Key: k, Term: -1, LeaderTerm: -1}
			s.replicas[k] = r
		}
		return r
	}
	e := s.raft.entry(k.Tablet)
	if r := e.replica(k.Peer); r != nil {
		return r
	}
	if !e.raft.hasRep {
		e.raft.hasRep = true
		e.rep = Replica{Key: k, Term: -1, LeaderTerm: -1}
		return &e.rep
	}
	r := &Replica{Key: k, Term: -1, LeaderTerm: -1}
	y := e.raft.more().moreRarer()
	y.reps = append(y.reps, r)
	return r
}

// replica returns the entry's replica of peer, or nil.
func (e *tabletEntry) replica(peer string) *Replica {
	if !e.raft.hasRep {
		return nil
	}
	if e.rep.Peer == peer {
		return &e.rep
	}
	for _, r := range e.raft.rare().rarer().reps {
		if r.Peer == peer {
			return r
		}
	}
	return nil
}

// Lookup returns the replica for k, or nil.
func (s *State) Lookup(k Key) *Replica {
	if k.Tablet == "" {
		return s.replicas[k]
	}
	if e := s.raft.tablets.get(k.Tablet); e != nil {
		return e.replica(k.Peer)
	}
	return nil
}

// Replicas returns all replicas sorted by tablet, then peer.
func (s *State) Replicas() []*Replica {
	out := make([]*Replica, 0, len(s.replicas)+s.raft.entries())
	for _, r := range s.replicas {
		out = append(out, r)
	}
	s.raft.eachEntry(func(e *tabletEntry) {
		if e.raft.hasRep {
			out = append(out, &e.rep)
			out = append(out, e.raft.rare().rarer().reps...)
		}
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].Tablet != out[j].Tablet {
			return out[i].Tablet < out[j].Tablet
		}
		return out[i].Peer < out[j].Peer
	})
	return out
}

// Leases returns the ht leases known for tablet, by term ascending.
func (s *State) Leases(tablet string) []*Lease {
	var out []*Lease
	for _, l := range s.leases[tablet] {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Term < out[j].Term })
	return out
}

// KeyOf is the replica key of an event.
func KeyOf(e yb.Event) Key {
	r := e.Rep()
	return Key{Tablet: r.Tablet, Peer: r.Peer}
}

func fromEvent(e parse.Event) From {
	m := e.Info()
	text := m.Text
	if ye, ok := e.(yb.Event); ok {
		r := ye.Rep()
		text = packIDs(text, r.Tablet, r.Peer)
	}
	return From{Pos: m.Pos, text: text}
}

// FromItem is where a dump entry was printed.
func FromItem(src string, it *yb.Item) From {
	return From{Pos: parse.Pos{Source: src, Line: it.Line}, text: it.Text}
}

// Apply folds one event into the state and returns what it meant to the
// Raft view, against the state before it (see Step).
func (s *State) Apply(e parse.Event) Step { return s.ApplyEach(e, nil) }

// ApplyEach is Apply, calling each (when not nil) before every entry of an
// MVCC dump is folded in, so a rule can judge the entry against the
// replica as it stood just before it.
func (s *State) ApplyEach(e parse.Event, each func(r *Replica, from From, it *yb.Item)) Step {
	ye, ok := e.(yb.Event)
	if !ok {
		return Step{Led: -1, Term: -1, High: -1}
	}
	r := s.Replica(KeyOf(ye))
	var st Step
	switch ye.(type) {
	case *yb.MvccDump, *yb.HTTooLow, *yb.CheckFailed, *yb.OpSequence,
		*yb.FollowerSafeTimeBack, *yb.LeaderSafeTimeBack, *yb.MvccFatal:
		// MVCC lines: the Raft and config views do not read them.
		st = Step{Tablet: ye.Rep().Tablet, Peer: ye.Rep().Peer, Led: -1, Term: -1, High: -1}
		s.noteWrites(r, ye)
	default:
		// The replica's MVCC lines are taken as they stood before the
		// event: the event's own term and role are folded in below.
		st = s.applyRaft(r, ye)
		s.applyConfig(r, ye)
	}
	s.ObserveRole(r, ye)
	switch ev := ye.(type) {
	case *yb.MvccDump:
		if ev.Part == 0 {
			r.BeginDump(ev)
		}
		for i := range ev.Items {
			it := &ev.Items[i]
			from := FromItem(ev.Pos.Source, it)
			if each != nil {
				each(r, from, it)
			}
			s.ApplyItem(r, from, it)
		}
	case *yb.RoleChange:
		s.applyRole(r, ev)
	case *yb.FollowerSafeTimeBack:
		r.Mvcc().Propagated.raise(ev.Old, fromEvent(ev))
	case *yb.LeaderSafeTimeBack:
		r.Mvcc().Propagated.raise(ev.Propagated, fromEvent(ev))
	}
	return st
}

// ObserveRole takes the term and role a line's prefix printed.
func (s *State) ObserveRole(r *Replica, e yb.Event) {
	rep := e.Rep()
	if rep.Term >= 0 {
		r.Term = rep.Term
		if rep.Role != "" {
			r.role = roleOf(rep.Role)
		}
		if rep.Role == "LEADER" && rep.Term > r.LeaderTerm {
			r.LeaderTerm = rep.Term
		}
	}
}

func (s *State) applyRole(r *Replica, ev *yb.RoleChange) {
	switch ev.What {
	case yb.AdvanceTerm:
		r.Term = ev.Term
	case yb.StepDown:
		if ev.Term > r.LeaderTerm {
			r.LeaderTerm = ev.Term
		}
		if ev.NewTerm >= 0 {
			r.Term = ev.NewTerm
		}
		r.role = roleOf("FOLLOWER")
	case yb.BecomeLeader:
		r.role = roleOf("LEADER")
		if ev.Term > r.LeaderTerm {
			r.LeaderTerm = ev.Term
		}
	case yb.BecomeFollower:
		r.role = roleOf("FOLLOWER")
	case yb.MasterRole:
		r.role = roleOf(ev.NewRole)
	}
}

// BeginDump prepares for a dump's entries: a dump without its first
// entries shows only part of the queue.
//
// A dump is a window of at most a few dozen entries: what happened between
// two dumps is unseen, so the pending queue and the last op id start
// afresh with each. A dump from another file of the same peer may come from
// another process (a crash loop writes one log file per start), whose
// MvccManager started empty, so the whole MVCC state starts afresh then.
// Both choices can only hide a break, never invent one.
func (r *Replica) BeginDump(d *yb.MvccDump) {
	m := r.Mvcc()
	m.lastItem = 0
	if m.dumpSource != "" && m.dumpSource != d.Pos.Source {
		wl := m.writeLease
		*m = Mvcc{writeLease: wl}
	}
	m.dumpSource = d.Pos.Source
	m.lease = newLeaseTerms()
	m.Queue = nil
	m.LastOp, m.HasLastOp, m.LastOpFrom = ybval.OpID{}, false, From{}
}

// Gap reports whether entry it does not follow the previous one, so ops
// may have come and gone unseen.
func (r *Replica) Gap(it *yb.Item) bool {
	m := r.Mvcc()
	return m.lastItem != 0 && it.No != m.lastItem+1
}

// LeaseTerm is the term to credit an ht lease seen in this replica's dump
// to: the term of the last op it added as leader, else the last term it
// was seen leading, unless it added an op as a follower of that term or a
// later one since (then -1: the lease is of a leadership no line names).
func (r *Replica) LeaseTerm() int64 { return r.Mvcc().lease.term(r.LeaderTerm) }

// ApplyItem folds one dump entry into r.
func (s *State) ApplyItem(r *Replica, from From, it *yb.Item) {
	m := r.Mvcc()
	if r.Gap(it) {
		// Entries are missing: what was pending may have gone.
		m.Queue = nil
	}
	m.lastItem = it.No
	switch it.Kind {
	case yb.SetLeaderOnlyMode:
		m.LeaderOnly = it.LeaderOnly
	case yb.SetLastReplicated:
		if it.HT.Valid() {
			m.LastReplicated = HT{HT: it.HT, Set: true, From: from}
		}
	case yb.SetPropagatedSafeTimeOnFollower:
		m.Propagated.raise(it.HT, from)
	case yb.UpdatePropagatedSafeTimeOnLeader:
		if it.SafeTime.Valid() && !it.SafeTime.IsMin() {
			m.Propagated = HT{HT: it.SafeTime, Set: true, From: from}
		}
		s.takeLease(r, from, it)
		if !it.Lease.Lease.Valid() {
			m.WithoutLease.raise(it.SafeTime, from)
		} else {
			m.WithLease.raise(it.SafeTime, from)
		}
	case yb.AddLeaderPending, yb.AddFollowerPending, yb.AddPending:
		m.lease.see(it)
		m.Queue = append(m.Queue, Pending{HT: it.HT, Op: it.Op, HasOp: it.HasOp, From: from})
		if it.HasOp {
			m.LastOp, m.HasLastOp, m.LastOpFrom = it.Op, true, from
		}
	case yb.Replicated:
		if i := m.Find(it.HT, it.Op, it.HasOp); i >= 0 {
			m.unqueue(i)
		}
		if it.HT.Valid() {
			m.LastReplicated = HT{HT: it.HT, Set: true, From: from}
		}
		if it.HasOp && (!m.HasLastOp || it.Op.Compare(m.LastOp) > 0) {
			m.LastOp, m.HasLastOp, m.LastOpFrom = it.Op, true, from
		}
	case yb.Aborted:
		if i := m.Find(it.HT, it.Op, it.HasOp); i >= 0 {
			m.unqueue(i)
		}
	case yb.SafeTime:
		s.takeLease(r, from, it)
		if !it.Lease.Lease.Valid() {
			m.WithoutLease.raise(it.SafeTime, from)
		} else {
			m.WithLease.raise(it.SafeTime, from)
		}
	case yb.SafeTimeForFollower:
		m.ForFollower.raise(it.SafeTime, from)
	}
}

// takeLease records the ht lease an entry shows the replica holding.
func (s *State) takeLease(r *Replica, from From, it *yb.Item) {
	if !it.HasLease || !it.Lease.Lease.Valid() || it.Lease.Lease.IsMin() {
		return
	}
	// Most entries repeat the lease the replica already holds: the Lease
	// is made only when the replica or its tablet keeps it.
	term, expiry := r.LeaseTerm(), it.Lease.Lease
	var l *Lease
	mk := func() *Lease {
		if l == nil {
			l = &Lease{Term: term, Holder: r.Peer, Taken: it.Lease.Time, Expiry: expiry, From: from}
		}
		return l
	}
	if m := r.Mvcc(); m.HTLease == nil || expiry.Compare(m.HTLease.Expiry) >= 0 || term != m.HTLease.Term {
		m.HTLease = mk()
	}
	if term < 0 {
		return
	}
	byTerm := s.leases[r.Tablet]
	if byTerm == nil {
		byTerm = map[int64]*Lease{}
		s.leases[r.Tablet] = byTerm
	}
	if old := byTerm[term]; old == nil || expiry.Compare(old.Expiry) > 0 {
		byTerm[term] = mk()
	}
}

// unqueue removes the i-th queued op in place (no one else holds the
// queue): the front, the usual one, by reslicing.
func (m *Mvcc) unqueue(i int) {
	if i == 0 {
		m.Queue[0] = Pending{}
		m.Queue = m.Queue[1:]
		return
	}
	m.Queue = slices.Delete(m.Queue, i, i+1)
}

// Find returns the index of the queued op matching ht (and op id when
// given), or -1.
func (m *Mvcc) Find(ht ybval.HybridTime, op ybval.OpID, hasOp bool) int {
	for i, p := range m.Queue {
		if p.HT.Compare(ht) == 0 && (!hasOp || !p.HasOp || p.Op == op) {
			return i
		}
	}
	return -1
}
