package es

import (
	"github.com/logsleuth/logsleuth/grammar/esval"
	"github.com/logsleuth/logsleuth/parse"
)

// Where is the shard copy a line speaks of, as far as the line says: the
// node name from the log marker or thread, and the shard from the marker or
// the message. Shard is -1 and Index "" when the line names no shard.
type Where struct {
	Node  string
	Index string
	Shard int
}

// ShardSubject says which shard copy the line speaks of, for the CLI's
// --index, --shard and --node filters: index "" and shard -1 when the line
// names no shard, node "" when it names no node.
func (w Where) ShardSubject() (index string, shard int, node string) {
	if !w.HasShard() {
		return "", -1, w.Node
	}
	return w.Index, w.Shard, w.Node
}

// HasShard reports whether the line named a shard.
func (w Where) HasShard() bool { return w.Index != "" && w.Shard >= 0 }

// Thrown is set on events read from a Java exception or assertion message:
// the database itself reported the break.
type Thrown struct {
	Class string
}

// Reported reports whether the event came from a thrown exception.
func (t Thrown) Reported() bool { return t.Class != "" }

// Op is an IndexShard operation trace: `index [type][id] (seq# [N])` (6.x),
// `index [id] seq# [N] allocation-id [..] primaryTerm [T] ...` and
// `index-done [...] result-seq# [N] result-term [T]` (7.x+), `delete`, `noop`.
type Op struct {
	parse.Meta
	Where
	Op     string // index, delete or noop
	DocID  string
	Type   string
	SeqNo  int64 // Unassigned (-2) when the primary logs before assigning
	Term   int64 // the op's primary term, -1 when not printed
	OpTerm int64 // the shard's operation primary term, -1 when not printed
	Origin string
	// AllocationID is the applying copy's allocation id when printed.
	AllocationID string
	Done         bool
	Failure      string
}

// TermReset is 6.x `detected new primary with primary term [T], resetting
// local checkpoint from [a] to [b]`: the copy rolls back its history above b.
type TermReset struct {
	parse.Meta
	Where
	Term    int64
	FromLCP int64
	ToLCP   int64
}

// ShardState is IndexShard `state: [A]->[B], reason [r]`.
type ShardState struct {
	parse.Meta
	Where
	From, To, Reason string
}

// OpRejected is `operation primary term [o] is too old (current [c])`: a
// copy refusing a stale primary's op, which is the protocol working.
type OpRejected struct {
	parse.Meta
	Where
	Thrown
	OpTerm  int64
	Current int64
}

// TranslogCheckpoint is a translog `Checkpoint{...}` a copy read or wrote.
// Context is "open-uncommitted", "recovered" or "" for other wordings.
type TranslogCheckpoint struct {
	parse.Meta
	Where
	Context    string
	Checkpoint esval.Checkpoint
}

// Recovery steps printed by the source (RecoverySourceHandler).
const (
	StepSeqNoStart      = "seqno-start"      // performing sequence numbers based recovery. starting at [S]
	StepSeqNoRange      = "seqno-range"      // 6.x testing sequence numbers in range: [S, lcp]
	StepHistoryRetained = "history-retained" // 7.4+ history is retained by {RetentionLease{..}|retention lock}
	StepFileBasedStart  = "file-based-start" // 7.4+ performing file-based recovery followed by history replay starting at [S]
	StepSkipPhase1      = "skip-phase1"      // skipping [phase1]- identical sync id
	StepPhase1Files     = "phase1-files"     // recovery [phase1]: recovering_files [n] ...
	StepPhase1Took      = "phase1-took"      // recovery [phase1]: took [..]
	StepPhase1Engine    = "phase1-engine"    // recovery [phase1]: prepare remote engine for translog
	StepEndSeqNo        = "end-seqno"        // all operations up to [E] completed
	StepPhase2Send      = "phase2-send"      // recovery [phase2]: sending ... (seq# from [S], required [R:E]
	StepBatch           = "batch"            // sent [final ]batch of [n]
	StepPhase2Took      = "phase2-took"      // recovery [phase2]: took [..]
	StepFinalize        = "finalize"         // finalizing recovery
)

// RecoverySource is a RecoverySourceHandler line (`[i][n][recover to X]`).
// Node is the source; Target the recovering node.
type RecoverySource struct {
	parse.Meta
	Where
	Target string
	Step   string
	// Start is the first seq# of StepSeqNoStart, StepFileBasedStart (the
	// safe commit's local checkpoint + 1), StepSeqNoRange and
	// StepPhase2Send, and StepHistoryRetained's lease's
	// retainingSequenceNumber (the seq# from which the lease keeps the
	// history).
	Start   int64
	End     int64 // StepEndSeqNo, StepSeqNoRange
	ReqFrom int64 // StepPhase2Send
	ReqTo   int64
	Files   int64 // StepPhase1Files
	Reused  int64
	Ops     int64 // StepBatch
	Final   bool
	SyncID  string
	// RetainedBy is what StepHistoryRetained names: "lease" (7.4+ prints
	// the lease, RetentionLease.toString) or "retention lock"; LeaseID is
	// the lease's id (`peer_recovery/<target node id>`).
	RetainedBy string `json:",omitempty"`
	LeaseID    string `json:",omitempty"`
}

// Recovery steps printed by the target (PeerRecoveryTargetService).
const (
	TargetPreparing = "preparing"   // preparing shard for peer recovery
	TargetFileBased = "file-based"  // preparing for file-based recovery from [src]
	TargetSeqNo     = "seqno-based" // ... starting at local checkpoint [S] from [src]
	TargetStarting  = "starting"    // starting recovery from {node}
	TargetDone      = "done"        // recovery done from [src], took [t]
)

// RecoveryTarget is a PeerRecoveryTargetService line. Node is the target.
type RecoveryTarget struct {
	parse.Meta
	Where
	Source string
	Step   string
	Start  int64 // TargetSeqNo: the first seq# requested (lcp+1)
}

// RecoveryCommits is the test diagnostic `peer recovery existing
// commits[[...]], safe commit [...], gcp[N]` (one or many lines): which
// commits the target held and which it took as safe.
type RecoveryCommits struct {
	parse.Meta
	Where
	Commits []esval.Commit
	Safe    esval.Commit
	GCP     int64
}

// CommitPolicy is CombinedDeletionPolicy: `Safe commit [C], last commit
// [L]` (Action "safe") or `Delete index commit [C]` (Action "delete").
type CommitPolicy struct {
	parse.Meta
	Where
	Action string
	Commit esval.Commit // the safe or the deleted commit
	Last   *esval.Commit
}

// Tracker kinds (ReplicationTracker).
const (
	TrackLCP        = "lcp"         // updated local checkpoint of [aid] from [a] to [b]
	TrackInSync     = "in-sync"     // marked [aid] as in-sync
	TrackPrimaryGCP = "primary-gcp" // (updated) global checkpoint (updated) to [g]
	TrackReplicaGCP = "replica-gcp" // updated global checkpoint from [a] to [b] due to [r]
)

// Tracker is a ReplicationTracker checkpoint update.
type Tracker struct {
	parse.Meta
	Where
	What         string
	AllocationID string
	From, To     int64
	Reason       string
}

// SeqNoStats is a standalone `SeqNoStats{...}` or `LocalCheckpointState{...}`
// print (not inside an assertion).
type SeqNoStats struct {
	parse.Meta
	Where
	Stats *esval.SeqNoStats
	State *esval.LocalCheckpointState
}

// Resync is the primary-replica resync after a promotion.
type Resync struct {
	parse.Meta
	Where
	Done bool
	Ops  int64
}

// NodeRow is one `{name}{id}...` row of a cluster-state `nodes:` dump.
type NodeRow struct {
	parse.Meta
	Node esval.Node
}

// NodesAdded is a cluster-applier `added {{node},{node}}` line: it names
// nodes as a nodes: dump does, and may give a known id a new name.
type NodesAdded struct {
	parse.Meta
	Nodes []esval.Node
}

func (*NodesAdded) Kind() string { return "es.nodes-added" }

// RoutingRow is one shortSummary row of a routing table dump. Version is
// the `routing_table (version N):` it sits under, -1 when the excerpt cut it.
// Section is "routing_table", "routing_nodes" or "" when unknown.
// IndexUUID is the uuid of the `-- index [[name/uuid]]` header the row
// sits under, "" where the dump printed none (routing_nodes rows).
type RoutingRow struct {
	parse.Meta
	Routing   esval.Routing
	Version   int64
	Section   string
	IndexUUID string `json:",omitempty"`
}

// IndexLife is the master creating or deleting an index: 5.x-8.x
// MetadataCreateIndexService (MetaData... before 7.x) `[name] creating
// index, cause [..], templates [..], shards [n]/[r]...`, which prints the
// name only, and MetadataDeleteIndexService `[name/uuid] deleting index`,
// which prints the index as Index.toString does. An index created again
// under a deleted one's name is another index: another uuid, its own
// seq#s, checkpoints and commits.
type IndexLife struct {
	parse.Meta
	Index   string
	UUID    string `json:",omitempty"`
	Deleted bool
}

// Disruption is a test's NetworkDisruption start or stop.
type Disruption struct {
	parse.Meta
	Start      bool
	Type       string
	Links      string
	Partitions [][]string
}

// DocMissing is ClusterDisruptionIT's `doc [X] indexed via node [A] not
// found (checked via node [B]`: an acknowledged write absent from a copy.
type DocMissing struct {
	parse.Meta
	Thrown
	DocID   string
	Via     string
	Checked string
}

// SeqNoTwice is `seqNo [N] was processed twice in generation [G], with
// different data. prvOp [..], newOp [..]`.
type SeqNoTwice struct {
	parse.Meta
	Where
	Thrown
	SeqNo      int64
	Generation int64
	Prev, New  esval.Op
	// PrevText and NewText are the two operations as printed: what
	// differs between them may be a field Op does not keep.
	PrevText, NewText string
}

// GCPAboveLCP is `supposedly in-sync shard copy received a global checkpoint
// [G] that is higher than its local checkpoint [L]`.
type GCPAboveLCP struct {
	parse.Meta
	Where
	Thrown
	GCP, LCP int64
}

// GCPBelowInSync is `global checkpoint [G] for primary mode allocation ID
// [A] less than in-sync global checkpoints [...]`.
type GCPBelowInSync struct {
	parse.Meta
	Where
	Thrown
	GCP          int64
	AllocationID string
	InSync       string
}

// ReplayGap is `translog replay failed to cover required sequence numbers
// (required range [R:E). first missing op is [x]`.
type ReplayGap struct {
	parse.Meta
	Where
	Thrown
	From, To, Missing int64
}

// CheckpointMismatch is a checkpoint file whose content differs from the
// generation's checkpoint: `... expected: Checkpoint{..} but got: Checkpoint{..}`.
type CheckpointMismatch struct {
	parse.Meta
	Where
	Thrown
	File          string
	Expected, Got esval.Checkpoint
}

// SeqNoStatsMismatch is the test assertion `<routing> seq_no_stats mismatch`
// with its Expected/but lines (the primary's stats, then the copy's).
type SeqNoStatsMismatch struct {
	parse.Meta
	Where
	Thrown
	Routing       esval.Routing
	Expected, Got *esval.SeqNoStats
}

// SyncIDDocCount is `try to recover [i][n] from primary shard with sync id
// but number of docs differ: P (src, primary) vs R(target)`.
type SyncIDDocCount struct {
	parse.Meta
	Where
	Thrown
	PrimaryDocs int64
	PrimaryNode string
	ReplicaDocs int64
	ReplicaNode string
}

// Exception is an alarm no dedicated reader turned into a more precise
// event: a Java exception or assertion (in any layout, with its causes
// and frames), Engine.failEngine's `failed engine [reason]` or
// ElasticsearchUncaughtExceptionHandler's `fatal error in thread [..]`
// with the exception under it. It implements parse.Alarm, so the alarm
// catalogue reads it and, when no entry does, a fallback rule still
// reports it. Class and Message repeat AlarmText's Raised and Message.
type Exception struct {
	parse.Meta
	Where
	Thrown
	Message string
	// AlarmText is the alarm as the catalogue reads it. For a failed
	// engine or a fatal error, Raised is that and the exception logged
	// with it is the first of Causes.
	AlarmText parse.AlarmText
}

func (*Op) Kind() string                 { return "es.op" }
func (*TermReset) Kind() string          { return "es.term-reset" }
func (*ShardState) Kind() string         { return "es.shard-state" }
func (*OpRejected) Kind() string         { return "es.op-rejected" }
func (*TranslogCheckpoint) Kind() string { return "es.translog-checkpoint" }
func (*RecoverySource) Kind() string     { return "es.recovery-source" }
func (*RecoveryTarget) Kind() string     { return "es.recovery-target" }
func (*RecoveryCommits) Kind() string    { return "es.recovery-commits" }
func (*CommitPolicy) Kind() string       { return "es.commit-policy" }
func (*Tracker) Kind() string            { return "es.tracker" }
func (*SeqNoStats) Kind() string         { return "es.seqno-stats" }
func (*Resync) Kind() string             { return "es.resync" }
func (*NodeRow) Kind() string            { return "es.node" }
func (*RoutingRow) Kind() string         { return "es.routing" }
func (*IndexLife) Kind() string          { return "es.index-life" }
func (*Disruption) Kind() string         { return "es.disruption" }
func (*DocMissing) Kind() string         { return "es.doc-missing" }
func (*SeqNoTwice) Kind() string         { return "es.seqno-twice" }
func (*GCPAboveLCP) Kind() string        { return "es.gcp-above-lcp" }
func (*GCPBelowInSync) Kind() string     { return "es.gcp-below-insync" }
func (*ReplayGap) Kind() string          { return "es.replay-gap" }
func (*CheckpointMismatch) Kind() string { return "es.checkpoint-mismatch" }
func (*SeqNoStatsMismatch) Kind() string { return "es.seqno-stats-mismatch" }
func (*SyncIDDocCount) Kind() string     { return "es.syncid-doc-count" }
func (*Exception) Kind() string          { return "es.exception" }
