package yb

import "github.com/logsleuth/logsleuth/grammar/ybval"

// Local is what every config and remote bootstrap event carries besides
// Base. Many of these lines speak about a replica other than the one whose
// log printed them (a master task about a tablet server, a leader evicting a
// follower, an RBS source serving a destination), so Base.Replica names the
// replica the event is about and Self keeps the peer of the line's own
// `T x P y` prefix: replay uses it to learn which tablet server wrote a
// source, so it can place lines that print no peer at all.
type Local struct {
	// Self is the peer uuid of the line's own prefix, or "" when the line
	// printed none.
	Self string `json:"self,omitempty"`
	// Partial is set when a protobuf the line printed was cut (a pasted
	// excerpt, a line over the length limit): the event holds what was
	// there, and a diagnostic says what was missing.
	Partial bool `json:"partial,omitempty"`
}

// LocalInfo returns l, so replay can read it from any config event.
func (l *Local) LocalInfo() *Local { return l }

// ConfigEvent is any Raft config change or remote bootstrap event.
type ConfigEvent interface {
	Event
	LocalInfo() *Local
}

// RaftPeer is one member of a Raft config (RaftPeerPB).
type RaftPeer struct {
	UUID string `json:"uuid"`
	// MemberType is VOTER, PRE_VOTER, OBSERVER, PRE_OBSERVER (or whatever
	// the log printed), "" when not printed.
	MemberType string `json:"member_type,omitempty"`
	// Addr is the first last_known_private_addr as host:port, when printed.
	Addr string `json:"addr,omitempty"`
}

// RaftConfig is a RaftConfigPB as far as the line showed it.
type RaftConfig struct {
	// Index is the config's opid_index (committed_op_index in newer
	// builds), or -1 when it was not printed: pending configs carry none.
	Index int64      `json:"opid_index"`
	Peers []RaftPeer `json:"peers"`
	// Cut is set when the text ended inside the config: Peers may miss
	// members.
	Cut bool `json:"cut,omitempty"`
}

// Peer returns the member with uuid u, or nil.
func (c *RaftConfig) Peer(u string) *RaftPeer {
	for i := range c.Peers {
		if c.Peers[i].UUID == u {
			return &c.Peers[i]
		}
	}
	return nil
}

// ChangeType is a ChangeConfigType (ADD_SERVER, REMOVE_SERVER,
// CHANGE_ROLE).
type ChangeType string

// The config change types YugabyteDB has.
const (
	AddServer    ChangeType = "ADD_SERVER"
	RemoveServer ChangeType = "REMOVE_SERVER"
	ChangeRole   ChangeType = "CHANGE_ROLE"
)

// ConfigRequest is a leader's `Received ChangeConfig request {...}`: a
// change was asked for; it may still be refused.
type ConfigRequest struct {
	Base
	Local
	Type ChangeType
	// Server is the peer to add, remove or promote.
	Server     string
	MemberType string
	// CasIndex is cas_config_opid_index, or -1.
	CasIndex int64
}

func (*ConfigRequest) Kind() string { return "yb.config-request" }

// ConfigPending is a leader's `Setting replicate pending config {...},
// type = T`: from here until it commits or aborts, the change is pending.
// The op id is not printed; the commit or abort line gives it.
type ConfigPending struct {
	Base
	Local
	Type   ChangeType
	Config RaftConfig
}

func (*ConfigPending) Kind() string { return "yb.config-pending" }

// ConfigCommit is `Committing config change with OpId T.I. Old config:
// {...}. New config: {...}`, printed by every replica that applies the
// change, or its `Ignoring commit of config change` twin (Ignored) when
// the replica already had a newer config.
type ConfigCommit struct {
	Base
	Local
	Op      ybval.OpID
	HasOp   bool
	Old     RaftConfig
	New     RaftConfig
	Ignored bool
}

func (*ConfigCommit) Kind() string { return "yb.config-commit" }

// ConfigAbort is `CHANGE_CONFIG_OP [T.I] replication failed: status`: the
// pending change was aborted (a new leader, a shutdown).
type ConfigAbort struct {
	Base
	Local
	Op     ybval.OpID
	Status string
}

func (*ConfigAbort) Kind() string { return "yb.config-abort" }

// EvictWhy is why a leader evicts a follower.
type EvictWhy string

// The eviction reasons consensus_queue.cc prints.
const (
	EvictUnreachable EvictWhy = "unreachable"
	EvictLogsGC      EvictWhy = "logs-gc"
	EvictOther       EvictWhy = "other"
)

// PeerEvicted is the leader's `Attempting to remove follower X from the
// Raft config at commit index N. Reason: R`. Replica is the follower.
type PeerEvicted struct {
	Base
	Local
	// Leader is the evicting leader (the line's own peer).
	Leader      string
	CommitIndex int64
	Why         EvictWhy
	// Seconds is how long the leader could not reach the follower, for
	// EvictUnreachable; -1 otherwise.
	Seconds float64
	Reason  string
}

func (*PeerEvicted) Kind() string { return "yb.peer-evicted" }

// PeerNeedsRBS is the leader queue's `Peer needs remote bootstrap: X`.
// Replica is the peer that needs it.
type PeerNeedsRBS struct {
	Base
	Local
	Leader string
}

func (*PeerNeedsRBS) Kind() string { return "yb.peer-needs-rbs" }

// MasterChangeConfig is a master ChangeConfig task's outcome: `Change
// config succeeded on leader TS L for tablet T with type X for replica R`
// (OK), or `ChangeConfig() failed on leader L. No further retry: ...`
// (Final) or `... This operation will be retried` (neither). Replica is
// the replica changed, when the line names it.
type MasterChangeConfig struct {
	Base
	Local
	Leader string
	Type   ChangeType
	OK     bool
	Final  bool
	Detail string
}

func (*MasterChangeConfig) Kind() string { return "yb.master-change-config" }

// TabletReport is the master's reading of a tablet report:
//
//	Tablet: T reported consensus state change. New consensus state: CS[ from R]
//	Tablet server R sent incremental report for T, ... Consensus state: CS
//	Peer R sent incremental report for T, ... Consensus state: CS      (older)
//
// Replica is (T, R), R "" when the line does not say who reported. (The
// master's `Ignoring heartbeat from tablet server that is not part of
// reported consensus config` names no tablet, so it is not read.)
type TabletReport struct {
	Base
	Local
	Reporter   string
	Term       int64
	LeaderUUID string
	Config     RaftConfig
	HasConfig  bool
}

func (*TabletReport) Kind() string { return "yb.tablet-report" }

// DeleteTablet is a tablet server's `Processing DeleteTablet for tablet T
// with delete_type D (reason) from addr`: the delete reached the replica.
// Replica.Peer is read from a `TS X not found in new config` reason, else
// "" (replay places it from the source).
type DeleteTablet struct {
	Base
	Local
	DeleteType string
	Reason     string
	From       string
	// ReasonIndex is the N of `... with opid_index N` in the reason, or -1.
	ReasonIndex int64
}

func (*DeleteTablet) Kind() string { return "yb.delete-tablet" }

// TabletDataDeleted is ts_tablet_manager.cc deleting a replica's data:
// `Deleting tablet data with delete state S`, `Tablet deleted. Last logged
// OpId: X` (Done), or at startup `Tablet Manager startup: Rolling forward
// tablet deletion of type S` (Startup).
type TabletDataDeleted struct {
	Base
	Local
	State   string
	Done    bool
	Startup bool
	LastOp  string
}

func (*TabletDataDeleted) Kind() string { return "yb.tablet-data-deleted" }

// DeleteOutcome is how a master DeleteTablet task ended.
type DeleteOutcome string

// The outcomes async_rpc_tasks.cc prints.
const (
	DeleteOK        DeleteOutcome = "ok"
	DeleteNotFound  DeleteOutcome = "not-found"
	DeleteTSDead    DeleteOutcome = "ts-dead"
	DeleteCASFailed DeleteOutcome = "cas-failed"
	DeleteWrongUUID DeleteOutcome = "wrong-uuid"
	DeleteError     DeleteOutcome = "error"
)

// MasterDelete is a master DeleteTablet task's outcome for replica
// (tablet, TS): `TS X: tablet T (table ...) successfully done|deleted`, or
// `TS X: delete failed for tablet T <why>`.
type MasterDelete struct {
	Base
	Local
	Outcome DeleteOutcome
	// Final is set when the master gives up ("No further retry").
	Final  bool
	Detail string
}

func (*MasterDelete) Kind() string { return "yb.master-delete" }

// RBSPhase is a step of a remote bootstrap session.
type RBSPhase string

// The phases the destination (ts_tablet_manager.cc, remote_bootstrap_client.cc)
// and the source (remote_bootstrap_service.cc) print.
const (
	RBSStart     RBSPhase = "start"     // dest: Initiating RemoteBootstrap from Peer S
	RBSSession   RBSPhase = "session"   // dest: Beginning remote bootstrap session from peer S; source: Beginning new remote bootstrap session
	RBSReplaced  RBSPhase = "replaced"  // dest: Remote bootstrap complete. Replacing tablet superblock.
	RBSDone      RBSPhase = "done"      // dest: Remote bootstrap for tablet ended successfully; source: session ... completed
	RBSFailed    RBSPhase = "failed"    // dest: Unable to fetch data / Failure calling ...; source: session ... failed
	RBSExpired   RBSPhase = "expired"   // source: session ... has expired
	RBSTombstone RBSPhase = "tombstone" // dest: Tombstoning tablet after failed remote bootstrap
	// After a session the source asks the leader to promote the new
	// replica (PRE_VOTER to VOTER, PRE_OBSERVER to OBSERVER).
	RBSRoleChanged RBSPhase = "role-changed" // source: ChangeRole succeeded for bootstrap session
	RBSRoleFailed  RBSPhase = "role-failed"  // source: ChangeRole failed for bootstrap session ..., error : ..
)

// RBS is one remote bootstrap step. Replica is always the destination (the
// replica being created); Other is the peer on the far side (the source for
// destination lines, the destination for source lines).
type RBS struct {
	Base
	Local
	Phase RBSPhase
	// SourceSide is set for lines the RBS source printed.
	SourceSide bool
	Other      string
	Session    string
	Status     string
}

func (*RBS) Kind() string { return "yb.rbs" }

// RBSBusy is a StartRemoteBootstrap refused because `State transition of
// tablet T already in progress: remote bootstrapping tablet from peer S`:
// a second session was asked for while one runs. Replica is (T, the
// refusing destination, "" when the line does not say).
type RBSBusy struct {
	Base
	Local
	// From is the peer the running session copies from.
	From string
	// Asker is the leader whose request was refused, when the line is the
	// leader's (`T x P asker -> Peer dest (...): Unable to begin remote
	// bootstrap on peer`).
	Asker string
}

func (*RBSBusy) Kind() string { return "yb.rbs-busy" }

// TabletStateChange is tablet_peer.cc's `Changed state from A to B`.
type TabletStateChange struct {
	Base
	Local
	From, To string
}

func (*TabletStateChange) Kind() string { return "yb.tablet-state" }
