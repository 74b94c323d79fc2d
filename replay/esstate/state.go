package esstate

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/logsleuth/logsleuth/grammar/esval"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
)

// Unknown marks a number the logs have not shown yet.
const Unknown int64 = -3

// MaxOps bounds the ops kept per copy and per shard history (a Window):
// the rules look at seq#s near the checkpoints and the recoveries, so a
// long TRACE log keeps only its newest MaxOps seq#s instead of every line
// it read. At 1<<17 the op windows held 410 MB for a three-node 200 MiB
// TRACE log; at 1<<14, 130 MB (150 MB for 1 GiB), and the run is faster
// too. It must be a power of two (the window's ring grows by doubling).
const MaxOps = 1 << 14

// Ref points at the log line a fact came from, for evidence and printouts.
type Ref struct {
	Source string
	Line   int
	Text   string
}

// RefOf is the first line of e.
func RefOf(e parse.Event) Ref {
	m := e.Info()
	return Ref{Source: m.Pos.Source, Line: m.Pos.Line, Text: m.Text}
}

func (r Ref) String() string {
	if r.Line == 0 {
		return "-"
	}
	return fmt.Sprintf("%s:%d", r.Source, r.Line)
}

// ShardID is an index name and shard number.
type ShardID struct {
	Index string
	Shard int
}

func (s ShardID) String() string { return fmt.Sprintf("[%s][%d]", s.Index, s.Shard) }

// OpRef is one operation a copy applied.
type OpRef struct {
	Seq int64
	Doc string
	// Term is the op's primary term: printed (7.x+), or the shard's term as
	// replay counted it when the line did not print one.
	Term int64
	// TermPrinted is set when the line printed the term (7.x+).
	TermPrinted bool
	// Estimated is set when the seq# was not printed (a 6.x primary logs
	// seq# -2 before assigning) and replay took the copy's next one.
	Estimated bool
	// Isolated is set when the op was applied on a node cut off from every
	// other copy by a network disruption: it cannot have been replicated.
	// IsolatedBy is then the disruption's line (the Disruption's own At:
	// a window holds many ops, and few are isolated, so an op keeps a
	// pointer, not the line).
	Isolated   bool
	IsolatedBy *Ref
	Time       time.Time
	At         Ref
}

func (o OpRef) String() string {
	s := fmt.Sprintf("#%d", o.Seq)
	if o.Estimated {
		s = fmt.Sprintf("#%d?", o.Seq)
	}
	return fmt.Sprintf("%s doc %s term %d", s, o.Doc, o.Term)
}

// CommitRef is an index commit a copy is known to hold.
type CommitRef struct {
	Commit esval.Commit
	At     Ref
	// ShouldDelete is set when a recovery started from an older commit
	// while this one existed: since 6.2 the engine keeps only the starting
	// commit, so this one must not be used again.
	ShouldDelete   bool
	ShouldDeleteAt Ref
	Deleted        bool
	DeletedAt      Ref
}

// Recovery is one peer recovery of a copy.
type Recovery struct {
	Source string
	// Kind is "ops" (sequence-number based), "file" (phase1 copied files)
	// or "" while unknown.
	Kind    string
	Start   int64
	ReqFrom int64
	ReqTo   int64
	// Safe is the commit the target started from, when logged.
	Safe   *esval.Commit
	SafeAt Ref
	// Replay is set when the source said (7.4+) that the files are
	// followed by the history from Start, the safe commit's lcp + 1: the
	// target then needs every op from there, as an ops-based one does.
	Replay bool
	// GCP is the persisted global checkpoint the target started with.
	GCP       int64
	Started   Ref
	Phase2    Ref
	Done      bool
	DoneAt    Ref
	Finalized bool
	// Received are the seq#s the target applied since phase2 began.
	Received map[int64]Ref
	// Retained is what the source said of the history it kept for an
	// ops-based recovery, or nil when no line said.
	Retained *RetainedHistory
	// Lost are ops of the primary's history this recovery left out.
	Lost []LostOp
	// UnsafeAt is the line that showed the recovery started from a commit
	// it must not use (a safe commit that was not, a commit it should have
	// deleted, an ops-based start above abandoned ops); Line 0 until one did.
	UnsafeAt Ref
	// RangeChecked is set once the recovery ended with its required range
	// known and its target's ops traced, so that the range was checked.
	RangeChecked bool
}

// MaxRange bounds the required range a recovery is checked over, so one
// absurd line cannot make a run slow.
const MaxRange = 100_000

// RetainedHistory is the source's check that it still holds the ops an
// ops-based recovery needs: 6.x `testing sequence numbers in range: [S,
// L]` (its translog must hold every op from S to its local checkpoint L),
// 7.4+ `history is retained by RetentionLease{id='..',
// retainingSequenceNumber=N, timestamp=T, ..}` (the target's lease keeps
// the history from #N on, and N is at most the requested start) or `..
// by retention lock` (its history from the requested start on is complete
// and kept while the recovery runs). An ops-based start after the check
// means the check passed (Covered); a file-based one after it, that it
// failed.
type RetainedHistory struct {
	// From and To are the range tested (6.x); To is Unknown on 7.x. From
	// is a lease's retaining seq#, and for the retention lock Unknown
	// until the ops-based start names it.
	From, To int64
	// By is "translog" (6.x), "lease" or "retention lock" (7.x+).
	By string
	// Lease is the lease's id, where the line printed it.
	Lease string
	At    Ref
	// Decided is set once the recovery's kind showed the outcome;
	// FileBased once it was a file-based one.
	Decided, Covered, FileBased bool
	DecidedAt                   Ref
}

// LostOp is a doc a recovery left out of the target: its seq# sits in the
// target's starting commit, which holds another (stale) op there.
type LostOp struct {
	Primary OpRef // the op of the live history
	Stale   OpRef // what the target's commit holds at that seq#
}

// Copy is one shard copy. Its identity (Key) is the node id of the node
// that holds it, where the logs map the node's name to one (a nodes: dump,
// an `added {...}` line, a routing row), else the name: Elasticsearch keeps
// the node id in its data path, so one id is one store, and a node
// restarted with an empty data path, or another cluster's node that shares
// the name, is another copy. A line that names an allocation id finds its
// copy by it. Node is the name, for display.
type Copy struct {
	Shard   ShardID
	Key     string
	Node    string
	NodeID  string
	AllocID string
	Primary bool
	// State is the routing state (STARTED, INITIALIZING, ...), "" until a
	// routing row names the copy.
	State     string
	RoutingAt Ref
	Version   int64
	InSync    bool
	Term      int64
	LCP       int64
	LCPAt     Ref
	// LCPByTracker is set when LCP is the primary's tracker view of this
	// copy ("updated local checkpoint of [aid]"), printed by another node.
	LCPByTracker bool
	GCP          int64
	GCPAt        Ref
	// GCPLive is set when GCP came from the copy's in-memory tracker (not
	// a persisted checkpoint file, which may lag); GCPTerm is the shard's
	// term then.
	GCPLive  bool
	GCPTerm  int64
	MaxSeqNo int64
	// Ops is the copy's history since its last reset (recovery, rollback).
	Ops Window
	// Stale are ops the copy applied under an older primary that the
	// cluster abandoned at a failover (written while isolated, or above the
	// gcp); its old commits may still hold them.
	Stale      []OpRef
	StaleSince Ref
	Commits    []*CommitRef
	Recoveries []*Recovery
	// Suspect is pending while the copy recovers with a persisted gcp that
	// lets a commit holding Stale ops qualify as safe.
	Suspect    *Suspect
	Translog   *esval.Checkpoint
	TranslogAt Ref
	// TranslogContext is how the last checkpoint was printed
	// ("open-uncommitted", "recovered" or "").
	//
	// (An index over Ops, so an op costs no walk over all of them: a 6.x
	// or 7.x primary logs seq# -2 for every op, and each index-done after
	// one used to scan the copy's whole history. It is a hint, checked
	// against Ops where used: estimated lists, by doc, the seq#s at which
	// replay put an estimated op, a superset of those still there,
	// estimates entries in all.)
	TranslogContext string
	estimated       map[string][]int64
	estimates       int
}

// Recovery returns the copy's latest recovery, or nil.
func (c *Copy) Recovery() *Recovery {
	if len(c.Recoveries) == 0 {
		return nil
	}
	return c.Recoveries[len(c.Recoveries)-1]
}

// endRecovery closes a recovery the logs never said was done.
func (c *Copy) endRecovery(at Ref) {
	if r := c.Recovery(); r != nil && !r.Done {
		r.Done, r.DoneAt = true, at
	}
}

// Recovering reports whether the copy is still being built: its lcp may
// legitimately trail the gcp.
func (c *Copy) Recovering() bool {
	if c.State == "INITIALIZING" {
		return true
	}
	r := c.Recovery()
	return r != nil && !r.Done && !r.Finalized
}

// Shard is one replication group of one incarnation of its index.
type Shard struct {
	ID ShardID
	// UUID is the index uuid a routing dump (`-- index [[name/uuid]]`) or
	// a delete line printed for this incarnation, "" until one did.
	UUID    string
	Version int64
	// Term is the primary term: printed, or counted from primary changes.
	Term        int64
	TermCounted bool
	Primary     string
	PrimaryAt   Ref
	// RelocatingTo is the node the primary is being relocated to, from a
	// RELOCATING primary row: handing the primary over to it is no
	// failover and starts no new term.
	RelocatingTo string
	// GCP is the highest global checkpoint any line showed for the shard.
	GCP int64
	// History is the live history: seq# -> op, as any copy applied it
	// under the current primary or before the last failover.
	History Window
	// Copies is keyed by Copy.Key and written by Copy and rekey only,
	// which also list them in byNode.
	Copies map[string]*Copy
	// Unassigned are the copies the latest routing table has on no node:
	// an availability fact (a red shard), kept for the printout.
	Unassigned []Unassigned
	// byNode lists Copies in the order they were created: a shard has a
	// handful of copies and their lines interleave, so a scan finds one
	// sooner than hashing its node name.
	byNode []*Copy
}

// Unassigned is one `node[null]` routing row.
type Unassigned struct {
	Primary bool
	Info    *esval.UnassignedInfo
	At      Ref
}

// Disruption is an active network partition.
type Disruption struct {
	Partitions [][]string
	Since      time.Time
	At         Ref
}

// State is the whole fold.
type State struct {
	names map[string]string // node id -> name
	// ids maps a node name to the id the latest node line gave it, and
	// srcIDs the same per source: two clusters' logs may use one name
	// for two nodes, and each log's own node lines say which it means.
	ids    map[string]string
	srcIDs map[string]map[string]string
	// idRef is the first line that gave a (name, id) pair: the earliest,
	// and of lines of one time, the least by source and line, so that the
	// order the sources were given in does not choose it.
	idRef map[[2]string]timedRef
	// NameReuses are the node names the logs mapped to more than one id.
	NameReuses []NameReuse
	// Shards holds the live incarnation of each index name's shards; it
	// is written by Shard and the incarnation changes only (lookups cache
	// its last answer). An index deleted and created again under its name
	// is another index: lines name an index by name, and the name means
	// the incarnation live when the line was printed.
	Shards map[ShardID]*Shard
	// uuids maps an index name to the uuid of its live incarnation, where
	// a line printed it; parked holds, by uuid, the shards of another
	// incarnation a routing dump named the name for (two clusters' logs
	// may each hold an index of one name).
	uuids  map[string]string
	parked map[string][]*Shard
	// Deleted are the shards of deleted incarnations, in the order the
	// delete lines came, with the line that deleted each.
	Deleted []DeletedShard
	// Lost are the docs recoveries left out, in the order found.
	Lost       []*LostDoc
	Disruption *Disruption
	last       *Shard
}

// DeletedShard is a shard of an index the master deleted.
type DeletedShard struct {
	Shard *Shard
	At    Ref
}

// New returns an empty state.
func New() *State {
	return &State{names: map[string]string{}, ids: map[string]string{}, srcIDs: map[string]map[string]string{},
		idRef: map[[2]string]timedRef{}, Shards: map[ShardID]*Shard{}, uuids: map[string]string{}, parked: map[string][]*Shard{}}
}

// NameReuse is one node name the logs gave two or more node ids: a node
// restarted with a new data path, or two clusters' nodes of one name.
// Their copies are kept apart.
type NameReuse struct {
	Name string
	// IDs are sorted: which id a merge of several logs met first depends
	// on the order the logs were given in when their lines tie in time.
	IDs []string
	// At holds, per id, the first line that gave the name that id.
	At []Ref
}

// timedRef is a line and its time.
type timedRef struct {
	Ref
	t time.Time
}

// before orders lines by time, then source, then line.
func (a timedRef) before(b timedRef) bool {
	if !a.t.Equal(b.t) {
		return a.t.Before(b.t)
	}
	if a.Source != b.Source {
		return a.Source < b.Source
	}
	return a.Line < b.Line
}

// CopyKey is the key of the copy a line of src means by node name: the
// id that src's own node lines gave the name, else the id the latest node
// line anywhere gave it, else the name itself.
func (s *State) CopyKey(src, name string) string {
	if name == "" {
		return ""
	}
	if m := s.srcIDs[src]; m != nil {
		if id, ok := m[name]; ok {
			return id
		}
	}
	if id, ok := s.ids[name]; ok {
		return id
	}
	return name
}

// ByName returns the copy of shard id on the node the latest node line
// anywhere gave name, or nil.
func (s *State) ByName(id ShardID, name string) *Copy { return s.Lookup(id, s.CopyKey("", name)) }

// LookupFor returns the copy of shard id that a line of e means by node
// name, or nil.
func (s *State) LookupFor(id ShardID, e parse.Event, name string) *Copy {
	return s.Lookup(id, s.CopyKey(e.Info().Pos.Source, name))
}

// learnNode records that a node line of src names id name. A copy held
// under the name before its id was known becomes the id's copy; a name
// already held by another id is a reuse, and its new copies are new.
func (s *State) learnNode(src, name, id string, at Ref, t time.Time) {
	if name == "" || id == "" {
		return
	}
	s.names[id] = name
	if old, ok := s.idRef[[2]string{name, id}]; !ok || (timedRef{at, t}).before(old) {
		s.idRef[[2]string{name, id}] = timedRef{at, t}
		s.refreshReuse(name, id, at)
	}
	if old, ok := s.ids[name]; ok && old != id {
		s.noteReuse(name, old, id)
	}
	s.ids[name] = id
	m := s.srcIDs[src]
	if m == nil {
		m = map[string]string{}
		s.srcIDs[src] = m
	}
	m[name] = id
	rekey := func(sh *Shard) {
		if c := sh.find(name); c != nil && c.NodeID == "" && sh.find(id) == nil {
			sh.rekey(c, id)
		}
	}
	for _, sid := range s.ShardIDs() {
		rekey(s.Shards[sid])
	}
	// A parked incarnation's copies are the same nodes' (map order does
	// not matter: each shard is rekeyed on its own).
	for _, shs := range s.parked {
		for _, sh := range shs {
			rekey(sh)
		}
	}
}

func (s *State) noteReuse(name, old, id string) {
	for i := range s.NameReuses {
		r := &s.NameReuses[i]
		if r.Name != name {
			continue
		}
		for _, x := range r.IDs {
			if x == id {
				return
			}
		}
		r.IDs = append(r.IDs, id)
		r.At = append(r.At, s.idRef[[2]string{name, id}].Ref)
		r.sort()
		return
	}
	r := NameReuse{Name: name, IDs: []string{old, id},
		At: []Ref{s.idRef[[2]string{name, old}].Ref, s.idRef[[2]string{name, id}].Ref}}
	r.sort()
	s.NameReuses = append(s.NameReuses, r)
	sort.Slice(s.NameReuses, func(i, j int) bool { return s.NameReuses[i].Name < s.NameReuses[j].Name })
}

// refreshReuse puts at as the line of (name, id) in a reuse that lists it.
func (s *State) refreshReuse(name, id string, at Ref) {
	for i := range s.NameReuses {
		r := &s.NameReuses[i]
		if r.Name != name {
			continue
		}
		for j, x := range r.IDs {
			if x == id {
				r.At[j] = at
			}
		}
	}
}

// sort orders the ids, their lines with them.
func (r *NameReuse) sort() {
	idx := make([]int, len(r.IDs))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return r.IDs[idx[a]] < r.IDs[idx[b]] })
	ids, at := make([]string, len(idx)), make([]Ref, len(idx))
	for i, j := range idx {
		ids[i], at[i] = r.IDs[j], r.At[j]
	}
	r.IDs, r.At = ids, at
}

// rekey moves c to key, the node id its name now maps to.
func (sh *Shard) rekey(c *Copy, key string) {
	delete(sh.Copies, c.Key)
	if sh.Primary == c.Key {
		sh.Primary = key
	}
	if sh.RelocatingTo == c.Key {
		sh.RelocatingTo = key
	}
	c.Key, c.NodeID = key, key
	sh.Copies[key] = c
}

// NodeName maps a node id to the name a nodes: dump gave it, or returns
// the id itself.
func (s *State) NodeName(id string) string {
	if n, ok := s.names[id]; ok {
		return n
	}
	return id
}

// Shard returns the shard, creating it.
func (s *State) Shard(id ShardID) *Shard {
	sh := s.Find(id)
	if sh == nil {
		// The names a shard and its copies keep for the whole run are
		// copied out of the line: a line's text shares its block with
		// its neighbours', which the name would otherwise keep alive.
		id.Index = strings.Clone(id.Index)
		sh = &Shard{ID: id, UUID: s.uuids[id.Index], Version: -1, Term: 1, GCP: Unknown, Copies: map[string]*Copy{}}
		s.Shards[id] = sh
		s.last = sh
	}
	return sh
}

// Find returns the shard without creating it, nil when no line named it.
// A log's lines mostly name the shard the line before named, so the last
// answer is kept.
func (s *State) Find(id ShardID) *Shard {
	if sh := s.last; sh != nil && sh.ID == id {
		return sh
	}
	sh := s.Shards[id]
	if sh != nil {
		s.last = sh
	}
	return sh
}

// Lookup returns a copy without creating it.
func (s *State) Lookup(id ShardID, node string) *Copy {
	if sh := s.Find(id); sh != nil {
		return sh.find(node)
	}
	return nil
}

// maxScan is the most copies find scans before it hashes instead.
const maxScan = 8

// find returns the copy with key without creating it.
func (sh *Shard) find(key string) *Copy {
	if len(sh.byNode) > maxScan {
		return sh.Copies[key]
	}
	for _, c := range sh.byNode {
		if c.Key == key {
			return c
		}
	}
	return nil
}

// Copy returns the copy with key, creating it with name for display.
func (sh *Shard) Copy(key, name string) *Copy {
	c := sh.find(key)
	if c == nil {
		key, name = strings.Clone(key), strings.Clone(name)
		c = &Copy{Shard: sh.ID, Key: key, Node: name, Version: -1, Term: Unknown, LCP: Unknown, GCP: Unknown, MaxSeqNo: Unknown}
		if key != name {
			c.NodeID = key
		}
		sh.Copies[key] = c
		sh.byNode = append(sh.byNode, c)
	}
	return c
}

// copyOf returns the copy a line of e means by node name, creating it.
func (s *State) copyOf(sh *Shard, e parse.Event, name string) *Copy {
	return sh.Copy(s.CopyKey(e.Info().Pos.Source, name), name)
}

// ByAlloc finds the copy with an allocation id: of several, the one on
// the first node in name order.
func (sh *Shard) ByAlloc(aid string) *Copy {
	var found *Copy
	for _, c := range sh.byNode {
		if c.AllocID == aid && (found == nil || c.Node < found.Node) {
			found = c
		}
	}
	return found
}

// nodes lists copy keys in order (by node name, then key), so nothing
// iterates a map unsorted.
func (sh *Shard) nodes() []string {
	out := make([]string, 0, len(sh.Copies))
	for n := range sh.Copies {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := sh.Copies[out[i]], sh.Copies[out[j]]
		if a.Node != b.Node {
			return a.Node < b.Node
		}
		return a.Key < b.Key
	})
	return out
}

// CopiesSorted lists the shard's copies by node.
func (sh *Shard) CopiesSorted() []*Copy {
	out := make([]*Copy, 0, len(sh.Copies))
	for _, n := range sh.nodes() {
		out = append(out, sh.Copies[n])
	}
	return out
}

// ShardIDs lists shards in order.
func (s *State) ShardIDs() []ShardID {
	out := make([]ShardID, 0, len(s.Shards))
	for id := range s.Shards {
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Index != out[j].Index {
			return out[i].Index < out[j].Index
		}
		return out[i].Shard < out[j].Shard
	})
	return out
}

// FindCommit returns the copy's known commit that is the same as c.
func (c *Copy) FindCommit(k esval.Commit) *CommitRef {
	for _, cr := range c.Commits {
		if cr.Commit.SameAs(k) {
			return cr
		}
	}
	return nil
}

// StaleAtOrBelow lists the copy's stale ops with seq# <= n, by seq#.
func (c *Copy) StaleAtOrBelow(n int64) []OpRef {
	var out []OpRef
	for _, o := range c.Stale {
		if o.Seq <= n {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

func (c *Copy) maxOp() int64 {
	if m, ok := c.Ops.Max(); ok {
		return m
	}
	return esval.NoOpsPerformed
}

// putOp puts o in Ops, keeping the index of estimates.
func (c *Copy) putOp(o OpRef) {
	c.Ops.Put(o)
	if o.Estimated {
		if c.estimated == nil {
			c.estimated = map[string][]int64{}
		}
		c.estimated[o.Doc] = append(c.estimated[o.Doc], o.Seq)
		c.estimates++
		if c.estimates > 2*c.Ops.Len()+1024 {
			// Most entries are stale: keep the index proportional to Ops.
			for doc := range c.estimated {
				c.estimatedOf(doc)
			}
		}
	}
}

// resetOps empties Ops.
func (c *Copy) resetOps() {
	c.Ops.Reset()
	c.estimated, c.estimates = nil, 0
}

// estimatedOf lists the seq#s where Ops holds an estimated op of doc,
// dropping the index's stale entries for doc.
func (c *Copy) estimatedOf(doc string) []int64 {
	qs := c.estimated[doc]
	if len(qs) == 0 {
		return nil
	}
	var live []int64
	for _, q := range qs {
		if o, ok := c.Ops.Get(q); ok && o.Estimated && o.Doc == doc && !slices.Contains(live, q) {
			live = append(live, q)
		}
	}
	c.estimates -= len(qs) - len(live)
	if len(live) == 0 {
		delete(c.estimated, doc)
	} else {
		c.estimated[doc] = live
	}
	return live
}

func (c *Copy) resetAbove(seq int64) { c.Ops.DeleteAbove(seq) }

// where resolves an event's shard; ok is false when the line named none.
func where(w es.Where) (ShardID, bool) {
	return ShardID{w.Index, w.Shard}, w.HasShard()
}

// Apply folds one event into the state. Events of other systems are
// ignored.
func (s *State) Apply(e parse.Event) {
	switch ev := e.(type) {
	case *es.NodeRow:
		s.learnNode(ev.Info().Pos.Source, ev.Node.Name, ev.Node.ID, RefOf(ev), ev.Info().Time)
	case *es.NodesAdded:
		for _, n := range ev.Nodes {
			s.learnNode(ev.Info().Pos.Source, n.Name, n.ID, RefOf(ev), ev.Info().Time)
		}
	case *es.IndexLife:
		if ev.Deleted {
			s.deleteIndex(ev.Index, ev.UUID, RefOf(ev))
		}
	case *es.RoutingRow:
		s.incarnation(ev.Routing.Index, ev.IndexUUID)
		s.routing(ev)
	case *es.Disruption:
		s.disruption(ev)
	case *es.Op:
		s.op(ev)
	case *es.TermReset:
		if id, ok := where(ev.Where); ok {
			sh := s.Shard(id)
			c := s.copyOf(sh, ev, ev.Node)
			c.resetAbove(ev.ToLCP)
			c.Term = ev.Term
			if ev.Term > sh.Term {
				sh.Term, sh.TermCounted = ev.Term, false
			}
			c.LCP, c.LCPAt, c.LCPByTracker = ev.ToLCP, RefOf(e), false
		}
	case *es.TranslogCheckpoint:
		if id, ok := where(ev.Where); ok {
			sh := s.Shard(id)
			c := s.copyOf(sh, ev, ev.Node)
			c.noteSuspect(ev)
			ck := ev.Checkpoint
			c.Translog, c.TranslogAt, c.TranslogContext = &ck, RefOf(e), ev.Context
			if !ck.Legacy && ck.GlobalCheckpoint >= esval.NoOpsPerformed {
				if r := c.Recovery(); r != nil && !r.Done {
					r.GCP = ck.GlobalCheckpoint
				}
				c.GCP, c.GCPAt, c.GCPLive = ck.GlobalCheckpoint, RefOf(e), false
				if ck.GlobalCheckpoint > sh.GCP {
					sh.GCP = ck.GlobalCheckpoint
				}
			}
		}
	case *es.RecoveryTarget:
		if id, ok := where(ev.Where); ok {
			sh := s.Shard(id)
			c := s.copyOf(sh, ev, ev.Node)
			switch ev.Step {
			case es.TargetFileBased:
				c.Suspect = nil
			case es.TargetSeqNo:
				s.opsStart(sh, c, RefOf(ev), ev.Start)
			case es.TargetDone:
				c.checkRange()
			}
			s.recoveryTarget(c, ev)
		}
	case *es.RecoverySource:
		if id, ok := where(ev.Where); ok {
			sh := s.Shard(id)
			c := s.copyOf(sh, ev, ev.Target)
			if ev.Target != "" {
				switch ev.Step {
				case es.StepPhase1Files:
					c.Suspect = nil
				case es.StepSeqNoStart:
					s.opsStart(sh, c, RefOf(ev), ev.Start)
				case es.StepPhase2Send:
					if r := c.Recovery(); r == nil || r.Kind != "file" {
						s.opsStart(sh, c, RefOf(ev), ev.Start)
					}
				case es.StepFinalize:
					c.checkRange()
				}
			}
			s.recoverySource(c, ev)
		}
	case *es.RecoveryCommits:
		if id, ok := where(ev.Where); ok {
			sh := s.Shard(id)
			c := s.copyOf(sh, ev, ev.Node)
			judged := s.judgeCommits(sh, c, ev)
			s.recoveryCommits(c, ev)
			if r := c.Recovery(); judged && r.UnsafeAt.Line == 0 {
				r.UnsafeAt = RefOf(ev)
			}
		}
	case *es.CommitPolicy:
		if id, ok := where(ev.Where); ok {
			c := s.copyOf(s.Shard(id), ev, ev.Node)
			c.judgePolicy(ev)
			switch ev.Action {
			case "delete":
				if cr := c.FindCommit(ev.Commit); cr != nil {
					cr.Deleted, cr.DeletedAt = true, RefOf(e)
				} else {
					c.Commits = append(c.Commits, &CommitRef{Commit: ev.Commit, At: RefOf(e), Deleted: true, DeletedAt: RefOf(e)})
				}
				c.forgetStale(ev.Commit)
			case "safe":
				for _, k := range []esval.Commit{ev.Commit, *ev.Last} {
					if c.FindCommit(k) == nil {
						c.Commits = append(c.Commits, &CommitRef{Commit: k, At: RefOf(e)})
					}
				}
			}
		}
	case *es.Tracker:
		s.tracker(ev)
	case *es.SeqNoStats:
		if id, ok := where(ev.Where); ok && ev.Stats != nil {
			c := s.copyOf(s.Shard(id), ev, ev.Node)
			c.LCP, c.LCPAt, c.LCPByTracker = ev.Stats.LocalCheckpoint, RefOf(e), false
			c.GCP, c.GCPAt = ev.Stats.GlobalCheckpoint, RefOf(e)
			c.MaxSeqNo = ev.Stats.MaxSeqNo
		}
	case *es.SeqNoStatsMismatch:
		sh := s.Shard(ShardID{ev.Routing.Index, ev.Routing.Shard})
		c := sh.Copy(ev.Routing.Node, s.NodeName(ev.Routing.Node))
		if ev.Got != nil {
			c.LCP, c.LCPAt, c.LCPByTracker = ev.Got.LocalCheckpoint, RefOf(e), false
			c.GCP, c.GCPAt = ev.Got.GlobalCheckpoint, RefOf(e)
			c.MaxSeqNo = ev.Got.MaxSeqNo
		}
	}
}

func (sh *Shard) dropSuspects() {
	for _, c := range sh.byNode {
		c.Suspect = nil
	}
}

// shardsOf lists the live shards of index name, by shard number.
func (s *State) shardsOf(name string) []*Shard {
	var out []*Shard
	for _, id := range s.ShardIDs() {
		if id.Index == name {
			out = append(out, s.Shards[id])
		}
	}
	return out
}

// incarnation makes uuid the live incarnation of index name, as a routing
// dump printed it. Shards known before any uuid was printed are taken to
// be this incarnation; those of another uuid are parked, and the uuid's
// own parked shards come back: a seq#, checkpoint or commit of one
// incarnation never judges another.
func (s *State) incarnation(name, uuid string) {
	if uuid == "" || name == "" {
		return
	}
	cur, ok := s.uuids[name]
	if cur == uuid {
		return
	}
	live := s.shardsOf(name)
	if ok && cur != "" {
		for _, sh := range live {
			delete(s.Shards, sh.ID)
		}
		s.parked[cur] = live
		live = s.parked[uuid]
		delete(s.parked, uuid)
		for _, sh := range live {
			s.Shards[sh.ID] = sh
		}
	}
	for _, sh := range live {
		sh.UUID = uuid
	}
	s.uuids[name] = uuid
	s.last = nil
}

// deleteIndex ends an incarnation of index name: the live one when the
// line names its uuid, or names none, or the live one's is unknown; a
// parked one of that uuid otherwise. What the name means next is a new
// index, whose history starts empty.
func (s *State) deleteIndex(name, uuid string, at Ref) {
	// Nothing pending of the name's recoveries may judge the index
	// created next under it.
	for _, sh := range s.shardsOf(name) {
		sh.dropSuspects()
	}
	for _, shs := range s.parked {
		for _, sh := range shs {
			if sh.ID.Index == name {
				sh.dropSuspects()
			}
		}
	}
	cur := s.uuids[name]
	if uuid == "" || cur == "" || cur == uuid {
		for _, sh := range s.shardsOf(name) {
			if sh.UUID == "" {
				sh.UUID = uuid
			}
			delete(s.Shards, sh.ID)
			s.Deleted = append(s.Deleted, DeletedShard{Shard: sh, At: at})
		}
		delete(s.uuids, name)
		s.last = nil
		return
	}
	for _, sh := range s.parked[uuid] {
		s.Deleted = append(s.Deleted, DeletedShard{Shard: sh, At: at})
	}
	delete(s.parked, uuid)
}

func (s *State) routing(ev *es.RoutingRow) {
	r := ev.Routing
	sh := s.Shard(ShardID{r.Index, r.Shard})
	if ev.Version >= 0 && ev.Version > sh.Version {
		// A newer table replaces the older one: a copy it does not list
		// is gone (its store may remain on the node).
		sh.Version = ev.Version
		sh.Unassigned = nil
		for _, c := range sh.Copies {
			if c.Version >= 0 && c.Version < ev.Version {
				c.State, c.InSync = "", false
			}
		}
	}
	if r.Node == "" {
		if ev.Section != "routing_nodes" {
			sh.Unassigned = append(sh.Unassigned, Unassigned{Primary: r.Primary, Info: r.Unassigned, At: RefOf(ev)})
		}
		return
	}
	node := r.Node
	c := sh.Copy(node, s.NodeName(r.Node))
	c.Node = s.NodeName(r.Node)
	if c.AllocID != "" && r.AllocationID != "" && c.AllocID != r.AllocationID {
		// A new allocation rebuilds the copy from a recovery: its live
		// history restarts (what is on disk is tracked as Stale), and a
		// recovery of the old allocation is over whatever its logs said.
		c.resetOps()
		c.InSync, c.GCPLive = false, false
		c.endRecovery(RefOf(ev))
	}
	if r.State == "STARTED" {
		c.endRecovery(RefOf(ev))
	}
	c.NodeID, c.AllocID, c.State, c.Version = r.Node, r.AllocationID, r.State, ev.Version
	c.RoutingAt = RefOf(ev)
	c.Primary = r.Primary
	if c.Term < sh.Term {
		c.Term = sh.Term
	}
	c.InSync = r.State == "STARTED" || r.State == "RELOCATING"
	if r.Primary && r.State == "RELOCATING" && r.Relocating != "" && node == sh.Primary {
		sh.RelocatingTo = r.Relocating
	}
	if r.Primary && r.State != "UNASSIGNED" && r.State != "INITIALIZING" {
		s.promote(sh, node, RefOf(ev))
	}
}

// promote records node as the primary. A change of primary is a failover:
// the term goes up, and ops the old primary applied that cannot be in the
// new primary's history become stale on the old primary's copy.
func (s *State) promote(sh *Shard, node string, at Ref) {
	if sh.Primary == node {
		return
	}
	old := sh.Primary
	sh.Primary, sh.PrimaryAt = node, at
	handoff := sh.RelocatingTo != "" && sh.RelocatingTo == node
	sh.RelocatingTo = ""
	if old == "" {
		return
	}
	if handoff {
		// A relocation hands the primary over in the same term, with
		// the whole history: nothing becomes stale.
		for _, n := range sh.nodes() {
			if n != node {
				sh.Copies[n].Primary = false
			}
		}
		return
	}
	sh.Term++
	sh.TermCounted = true
	for _, n := range sh.nodes() {
		if n != node {
			sh.Copies[n].Primary = false
		}
	}
	if oc := sh.Copies[old]; oc != nil {
		for o := range oc.Ops.All() {
			if o.Isolated || (sh.GCP != Unknown && o.Seq > sh.GCP) {
				oc.Stale = append(oc.Stale, o)
				if h, ok := sh.History.Get(o.Seq); ok && h.At == o.At {
					sh.History.Delete(o.Seq)
				}
			}
		}
		if len(oc.Stale) > 0 {
			oc.StaleSince = at
		}
	}
	if nc := sh.Copies[node]; nc != nil {
		nc.Primary = true
	}
	for _, c := range sh.Copies {
		if c.State != "" && c.Term < sh.Term {
			c.Term = sh.Term
		}
	}
}

func (s *State) disruption(ev *es.Disruption) {
	if !ev.Start {
		s.Disruption = nil
		return
	}
	s.Disruption = &Disruption{Partitions: ev.Partitions, Since: ev.Info().Time, At: RefOf(ev)}
	// Lines of one source are in line order, not time order: ops logged
	// just above the disruption line may have happened after it.
	for _, id := range s.ShardIDs() {
		sh := s.Shards[id]
		for _, c := range sh.CopiesSorted() {
			if !s.isolated(sh, c) {
				continue
			}
			for o := range c.Ops.All() {
				if !o.Time.IsZero() && !o.Time.Before(s.Disruption.Since) {
					o.Isolated, o.IsolatedBy = true, &s.Disruption.At
					c.Ops.Put(o)
				}
			}
		}
	}
}

// isolated reports whether c's node is partitioned from every other node
// that holds (or may hold) a copy of sh. Partitions name nodes by name.
func (s *State) isolated(sh *Shard, c *Copy) bool {
	node := c.Node
	d := s.Disruption
	if d == nil {
		return false
	}
	side := -1
	for i, p := range d.Partitions {
		for _, n := range p {
			if n == node {
				side = i
			}
		}
	}
	if side < 0 || len(d.Partitions) < 2 {
		return false
	}
	others := 0
	for _, n := range sh.nodes() {
		o := sh.Copies[n]
		if o == c || o.Node == node {
			continue
		}
		others++
		for _, m := range d.Partitions[side] {
			if m == o.Node {
				return false
			}
		}
	}
	if others == 0 {
		// No other copy known: cut off from the other partitions' nodes.
		return len(d.Partitions[side]) == 1
	}
	return true
}

func (s *State) op(ev *es.Op) {
	id, ok := where(ev.Where)
	if !ok || ev.Node == "" {
		return
	}
	sh := s.Shard(id)
	c := s.copyOf(sh, ev, ev.Node)
	if ev.AllocationID != "" && c.AllocID != ev.AllocationID {
		// The allocation id names the copy where the line prints it.
		if a := sh.ByAlloc(ev.AllocationID); a != nil {
			c = a
		}
	}
	if c.AllocID != "" && ev.AllocationID != "" && c.AllocID != ev.AllocationID {
		// An op under another allocation id: the copy was rebuilt (or the
		// index deleted and created again under the same name) without a
		// routing dump in the logs. Its history restarts, as routing()
		// does for a new allocation.
		c.resetOps()
		c.InSync, c.GCPLive = false, false
		c.endRecovery(RefOf(ev))
		c.AllocID = strings.Clone(ev.AllocationID)
	}
	if c.AllocID == "" {
		c.AllocID = strings.Clone(ev.AllocationID)
	}
	if ev.Done && ev.SeqNo < 0 {
		return
	}
	primary := ev.SeqNo == esval.Unassigned || ev.Origin == "PRIMARY"
	if primary && c.Recovering() {
		primary = false
	}
	if primary {
		s.promote(sh, c.Key, RefOf(ev))
	}
	o := OpRef{Seq: ev.SeqNo, Doc: ev.DocID, Term: ev.Term, TermPrinted: ev.Term >= 0, Time: ev.Info().Time, At: RefOf(ev)}
	if o.Term < 0 {
		o.Term = sh.Term
	}
	if o.Seq == esval.Unassigned {
		next := c.maxOp()
		if c.MaxSeqNo > next {
			next = c.MaxSeqNo
		}
		o.Seq, o.Estimated = next+1, true
	}
	if o.Seq < 0 {
		return
	}
	if s.isolated(sh, c) {
		o.Isolated, o.IsolatedBy = true, &s.Disruption.At
	}
	if ev.Done {
		// index-done confirms the op its index line announced; on a
		// primary that line had no seq# yet, so drop the estimate.
		if prev, ok := c.Ops.Get(o.Seq); ok && prev.Doc == o.Doc && !prev.Estimated {
			return
		}
		if qs := c.estimatedOf(o.Doc); len(qs) > 0 {
			for _, q := range qs {
				prev, _ := c.Ops.Get(q)
				c.Ops.Delete(q)
				if h, ok := sh.History.Get(q); ok && h.At == prev.At {
					sh.History.Delete(q)
				}
			}
			// None is left: the index keeps only docs awaiting their
			// index-done, so it stays small.
			c.estimates -= len(qs)
			delete(c.estimated, o.Doc)
		}
	}
	c.putOp(o)
	if o.TermPrinted && o.Term > c.Term {
		c.Term = o.Term
	}
	if o.TermPrinted && o.Term > sh.Term {
		// An op of term N means a primary of term N: a log that
		// printed no primary change still says the shard's term.
		sh.Term, sh.TermCounted = o.Term, false
	}
	if o.Seq > c.MaxSeqNo {
		c.MaxSeqNo = o.Seq
	}
	if r := c.Recovery(); r != nil && !r.Done && r.Received != nil && len(r.Received) < MaxOps {
		r.Received[o.Seq] = o.At
	}
	// A printed seq# beats an estimate; an estimate never replaces one.
	if !o.Isolated {
		if !o.Estimated {
			sh.History.Put(o)
		} else if h, ok := sh.History.Get(o.Seq); !ok || h.Estimated {
			sh.History.Put(o)
		}
	}
}

// forgetStale drops stale ops a deleted commit was the last holder of.
func (c *Copy) forgetStale(k esval.Commit) {
	for _, cr := range c.Commits {
		if !cr.Deleted && cr.Commit.MaxSeqNo >= 0 && len(c.Stale) > 0 && cr.Commit.LocalCheckpoint > k.LocalCheckpoint {
			return
		}
	}
	var keep []OpRef
	for _, o := range c.Stale {
		if o.Seq > k.MaxSeqNo {
			keep = append(keep, o)
		}
	}
	c.Stale = keep
}

// checkRange marks, when a recovery ends, that its required range is
// checked: once, and only with the range known and the target's ops
// traced (without TRACE lines absence proves nothing).
func (c *Copy) checkRange() {
	r := c.Recovery()
	if r == nil || r.Phase2.Line == 0 || len(r.Received) == 0 || r.ReqFrom < 0 || r.ReqTo < r.ReqFrom || r.ReqTo-r.ReqFrom > MaxRange {
		return
	}
	r.RangeChecked = true
}

// startRecovery returns the copy's recovery in progress, or begins one.
// fresh forces a new one (the target's first line of a recovery).
func (s *State) startRecovery(c *Copy, src string, at Ref, fresh bool) *Recovery {
	if r := c.Recovery(); !fresh && r != nil && !r.Done && !r.Finalized && (r.Source == "" || src == "" || r.Source == src) {
		if r.Source == "" {
			r.Source = src
		}
		return r
	}
	r := &Recovery{Source: src, Start: Unknown, ReqFrom: Unknown, ReqTo: Unknown, GCP: Unknown, Started: at}
	if c.Translog != nil && !c.Translog.Legacy {
		r.GCP = c.Translog.GlobalCheckpoint
	}
	c.Recoveries = append(c.Recoveries, r)
	return r
}

func (s *State) recoveryTarget(c *Copy, ev *es.RecoveryTarget) {
	switch ev.Step {
	case es.TargetDone:
		if r := c.Recovery(); r != nil {
			r.Done, r.DoneAt = true, RefOf(ev)
		}
		return
	}
	r := s.startRecovery(c, ev.Source, RefOf(ev), ev.Step == es.TargetPreparing)
	switch ev.Step {
	case es.TargetFileBased:
		r.Kind = "file"
	case es.TargetSeqNo:
		r.Kind, r.Start = "ops", ev.Start
	}
}

func (s *State) recoverySource(c *Copy, ev *es.RecoverySource) {
	var r *Recovery
	switch ev.Step {
	case es.StepSeqNoRange, es.StepHistoryRetained, es.StepSeqNoStart, es.StepFileBasedStart, es.StepPhase1Files, es.StepSkipPhase1, es.StepPhase2Send, es.StepEndSeqNo:
		r = s.startRecovery(c, ev.Node, RefOf(ev), false)
	default:
		// Later steps belong to the recovery they follow, if any.
		if r = c.Recovery(); r == nil || r.Done {
			return
		}
	}
	switch ev.Step {
	case es.StepSeqNoRange:
		r.Retained = &RetainedHistory{From: ev.Start, To: ev.End, By: "translog", At: RefOf(ev)}
	case es.StepHistoryRetained:
		by := ev.RetainedBy
		if by == "" {
			by = "lease"
		}
		h := &RetainedHistory{From: Unknown, To: Unknown, By: by, Lease: ev.LeaseID, At: RefOf(ev)}
		if by == "lease" && ev.Start >= 0 {
			// The lease keeps the history from its retaining seq#,
			// which ES required to be at most the requested start.
			h.From = ev.Start
		}
		r.Retained = h
	case es.StepSeqNoStart:
		if r.Kind == "" {
			r.Kind = "ops"
		}
		r.Start = ev.Start
		if h := r.Retained; h != nil && !h.Decided {
			h.Decided, h.Covered, h.DecidedAt = true, true, RefOf(ev)
			if h.From == Unknown {
				h.From = ev.Start
			}
		}
	case es.StepFileBasedStart:
		// 7.4+ says the choice itself: files, then the history from
		// the safe commit's local checkpoint + 1, which the retention
		// lock (taken before the safe commit) keeps for the recovery.
		if h := r.Retained; h != nil && !h.Decided {
			h.Decided, h.Covered, h.DecidedAt, h.FileBased = true, h.By == "retention lock", RefOf(ev), true
			if h.Covered {
				h.From = ev.Start
			}
		}
		r.Kind, r.Start, r.Replay = "file", ev.Start, true
	case es.StepPhase1Files:
		if h := r.Retained; h != nil && !h.Decided {
			h.Decided, h.Covered, h.DecidedAt = true, false, RefOf(ev)
		}
		r.Kind = "file"
		// Files replace the target's store: no old commit survives.
		c.Stale = nil
		for _, cr := range c.Commits {
			if !cr.Deleted {
				cr.Deleted, cr.DeletedAt = true, RefOf(ev)
			}
		}
		c.resetOps()
	case es.StepPhase2Send:
		if r.Kind == "" {
			r.Kind = "ops"
		}
		r.Start, r.ReqFrom, r.ReqTo, r.Phase2 = ev.Start, ev.ReqFrom, ev.ReqTo, RefOf(ev)
		if ev.ReqFrom < 0 {
			// 7.x+ prints no required range; an ops-based recovery
			// requires everything it sends, and so does a file-based
			// one whose history replay starts where the source said
			// (7.4+); another file-based one an unknown tail of it.
			r.ReqFrom, r.ReqTo = Unknown, Unknown
			if r.Kind == "ops" || (r.Replay && ev.Start == r.Start) {
				r.ReqFrom, r.ReqTo = ev.Start, ev.End
			}
		}
		if r.Kind == "ops" {
			c.resetAbove(ev.Start - 1)
		}
		r.Received = map[int64]Ref{}
	case es.StepFinalize:
		r.Finalized = true
	}
}

func (s *State) recoveryCommits(c *Copy, ev *es.RecoveryCommits) {
	r := s.startRecovery(c, "", RefOf(ev), false)
	safe := ev.Safe
	r.Safe, r.SafeAt, r.GCP = &safe, RefOf(ev), ev.GCP
	for _, k := range ev.Commits {
		if c.FindCommit(k) == nil {
			c.Commits = append(c.Commits, &CommitRef{Commit: k, At: RefOf(ev)})
		}
	}
	// Commits newer than the starting one must go (CombinedDeletionPolicy
	// onInit since 6.2): remember them, a later recovery must not use one.
	for _, k := range ev.Commits {
		if k.SameAs(safe) || k.TranslogUUID != safe.TranslogUUID {
			continue
		}
		if k.MaxSeqNo > safe.MaxSeqNo {
			cr := c.FindCommit(k)
			if !cr.ShouldDelete {
				cr.ShouldDelete, cr.ShouldDeleteAt = true, RefOf(ev)
			}
		}
	}
}

func (s *State) tracker(ev *es.Tracker) {
	id, ok := where(ev.Where)
	if !ok {
		return
	}
	sh := s.Shard(id)
	switch ev.What {
	case es.TrackLCP:
		if c := sh.ByAlloc(ev.AllocationID); c != nil {
			c.LCP, c.LCPAt, c.LCPByTracker = ev.To, RefOf(ev), c.Node != ev.Node
		}
	case es.TrackInSync:
		if c := sh.ByAlloc(ev.AllocationID); c != nil {
			c.InSync = true
		}
	case es.TrackPrimaryGCP, es.TrackReplicaGCP:
		c := s.copyOf(sh, ev, ev.Node)
		c.GCP, c.GCPAt, c.GCPLive, c.GCPTerm = ev.To, RefOf(ev), true, sh.Term
		if ev.To > sh.GCP {
			sh.GCP = ev.To
		}
	}
}

// EffectiveLCP is the last printed local checkpoint extended over the ops
// the copy applied since without a gap: lcp lines are not printed for every
// op, and a stale value must not make a later gcp look too high.
func (c *Copy) EffectiveLCP() int64 {
	l := c.LCP
	if l == Unknown {
		return Unknown
	}
	for range c.Ops.Len() {
		if !c.Ops.Has(l + 1) {
			break
		}
		l++
	}
	return l
}
