package yb

import (
	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse"
)

// Base is what every YugabyteDB event carries besides parse.Meta.
type Base struct {
	parse.Meta
	Replica
	// Sev is the glog severity letter (I, W, E, F), or 0 when the excerpt
	// lost it.
	Sev byte
	// Where is the source file:line the log printed (`mvcc.cc:395`).
	Where string
}

// Rep returns the replica the event speaks for.
func (b *Base) Rep() *Replica { return &b.Replica }

// Event is any YugabyteDB event.
type Event interface {
	parse.Event
	Rep() *Replica
}

// ItemKind is the kind of an MVCC trace entry (mvcc.cc's op trace).
type ItemKind string

// The kinds mvcc.cc has printed, current and older.
const (
	SetLeaderOnlyMode                ItemKind = "SetLeaderOnlyMode"
	SetLastReplicated                ItemKind = "SetLastReplicated"
	SetPropagatedSafeTimeOnFollower  ItemKind = "SetPropagatedSafeTimeOnFollower"
	UpdatePropagatedSafeTimeOnLeader ItemKind = "UpdatePropagatedSafeTimeOnLeader"
	AddLeaderPending                 ItemKind = "AddLeaderPending"
	AddFollowerPending               ItemKind = "AddFollowerPending"
	AddPending                       ItemKind = "AddPending" // before 2021: provided_ht, final_ht
	Replicated                       ItemKind = "Replicated"
	Aborted                          ItemKind = "Aborted"
	SafeTime                         ItemKind = "SafeTime"
	SafeTimeForFollower              ItemKind = "SafeTimeForFollower"
	LastReplicatedHybridTime         ItemKind = "LastReplicatedHybridTime"
)

// HTLease is a FixedHybridTimeLease: the time it was taken at and the
// lease expiry. Older builds printed only the expiry (Bare).
type HTLease struct {
	Time  ybval.HybridTime
	Lease ybval.HybridTime
	Bare  bool
}

// Item is one entry of an MVCC trace.
type Item struct {
	// No is the entry number the dump printed; it may exceed the dump's
	// declared size and may skip.
	No   int
	Line int
	Text string
	Kind ItemKind

	// HT is the entry's main hybrid time: ht, final_ht or last_replicated.
	HT       ybval.HybridTime
	Provided ybval.HybridTime // AddPending provided_ht
	Op       ybval.OpID
	HasOp    bool

	Lease    HTLease
	HasLease bool

	SafeTime   ybval.HybridTime
	MinAllowed ybval.HybridTime
	Deadline   ybval.Deadline
	Source     ybval.SafeTimeSource
	LeaderOnly bool
}

// MvccDump is a `Recent N MVCC operations:` dump with all its entries, or a
// run of entries printed one per glog line, or entries pasted without their
// header.
type MvccDump struct {
	Base
	// Declared is the N of the header, or -1 when there was none.
	Declared int
	Items    []Item
	// Cut is set when the dump ended inside an entry.
	Cut bool
	// Part numbers the events a long dump is read in: a dump is handed on
	// DumpWindow entries at a time, so it is folded as it is read and
	// never held whole. Part 0 is the first (the only one, for a dump of
	// fewer entries); every part carries the header's position and time.
	Part int
}

// DumpWindow is the most entries one MvccDump event holds.
const DumpWindow = 4096

func (*MvccDump) Kind() string { return "yb.mvcc-dump" }

// Weight is the entries the event holds, so a stream hands on few of
// them at a time.
func (d *MvccDump) Weight() int { return len(d.Items) }

// Bound is one bound of a `hybrid time too low` detail block: the value
// the new op's hybrid time was compared with, whether mvcc.cc marked it
// violated, and the differences it printed.
type Bound struct {
	// Name is the MvccManager field: max_safe_time_returned_with_lease_,
	// max_safe_time_returned_without_lease_,
	// max_safe_time_returned_for_follower_, last_replicated_,
	// last_ht_in_queue or propagated_safe_time_.
	Name   string
	Line   int
	Text   string
	Value  ybval.HybridTime
	Source ybval.SafeTimeSource
	// Violated is mvcc.cc's own verdict (`!!! ht <= X=1`, `*ht < X=1`);
	// Judged is false when the excerpt lost that line.
	Violated bool
	Judged   bool
	// VerdictLine and VerdictText are the `ht <= X=1` line.
	VerdictLine int
	VerdictText string
	// PhysDiff is `ht.PhysicalDiff(X)` in microseconds; HasDiff false when
	// not printed.
	PhysDiff int64
	HasDiff  bool
}

// QueueEntry is one pending op in `queue_=[...]`.
type QueueEntry struct {
	HT    ybval.HybridTime
	Op    ybval.OpID
	HasOp bool
}

// HTTooLow is MvccManager's `New operation's hybrid time too low` block
// (FATAL), or its release-build twin `Assigning an artificially
// incremented hybrid time` (ERROR, the op was given a higher time).
type HTTooLow struct {
	Base
	HT         ybval.HybridTime
	Op         ybval.OpID
	HasOp      bool
	Bounds     []Bound
	Queue      []QueueEntry
	HasQueue   bool
	Artificial bool
	// Assigned is the time a release build gave the op instead (the
	// bound, incremented), when Artificial; Unread if it did not read.
	Assigned ybval.HybridTime
	// Follower is set when the block printed is_follower_side=1.
	Follower bool
}

func (*HTTooLow) Kind() string { return "yb.ht-too-low" }

// Bound returns the bound named name, or nil.
func (e *HTTooLow) Bound(name string) *Bound {
	for i := range e.Bounds {
		if e.Bounds[i].Name == name {
			return &e.Bounds[i]
		}
	}
	return nil
}

// CheckFailed is a `Check failed: EXPR (A vs. B)` from mvcc.cc.
type CheckFailed struct {
	Base
	Expr string
	// Left and Right are A and B when both read as hybrid times
	// (HasValues), or the hybrid times of the QueueItems `{ hybrid_time:
	// H op_id: T.I }` the queue checks compare (HasOps, with LeftOp and
	// RightOp their op ids). A number out of range is kept unread
	// (ybval.Unread, ybval.UnreadOpID), never 0.
	Left, Right     ybval.HybridTime
	HasValues       bool
	LeftOp, RightOp ybval.OpID
	HasOps          bool
	// Extra holds the `name=value` pairs some checks print after the
	// prefix, in order.
	Extra []KV
	Queue []QueueEntry
}

func (*CheckFailed) Kind() string { return "yb.check-failed" }

// KV is one printed `name=value`.
type KV struct{ Key, Value string }

// OpSequence is `Op sequence failure: A followed by B`: op ids added out of
// order.
type OpSequence struct {
	Base
	Prev, Next ybval.OpID
}

func (*OpSequence) Kind() string { return "yb.op-sequence-failure" }

// FollowerSafeTimeBack is the follower's `Received propagated safe time A
// less than the old value: B` warning; the follower keeps B.
type FollowerSafeTimeBack struct {
	Base
	New, Old ybval.HybridTime
}

func (*FollowerSafeTimeBack) Kind() string { return "yb.follower-safe-time-back" }

// LeaderSafeTimeBack is the leader's `Previously saw
// propagated_safe_time_=A, but now safe time is B`.
type LeaderSafeTimeBack struct {
	Base
	Propagated, Safe ybval.HybridTime
}

func (*LeaderSafeTimeBack) Kind() string { return "yb.leader-safe-time-back" }

// MvccFatal is any other mvcc.cc assertion (`Bad ht lease`, an Aborted
// that is not the last op, ...), kept so no reported break is lost.
type MvccFatal struct {
	Base
	Message string
}

func (*MvccFatal) Kind() string { return "yb.mvcc-fatal" }

// RoleChange is a Raft term or role transition a peer logged.
type RoleChange struct {
	Base
	What RoleWhat
	// Term is the term the change concerns: the new term for AdvanceTerm,
	// the term stepped down from for StepDown.
	Term    int64
	NewTerm int64
	// NewRole is LEADER or FOLLOWER after the change, when known.
	NewRole string
}

// RoleWhat names a Raft transition.
type RoleWhat string

// The transitions read so far.
const (
	AdvanceTerm    RoleWhat = "advance-term"
	StepDown       RoleWhat = "step-down"
	BecomeLeader   RoleWhat = "become-leader"
	BecomeFollower RoleWhat = "become-follower"
	MasterRole     RoleWhat = "master-role"
)

func (*RoleChange) Kind() string { return "yb.role-change" }

// Subject returns the tablet and peer the event speaks for.
func (b *Base) Subject() (tablet, peer string) { return b.Tablet, b.Peer }
