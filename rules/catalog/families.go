package catalog

import (
	"path"
	"strings"
)

// family describes an invariant family: its rule's title and explanation.
type family struct {
	name, title, explain string
}

// families are each system's invariant families, in the order `rules`
// lists them.
var families = map[string][]family{
	"yb": {
		{"mvcc", "an MvccManager invariant (safe time, hybrid time order, the pending-op queue) failed",
			"MvccManager keeps the hybrid times of pending operations in order and never serves a safe time that a later write could fall below. YugabyteDB checks this with FATAL and Check failed assertions in mvcc.cc; when one fires, a read may already have seen a snapshot a later write changed."},
		{"lease", "a leader lease or hybrid-time lease invariant failed",
			"A leader serves reads and safe times only under a lease that no later leader can overlap, and hybrid times come from a clock whose skew stays under the configured bound. When YugabyteDB asserts one of these broke, two leaders may have served conflicting reads."},
		{"raft", "a Raft consensus invariant (terms, votes, leaders, log matching, op ids) failed",
			"Raft keeps one leader per term, terms that never go back, a log that matches the leader's at every index it accepts, and op ids that grow. YugabyteDB asserts these in raft_consensus.cc, replica_state.cc, consensus_queue.cc and consensus_meta.cc; a failure means replicas may have diverged."},
		{"config", "a Raft config change invariant failed",
			"Config changes go one at a time through the log, a replica acts only on committed or pending configs it holds, and a removed peer stops being a voter. A failed assertion here can leave a replica outside every group, or two majorities."},
		{"wal", "a write-ahead log invariant (segments, entries, indexes) failed",
			"The WAL holds every replicated op once, in op-id order, in segments whose headers, footers and index agree. When YugabyteDB finds otherwise (a gap, an out-of-order or duplicate entry, a corrupt segment), replaying it may lose or repeat writes."},
		{"bootstrap", "a tablet bootstrap invariant failed while replaying the log",
			"Tablet bootstrap replays the WAL on top of the flushed state; each op it applies must follow the last one and agree with what was flushed. An assertion here means the tablet's recovered state may not be what was committed."},
		{"rbs", "a remote bootstrap invariant failed",
			"Remote bootstrap copies a tablet's data and log from a peer and must end with a replica the Raft group knows, holding data no older than what it claims. An assertion here can leave an orphaned or stale replica."},
		{"tablet", "a tablet data-state invariant failed (tablet manager, tablet peer)",
			"The tablet manager moves each replica through data states (ready, copying, tombstoned, deleted) and must never serve or delete a replica in the wrong one. An assertion here can mean a deleted replica served, or a live one was lost."},
	},
	"es": {
		{"seqno", "a sequence-number invariant failed (local checkpoint tracking, max_seq_no)",
			"Every operation on a shard gets a sequence number; the local checkpoint is the highest below which all are processed and never goes back, and no seq# is issued twice in one history. Elasticsearch asserts this in LocalCheckpointTracker and SequenceNumbers; a failure means a copy's history may have gaps or doubles."},
		{"checkpoint", "a global checkpoint or replication-tracker invariant failed",
			"The global checkpoint is at most every in-sync copy's local checkpoint, never goes back, and the primary's ReplicationTracker is its only source. When Elasticsearch asserts otherwise, a copy may be trusted with history it does not have."},
		{"translog", "a translog invariant failed (generations, checkpoints, operations)",
			"The translog holds every operation above the last safe commit, in generations whose checkpoints agree with their contents and whose ranges cover what recovery needs. An assertion here means recovery may replay too little or the wrong operations."},
		{"engine", "an engine invariant failed (versions, seq#s, commits, the engine failed)",
			"The engine applies each operation once, in version and seq# order, and commits only states it can recover. A failed engine or an engine assertion means the shard copy stopped with state it could not vouch for."},
		{"commit", "an index commit invariant failed (safe commit, commit user data)",
			"Recovery starts from the safe commit: the newest commit whose max_seq_no is at most the global checkpoint, with a history_uuid and translog_uuid that match. When Elasticsearch asserts a commit is inconsistent, a recovery may start from history that was never acknowledged."},
		{"recovery", "a peer recovery invariant failed",
			"Peer recovery sends files and then every operation from the starting seq# up to the end, and finalizes only a target whose history now matches. An assertion here means a copy may be marked in-sync without all of its operations."},
		{"shard", "a shard invariant failed (primary terms, operation permits, state)",
			"Primary terms only grow, operations run under a permit of the current term, and a shard changes state only along the allowed paths. When Elasticsearch asserts otherwise, a stale primary may have written."},
		{"retention", "a retention lease invariant failed",
			"Retention leases keep the history a copy may still need for an ops-based recovery; their retaining seq#s never go back and the primary's set is the truth. An assertion here means history a recovery relies on may be gone."},
	},
}

// familyOf finds a system's family by name.
func familyOf(system, name string) (family, bool) {
	for _, f := range families[system] {
		if f.name == name {
			return f, true
		}
	}
	return family{}, false
}

// guessFamily names the family an unrecognised alarm probably belongs
// to, from the source file or class that raised it, or "".
func guessFamily(system, where string) string {
	if where == "" {
		return ""
	}
	if system == "yb" {
		file, _, _ := strings.Cut(path.Base(where), ":")
		switch {
		case file == "mvcc.cc":
			return "mvcc"
		case file == "hybrid_clock.cc" || strings.Contains(file, "lease"):
			return "lease"
		case strings.HasPrefix(file, "log") && strings.HasSuffix(file, ".cc"):
			return "wal"
		case file == "tablet_bootstrap.cc":
			return "bootstrap"
		case strings.HasPrefix(file, "remote_bootstrap") || file == "remote_client_base.cc":
			return "rbs"
		case file == "ts_tablet_manager.cc" || file == "tablet_peer.cc":
			return "tablet"
		case strings.HasPrefix(file, "raft_") || strings.HasPrefix(file, "consensus") ||
			file == "replica_state.cc" || file == "leader_election.cc":
			return "raft"
		}
		return ""
	}
	for _, p := range []struct{ pkg, fam string }{
		{".index.seqno.ReplicationTracker", "checkpoint"},
		{".index.seqno.GlobalCheckpoint", "checkpoint"},
		{".index.seqno.RetentionLease", "retention"},
		{".index.seqno.", "seqno"},
		{".index.translog.", "translog"},
		{".index.engine.CombinedDeletionPolicy", "commit"},
		{".index.engine.", "engine"},
		{".indices.recovery.", "recovery"},
		{".index.shard.", "shard"},
	} {
		if strings.Contains(where, p.pkg) {
			return p.fam
		}
	}
	return ""
}
