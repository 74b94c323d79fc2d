package yb

import "github.com/logsleuth/logsleuth/grammar/ybval"

// The Raft and leader-lease events. Each is one glog line of
// raft_consensus.cc, replica_state.cc, leader_election.cc or consensus.cc
// (formats/yb.md §5). Term and role changes are RoleChange (events.go).

// ElectionStart is a peer starting, or being told to start, a leader
// election: `Triggering leader [pre-]election, mode=M` (optionally after
// `Fail [or stepdown] of leader X detected.`), `ReportFailDetected:
// Starting NORMAL_ELECTION...` and `Starting [pre-]election with config`.
// One attempt often logs two or three of these lines; replay counts an
// attempt once.
type ElectionStart struct {
	Base
	Pre bool
	// PreKnown is false where the line does not say (ReportFailDetected).
	PreKnown bool
	Mode     string
	// FailedLeader is the leader whose failure the detector reported, or "".
	FailedLeader string
}

func (*ElectionStart) Kind() string { return "yb.election-start" }

// ElectionResult is `Leader [pre-]election won|lost for term N` or `Leader
// ... decision for defunct term N: won|lost`. Only a real (not pre-)
// election won makes a leader.
type ElectionResult struct {
	Base
	Pre     bool
	Won     bool
	Defunct bool
	Term    int64
	Reason  string
}

func (*ElectionResult) Kind() string { return "yb.election-result" }

// Vote is a peer's answer to a vote request. A real vote binds the voter
// for the term (it is persisted); a pre-vote does not, so granting
// pre-votes to several candidates is normal.
type Vote struct {
	Base
	Pre       bool
	Granted   bool
	Candidate string
	Term      int64
	// Reason is the denial's `because ...` text, or "".
	Reason string
	// VotedFor is the candidate an `Already voted for candidate X in this
	// term` denial names, or "".
	VotedFor string
}

func (*Vote) Kind() string { return "yb.vote" }

// NoOp is a new leader's `Sending NO_OP at op T.I`: the first entry of its
// term, so a leader claim with an op id.
type NoOp struct {
	Base
	Op ybval.OpID
}

func (*NoOp) Kind() string { return "yb.noop" }

// TransferWhat names a step of a leadership transfer.
type TransferWhat string

// The leadership-transfer lines read.
const (
	TransferStart    TransferWhat = "transfer"               // Transferring leadership to X
	TransferProtege  TransferWhat = "protege"                // Selected up to date candidate protege leader [X]
	TransferUnsynced TransferWhat = "unsynchronized-protege" // Step down in favor on not synchronized protege: X
	TransferSynced   TransferWhat = "protege-synchronized"   // Protege synchronized: ...
	// TransferDelayed is a leader putting off a step-down it was asked
	// for until its protege catches up: it leads on meanwhile.
	TransferDelayed TransferWhat = "delayed-step-down" // Delay step down: { term: N protege: X graceful: B }
)

// Transfer is a leadership hand-over step: the leader naming its
// successor.
type Transfer struct {
	Base
	What TransferWhat
	// To is the intended new leader, or "".
	To string
}

func (*Transfer) Kind() string { return "yb.leader-transfer" }

// LeaseRevoked is replica_state.cc's `Revoked old leader X lease: D` (the
// lease time D still left on this peer's monotonic clock, negative when
// already over) or `Revoked old leader X ht lease: HT` (the hybrid-time
// lease expiry cleared). The revoking peer stops waiting for X's lease:
// from here on it serves reads and writes as if no earlier lease ran.
type LeaseRevoked struct {
	Base
	Holder string
	HT     bool
	// Remaining is D for a lease (HT false).
	Remaining ybval.Deadline
	// Expiry is the cleared expiry for an ht lease (HT true).
	Expiry ybval.HybridTime
}

func (*LeaseRevoked) Kind() string { return "yb.lease-revoked" }

// LeaseReset is `Reset our lease: D` or `Reset our ht lease: HT`: a former
// leader drops the lease it held (D = now minus its expiry, so negative
// while it still ran), because it heard from a newer leader or it ran out.
// The ht form is the holder's own word for how far its ht lease reached.
type LeaseReset struct {
	Base
	HT bool
	// Since is D for a lease (HT false).
	Since ybval.Deadline
	// Expiry is the ht lease expiry dropped (HT true).
	Expiry ybval.HybridTime
}

func (*LeaseReset) Kind() string { return "yb.lease-reset" }

// OldLeaseWait is a leader holding back because an earlier leader's lease
// may still run: consensus.cc's `Previous leader's lease might still be
// active (D remaining)` or the status `Old leader may have [hybrid time]
// lease, while adding: OP`. Both are the new leader doing the right thing.
type OldLeaseWait struct {
	Base
	HT           bool
	Remaining    ybval.Deadline
	HasRemaining bool
	// Op is the operation type refused (WRITE_OP, ...), or "".
	Op string
}

func (*OldLeaseWait) Kind() string { return "yb.old-lease-wait" }

// UpdateRejected is a follower refusing a leader's update: `Refusing
// update from remote peer X: Log matching property violated...` or
// `Rejecting Update request from peer X for earlier term N. Current term
// is M.`
type UpdateRejected struct {
	Base
	From string
	// EarlierTerm: the sender's term N is below this peer's current term M.
	EarlierTerm bool
	Term        int64
	Current     int64
	// Mismatch is `term mismatch` or `index mismatch` for log matching.
	Mismatch string
}

func (*UpdateRejected) Kind() string { return "yb.update-rejected" }

// ActiveRole is consensus_meta.cc's `Updating active role from R1 to R2`.
type ActiveRole struct {
	Base
	From, To string
}

func (*ActiveRole) Kind() string { return "yb.active-role" }
