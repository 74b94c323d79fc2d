package synth

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// NoiseKind is one kind of line a busy tserver logs besides the Raft and
// lease lines the election bursts write: its source file, glog line
// (approximate: the source moves between releases), severity, its share
// of the noise lines (Weight, out of the table's total) and the message as
// the source's format string renders it. Event marks the kinds logsleuth
// reads (a Raft or config event, or an alarm: a warning of memory
// pressure); they have no weight, since the election bursts and RaftShare
// carry the density of those.
//
// The messages follow the YugabyteDB sources (yugabyte/yugabyte-db,
// master as of 2024) and the log prefixes they print:
//
//	T <tablet> P <peer> [term N ROLE]:   ReplicaState::LogPrefix (replica_state.cc), used by raft_consensus.cc
//	T <tablet> P <peer> [LEADER]:        PeerMessageQueue::LogPrefixUnlocked (consensus_queue.cc)
//	T <tablet> P <peer> [CANDIDATE]: Term N [pre-]election:   LeaderElection::LogPrefix (leader_election.cc)
//	T <tablet> P <leader> -> Peer <uuid> (<addrs>): Peer::LogPrefix (consensus_peers.cc)
//	P <peer>:                            the server's prefix (heartbeater.cc)
//	T <tablet> P <peer> [R]:             a tablet's RocksDB (regular DB) info log
type NoiseKind struct {
	Name   string
	File   string
	Line   int
	Sev    byte
	Weight int
	Event  bool
	msg    func(c *noiseCtx) string
}

// noiseCtx is what a kind's message is made of: the peer writing the line,
// the tablet it is about, and the generator for the numbers.
type noiseCtx struct {
	g      *gen
	peers  []*peer
	pi     int
	p      *peer
	tb     *tablet
	leader *peer
	other  *peer
}

func (c *noiseCtx) n(max int) string { return strconv.Itoa(c.g.rng.IntN(max)) }

func (c *noiseCtx) role() string {
	if c.peers[c.tb.leader] == c.p {
		return "LEADER"
	}
	return "FOLLOWER"
}

// raftPre is ReplicaState's prefix: `T <tablet> P <peer> [term N ROLE]: `.
func (c *noiseCtx) raftPre() string {
	return "T " + c.tb.id + " P " + c.p.uuid + " [term " + strconv.FormatInt(c.tb.term, 10) + " " + c.role() + "]: "
}

// plainPre is `T <tablet> P <peer>: `.
func (c *noiseCtx) plainPre() string { return "T " + c.tb.id + " P " + c.p.uuid + ": " }

// rocksPre is a tablet's RocksDB info log prefix, `T <tablet> P <peer> [R]: `.
func (c *noiseCtx) rocksPre() string { return "T " + c.tb.id + " P " + c.p.uuid + " [R]: " }

// queuePre is the leader queue's `T <tablet> P <leader> [LEADER]: `.
func (c *noiseCtx) queuePre() string { return "T " + c.tb.id + " P " + c.leader.uuid + " [LEADER]: " }

// candidatePre is the election's `T <tablet> P <candidate> [CANDIDATE]: Term N pre-election: `.
func (c *noiseCtx) candidatePre() string {
	return "T " + c.tb.id + " P " + c.p.uuid + " [CANDIDATE]: Term " + strconv.FormatInt(c.tb.term+1, 10) + " pre-election: "
}

// peerPre is the leader's proxy to a follower: `T <tablet> P <leader> ->
// Peer <uuid> ([host: "a" port: 9100], []): `.
func (c *noiseCtx) peerPre() string {
	return "T " + c.tb.id + " P " + c.leader.uuid + " -> Peer " + c.other.uuid + " ([host: \"" + c.addr(c.other) + "\" port: 9100], []): "
}

func (c *noiseCtx) addr(p *peer) string {
	for i, q := range c.peers {
		if q == p {
			return "10.0.0." + strconv.Itoa(i+1)
		}
	}
	return "10.0.0.9"
}

func (c *noiseCtx) op() string {
	return strconv.FormatInt(c.tb.term, 10) + "." + strconv.FormatInt(c.tb.op, 10)
}

func (c *noiseCtx) opBack(k int64) string {
	return strconv.FormatInt(c.tb.term, 10) + "." + strconv.FormatInt(max(c.tb.op-k, 0), 10)
}

func (c *noiseCtx) secs() string {
	return strconv.Itoa(c.g.rng.IntN(4)) + "." + fmt.Sprintf("%03d", c.g.rng.IntN(1000)) + "s"
}

func (c *noiseCtx) wal() string {
	return "/mnt/d0/yb-data/tserver/wals/table-" + c.tb.id[:16] + "/tablet-" + c.tb.id + "/wal-" + fmt.Sprintf("%09d", 1+c.g.rng.IntN(1e4))
}

// trackedPeer renders PeerMessageQueue::TrackedPeer::ToString.
func (c *noiseCtx) trackedPeer(isNew bool) string {
	nw, last := "0", c.opBack(int64(c.g.rng.IntN(5)))
	if isNew {
		nw, last = "1", "0.0"
	}
	return "{ peer: " + c.other.uuid + " is_new: " + nw + " last_received: " + last +
		" next_index: " + strconv.FormatInt(c.tb.op+1, 10) + " last_known_committed_idx: " + strconv.FormatInt(c.tb.op-1, 10) +
		" is_last_exchange_successful: 0 needs_remote_bootstrap: 0 member_type: VOTER num_sst_files: " + c.n(20) +
		" last_applied: " + c.opBack(1) + " }"
}

// raftConfig renders a three-voter RaftConfigPB as ShortDebugString
// prints it.
func (c *noiseCtx) raftConfig() string {
	var b strings.Builder
	b.WriteString("opid_index: " + strconv.FormatInt(c.tb.op/100, 10))
	for _, p := range c.peers {
		b.WriteString(" peers { permanent_uuid: \"" + p.uuid + "\" member_type: VOTER last_known_private_addr { host: \"" + c.addr(p) +
			"\" port: 9100 } cloud_info { placement_cloud: \"cloud1\" placement_region: \"datacenter1\" placement_zone: \"rack1\" } }")
	}
	return b.String()
}

func (c *noiseCtx) replicaState() string {
	return "Replica: " + c.p.uuid + ", State: 1, Role: " + c.role() + ", Watermarks: {Received: " + c.op() + " Committed: " + c.opBack(1) + "} Leader: " + c.op()
}

func (c *noiseCtx) queueState(mode string) string {
	s := "All replicated op: " + c.opBack(3) + ", Majority replicated op: " + c.opBack(1) + ", Committed index: " + c.opBack(1) +
		", Last applied: " + c.opBack(1) + ", Last appended: " + c.op() + ", Current term: " + strconv.FormatInt(c.tb.term, 10)
	if mode == "LEADER" {
		return s + ", Majority size: 2, State: QUEUE_OPEN, Mode: LEADER, active raft config: " + c.raftConfig()
	}
	return s + ", Majority size: -1, State: QUEUE_OPEN, Mode: NON_LEADER"
}

// ybNoise is the table. Its weights are a plausible mix for a node
// hosting a few hundred tablets under load, with periodic leader moves:
// RocksDB flushes and compactions and WAL segment rolls dominate, then the
// consensus chatter of elections and step-downs that is not itself a Raft
// event (votes requested and granted, queue mode changes, failure-detector
// snoozes, peers closed and reconnected), heartbeats to the master, and
// warnings of slow or failed RPCs.
var ybNoise = []NoiseKind{
	// RocksDB (src/yb/rocksdb/db/flush_job.cc, compaction_job.cc), per
	// tablet, regular DB.
	{Name: "rocksdb-flush-memtable", File: "flush_job.cc", Line: 228, Sev: 'I', Weight: 80, msg: func(c *noiseCtx) string {
		return c.rocksPre() + "[default] [JOB " + c.n(9999) + "] Flushing memtable with next log file: " + c.n(99)
	}},
	{Name: "rocksdb-flush-started", File: "flush_job.cc", Line: 262, Sev: 'I', Weight: 80, msg: func(c *noiseCtx) string {
		return c.rocksPre() + "[default] [JOB " + c.n(9999) + "] Level-0 flush table #" + c.n(99999) + ": started"
	}},
	{Name: "rocksdb-flush-done", File: "flush_job.cc", Line: 303, Sev: 'I', Weight: 80, msg: func(c *noiseCtx) string {
		return c.rocksPre() + "[default] [JOB " + c.n(9999) + "] Level-0 flush table #" + c.n(99999) + ": " + c.n(1e8) + " bytes OK"
	}},
	{Name: "rocksdb-compacted", File: "compaction_job.cc", Line: 1410, Sev: 'I', Weight: 50, msg: func(c *noiseCtx) string {
		return c.rocksPre() + "[default] [JOB " + c.n(9999) + "] Compacted 4@0 files to L0 => " + c.n(1e8) + " bytes"
	}},
	// WAL (src/yb/consensus/log.cc): segment rolls and GC, slow fsyncs
	// (LOG_SLOW_EXECUTION's `Time spent <what>: real .. user .. sys ..`).
	{Name: "log-max-segment", File: "log.cc", Line: 1053, Sev: 'I', Weight: 40, msg: func(c *noiseCtx) string {
		return c.plainPre() + "Max segment size reached. Starting new segment allocation"
	}},
	{Name: "log-rolled-over", File: "log.cc", Line: 1108, Sev: 'I', Weight: 40, msg: func(c *noiseCtx) string {
		return c.plainPre() + "Rolled over to a new segment: " + c.wal()
	}},
	{Name: "log-gc-segment", File: "log.cc", Line: 1532, Sev: 'I', Weight: 40, msg: func(c *noiseCtx) string {
		return c.plainPre() + "Deleting log segment in path: " + c.wal() + " (GCed ops < " + strconv.FormatInt(c.tb.op-int64(c.g.rng.IntN(500)), 10) + ")"
	}},
	{Name: "log-slow-fsync", File: "log.cc", Line: 1245, Sev: 'W', Weight: 10, msg: func(c *noiseCtx) string {
		return c.plainPre() + "Time spent Fsync log took a long time: real 0." + fmt.Sprintf("%03d", 50+c.g.rng.IntN(900)) + "s\tuser 0.000s\tsys 0.000s"
	}},
	// Slow Raft updates (src/yb/util/debug/long_operation_tracker.cc,
	// started by raft_consensus.cc Update with a 1 s threshold), with the
	// stack it prints; writes and maintenance from the former mix.
	{Name: "long-update-replica", File: "long_operation_tracker.cc", Line: 125, Sev: 'W', Weight: 20, msg: func(c *noiseCtx) string {
		return "UpdateReplica running for 1.0" + c.n(99) + "s in thread " + strconv.Itoa(c.p.tid) + ":\n" +
			"    @     0x7f0a3c2b1d4a  __GI_epoll_wait\n    @     0x7f0a3c9a2f10  yb::rpc::Reactor::RunThread()"
	}},
	{Name: "tablet-service-write", File: "tablet_service.cc", Line: 2113, Sev: 'I', Weight: 30, msg: func(c *noiseCtx) string {
		return c.plainPre() + "Write request with " + c.n(64) + " ops took " + c.n(900) + "ms"
	}},
	{Name: "maintenance-schedule", File: "maintenance_manager.cc", Line: 363, Sev: 'I', Weight: 15, msg: func(c *noiseCtx) string {
		return "Scheduling FlushMRSOp(" + c.tb.id + "): perf score=" + strconv.FormatFloat(c.g.rng.Float64(), 'f', 6, 64)
	}},
	// Heartbeats to the master (src/yb/tserver/heartbeater.cc).
	{Name: "heartbeat-connected", File: "heartbeater.cc", Line: 296, Sev: 'I', Weight: 8, msg: func(c *noiseCtx) string {
		return "P " + c.p.uuid + ": Connected to a leader master server at 10.0.1." + c.n(3) + ":7100"
	}},
	{Name: "heartbeat-full-report", File: "heartbeater.cc", Line: 362, Sev: 'I', Weight: 4, msg: func(c *noiseCtx) string {
		return "P " + c.p.uuid + ": Sending a full tablet report to master..."
	}},
	{Name: "heartbeat-failed", File: "heartbeater.cc", Line: 536, Sev: 'W', Weight: 8, msg: func(c *noiseCtx) string {
		return "P " + c.p.uuid + ": Failed to heartbeat to 10.0.1.1:7100: Timed out (yb/rpc/outbound_call.cc:612): TSHeartbeat RPC (request call id " + c.n(1e6) +
			") to 10.0.1.1:7100 timed out after 15.000s tries=" + c.n(9) + ", num=3, masters=0x0000000001, code=Timed out"
	}},

	// raft_consensus.cc, prefix `T .. P .. [term N ROLE]: ` unless noted.
	{Name: "raft-snooze", File: "raft_consensus.cc", Line: 3443, Sev: 'I', Weight: 60, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Snoozing leader timeout detection for " + c.secs()
	}},
	{Name: "raft-mark-dirty", File: "raft_consensus.cc", Line: 3577, Sev: 'I', Weight: 45, msg: func(c *noiseCtx) string {
		reason := []string{"FOLLOWER_NO_OP_COMPLETE", "NEW_LEADER_ELECTED", "LEADER_CONFIG_CHANGE_COMPLETE", "FOLLOWER_CONFIG_CHANGE_COMPLETE", "CONSENSUS_STARTED"}[c.g.rng.IntN(5)]
		return c.raftPre() + "Calling mark dirty synchronously for reason code " + reason
	}},
	{Name: "raft-dedup", File: "raft_consensus.cc", Line: 1676, Sev: 'I', Weight: 15, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Deduplicated request from leader. Original: " + c.opBack(3) + "->[" + c.opBack(2) + "-" + c.op() + "]   Dedup: " + c.opBack(1) + "->[" + c.op() + "-" + c.op() +
			"], known committed: " + c.opBack(1) + ", received committed: " + c.opBack(1)
	}},
	{Name: "raft-update-error", File: "raft_consensus.cc", Line: 1956, Sev: 'I', Weight: 10, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Returning from UpdateConsensus because of error: error { code: INVALID_TERM status { code: ILLEGAL_STATE message: \"Rejecting Update request from peer " +
			c.other.uuid + " for earlier term " + strconv.FormatInt(c.tb.term-1, 10) + ". Current term is " + strconv.FormatInt(c.tb.term, 10) + ". Ops: []\" source_file: \"../../src/yb/consensus/raft_consensus.cc\" source_line: 1705 errors: \"\\000\" } }"
	}},
	{Name: "raft-reject-prepare", File: "raft_consensus.cc", Line: 2117, Sev: 'I', Weight: 5, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Rejecting Update request from peer " + c.other.uuid + " for term " + strconv.FormatInt(c.tb.term, 10) +
			". Could not prepare a single operation due to: Service unavailable (yb/tablet/tablet_peer.cc:1054): Soft memory limit exceeded (at 91.20% of capacity)"
	}},
	{Name: "raft-prepare-failed", File: "raft_consensus.cc", Line: 2101, Sev: 'W', Event: true, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Could not prepare operation for op: " + c.op() + ". Suppressed " + c.n(40) +
			" other warnings. Status for this op: Service unavailable (yb/tablet/tablet_peer.cc:1054): Soft memory limit exceeded (at 91.20% of capacity)"
	}},
	{Name: "raft-commit-index-partial", File: "raft_consensus.cc", Line: 2207, Sev: 'I', Weight: 5, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Received commit index " + c.op() + " from the leader but only marked up to " + c.opBack(2) + " as committed."
	}},
	{Name: "raft-servers-in-transition", File: "raft_consensus.cc", Line: 747, Sev: 'I', Weight: 8, msg: func(c *noiseCtx) string {
		return "Active config has 0 and committed has 0 servers in transition."
	}},
	{Name: "raft-not-starting-leader", File: "raft_consensus.cc", Line: 603, Sev: 'I', Weight: 5, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Not starting pre-election -- already leader"
	}},
	{Name: "raft-starting-up", File: "raft_consensus.cc", Line: 503, Sev: 'I', Weight: 2, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Consensus starting up: Expiring fail detector timer to make a prompt election more likely"
	}},
	{Name: "raft-replica-starting", File: "raft_consensus.cc", Line: 470, Sev: 'I', Weight: 2, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Replica starting. Triggering " + c.n(3) + " pending operations. Active config: " + c.raftConfig()
	}},
	{Name: "raft-transfer-refused", File: "raft_consensus.cc", Line: 921, Sev: 'I', Weight: 2, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Unable to execute leadership transfer for tablet " + c.tb.id + " from " + c.p.uuid + " to " + c.other.uuid +
			" because the intended leader already lost an election only " + c.secs() + " ago (within 20000 ms)."
	}},
	{Name: "raft-protege-lost", File: "raft_consensus.cc", Line: 1001, Sev: 'I', Weight: 2, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Our protege " + c.other.uuid + ", lost election. Has leader: 0"
	}},
	{Name: "raft-failed-follower-old-term", File: "raft_consensus.cc", Line: 1476, Sev: 'I', Weight: 3, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Processing failure of peer " + c.other.uuid + " in term " + strconv.FormatInt(c.tb.term-1, 10) +
			" (Leader has been unable to successfully communicate with Peer " + c.other.uuid + " for more than 900 seconds (900.012s)): " +
			"Notified about a follower failure in previous term " + strconv.FormatInt(c.tb.term-1, 10) + ", but a leader election likely occurred since the failure was detected. Doing nothing."
	}},
	{Name: "raft-unknown-voter", File: "raft_consensus.cc", Line: 2318, Sev: 'I', Weight: 2, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Handling vote request from an unknown peer " + c.other.uuid
	}},
	{Name: "raft-append-failed", File: "raft_consensus.cc", Line: 1346, Sev: 'W', Event: true, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Could not append replicate request: Service unavailable (yb/consensus/log_cache.cc:141): Pending operations memory limit exceeded, queue status: Consensus queue metrics:Only Majority Done Ops: 0, In Progress Ops: " + c.n(900) + ", Cache: LogCacheStats(num_ops=" + c.n(900) + ", bytes=" + c.n(1e7) + ", disk_reads=0)"
	}},
	{Name: "raft-lease-not-set", File: "raft_consensus.cc", Line: 1398, Sev: 'W', Weight: 3, msg: func(c *noiseCtx) string {
		return "Leader lease expiration was not set: Illegal state (yb/consensus/replica_state.cc:1181): Leader has not yet acquired a lease"
	}},
	{Name: "raft-election-trigger-failed", File: "raft_consensus.cc", Line: 1072, Sev: 'W', Weight: 2, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Failed to trigger leader election: Illegal state (yb/consensus/replica_state.cc:246): Replica not in running state"
	}},
	{Name: "raft-run-election-error", File: "raft_consensus.cc", Line: 1040, Sev: 'W', Weight: 2, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Tablet error from RunLeaderElection() call to peer " + c.other.uuid + ": Illegal state (yb/consensus/raft_consensus.cc:3016): Not currently leader"
	}},
	{Name: "raft-shutdown", File: "raft_consensus.cc", Line: 2971, Sev: 'I', Weight: 2, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Shutdown."
	}},
	{Name: "raft-shut-down", File: "raft_consensus.cc", Line: 2994, Sev: 'I', Weight: 2, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Raft consensus is shut down!"
	}},
	// Kinds raft_consensus.cc logs that logsleuth reads: the test keeps
	// them events; the election bursts write their density.
	{Name: "raft-become-follower", File: "raft_consensus.cc", Line: 1143, Sev: 'I', Event: true, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Becoming Follower/Learner. State: " + c.replicaState() + ", new leader: , initial_fd_wait: <uninitialized>"
	}},
	{Name: "raft-preelection-start", File: "raft_consensus.cc", Line: 691, Sev: 'I', Event: true, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Starting pre-election with config: " + c.raftConfig()
	}},
	{Name: "raft-preelection-won", File: "raft_consensus.cc", Line: 3536, Sev: 'I', Event: true, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Leader pre-election won for term " + strconv.FormatInt(c.tb.term+1, 10)
	}},
	{Name: "raft-preelection-lost", File: "raft_consensus.cc", Line: 3502, Sev: 'I', Event: true, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Leader pre-election lost for term " + strconv.FormatInt(c.tb.term+1, 10) + ". Reason: could not achieve majority. Originator: "
	}},
	{Name: "raft-prevote-granted", File: "raft_consensus.cc", Line: 2441, Sev: 'I', Event: true, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Pre-election. Granting vote for candidate " + c.other.uuid + " in term " + strconv.FormatInt(c.tb.term+1, 10)
	}},
	{Name: "raft-vote-denied-alive", File: "raft_consensus.cc", Line: 3197, Sev: 'I', Event: true, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Leader pre-election vote request: Denying vote to candidate " + c.other.uuid + " for term " + strconv.FormatInt(c.tb.term+1, 10) +
			" because replica believes a valid leader to be alive (leader uuid: " + c.leader.uuid + "). Time left: " + c.secs()
	}},
	{Name: "raft-reject-earlier-term", File: "raft_consensus.cc", Line: 1705, Sev: 'I', Event: true, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Rejecting Update request from peer " + c.other.uuid + " for earlier term " + strconv.FormatInt(c.tb.term-1, 10) +
			". Current term is " + strconv.FormatInt(c.tb.term, 10) + ". Ops: []"
	}},
	{Name: "raft-report-fail-detected", File: "raft_consensus.cc", Line: 1070, Sev: 'I', Event: true, msg: func(c *noiseCtx) string {
		return c.raftPre() + "ReportFailDetected: Starting NORMAL_ELECTION..."
	}},

	// leader_election.cc, the candidate's prefix.
	{Name: "election-request-vote", File: "leader_election.cc", Line: 200, Sev: 'I', Weight: 30, msg: func(c *noiseCtx) string {
		return c.candidatePre() + "Requesting vote from peer " + c.other.uuid
	}},
	{Name: "election-vote-granted", File: "leader_election.cc", Line: 302, Sev: 'I', Weight: 20, msg: func(c *noiseCtx) string {
		return c.candidatePre() + "Vote granted by peer " + c.other.uuid
	}},
	{Name: "election-vote-denied", File: "leader_election.cc", Line: 318, Sev: 'I', Weight: 8, msg: func(c *noiseCtx) string {
		return c.candidatePre() + "Vote denied by peer " + c.other.uuid + ". Message: Invalid argument (yb/consensus/raft_consensus.cc:3130): T " + c.tb.id + " P " + c.other.uuid +
			" [term " + strconv.FormatInt(c.tb.term, 10) + " FOLLOWER]:  Leader pre-election vote request: Denying vote to candidate " + c.p.uuid + " for term " +
			strconv.FormatInt(c.tb.term+1, 10) + " because replica believes a valid leader to be alive (leader uuid: " + c.leader.uuid + "). Time left: " + c.secs()
	}},
	{Name: "election-decided", File: "leader_election.cc", Line: 226, Sev: 'I', Weight: 15, msg: func(c *noiseCtx) string {
		return c.candidatePre() + "Election decided. Result: candidate " + []string{"won.", "lost."}[c.g.rng.IntN(2)]
	}},
	{Name: "election-rpc-error", File: "leader_election.cc", Line: 240, Sev: 'W', Weight: 5, msg: func(c *noiseCtx) string {
		return c.candidatePre() + "RPC error from VoteRequest() call to peer " + c.other.uuid + ": Network error (yb/util/net/socket.cc:540): recvmsg error: Connection refused (system error 111)"
	}},
	{Name: "election-higher-term", File: "leader_election.cc", Line: 276, Sev: 'W', Weight: 3, msg: func(c *noiseCtx) string {
		return c.candidatePre() + "Vote denied by peer " + c.other.uuid + " with higher term. Message: Invalid argument (yb/consensus/raft_consensus.cc:3130): T " + c.tb.id + " P " + c.other.uuid +
			" [term " + strconv.FormatInt(c.tb.term+2, 10) + " FOLLOWER]:  Leader pre-election vote request: Denying vote to candidate " + c.p.uuid + " for earlier term " +
			strconv.FormatInt(c.tb.term+1, 10) + ". Current term is " + strconv.FormatInt(c.tb.term+2, 10) + "."
	}},
	{Name: "election-cancelled", File: "leader_election.cc", Line: 280, Sev: 'I', Weight: 3, msg: func(c *noiseCtx) string {
		return c.candidatePre() + "Cancelling election due to peer responding with higher term"
	}},

	// replica_state.cc, ReplicaState's prefix.
	{Name: "state-noop-committed", File: "replica_state.cc", Line: 1402, Sev: 'I', Weight: 25, msg: func(c *noiseCtx) string {
		return c.raftPre() + "SetLeaderNoOpCommittedUnlocked(" + []string{"0", "1"}[c.g.rng.IntN(2)] + "), committed: " + c.opBack(1) + ", received: " + c.op()
	}},
	{Name: "state-advanced-across-terms", File: "replica_state.cc", Line: 720, Sev: 'I', Weight: 10, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Advanced the committed_op_id across terms. Last committed operation was: " + strconv.FormatInt(c.tb.term-1, 10) + "." +
			strconv.FormatInt(c.tb.op-1, 10) + " New committed index is: " + c.op()
	}},
	{Name: "state-cannot-advance", File: "replica_state.cc", Line: 734, Sev: 'W', Weight: 5, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Can't advance the committed index across term boundaries until operations from the current term are replicated. Last committed operation was: " +
			strconv.FormatInt(c.tb.term-1, 10) + "." + strconv.FormatInt(c.tb.op-1, 10) + ", New majority replicated is: " + c.op() + ", Current term is: " + strconv.FormatInt(c.tb.term, 10)
	}},
	{Name: "state-abort-after", File: "replica_state.cc", Line: 455, Sev: 'I', Weight: 5, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Aborting all operations after (but not including): " + strconv.FormatInt(c.tb.op-1, 10) + ". Current State: " + c.replicaState()
	}},
	{Name: "state-abort-uncommitted", File: "replica_state.cc", Line: 489, Sev: 'I', Weight: 8, msg: func(c *noiseCtx) string {
		return c.raftPre() + "Aborting uncommitted operation due to leader change: " + c.op() + ", committed: " + c.opBack(1)
	}},
	{Name: "state-committed-term", File: "replica_state.cc", Line: 946, Sev: 'I', Weight: 8, msg: func(c *noiseCtx) string {
		return "committed term=" + strconv.FormatInt(c.tb.term-1, 10) + ", current term=" + strconv.FormatInt(c.tb.term, 10)
	}},

	// consensus_queue.cc, the queue's prefix unless noted.
	{Name: "queue-leader-mode", File: "consensus_queue.cc", Line: 290, Sev: 'I', Weight: 15, msg: func(c *noiseCtx) string {
		return c.queuePre() + "Queue going to LEADER mode. State: " + c.queueState("LEADER")
	}},
	{Name: "queue-non-leader-mode", File: "consensus_queue.cc", Line: 302, Sev: 'I', Weight: 15, msg: func(c *noiseCtx) string {
		return "T " + c.tb.id + " P " + c.p.uuid + " [NON_LEADER]: Queue going to NON_LEADER mode. State: " + c.queueState("NON_LEADER")
	}},
	{Name: "queue-new-peer", File: "consensus_queue.cc", Line: 1149, Sev: 'I', Weight: 20, msg: func(c *noiseCtx) string {
		return c.queuePre() + "Connected to new peer: " + c.trackedPeer(true)
	}},
	{Name: "queue-lmp-mismatch", File: "consensus_queue.cc", Line: 1152, Sev: 'I', Weight: 15, msg: func(c *noiseCtx) string {
		return c.queuePre() + "Got LMP mismatch error from peer: " + c.trackedPeer(false)
	}},
	{Name: "queue-invalid-term", File: "consensus_queue.cc", Line: 1160, Sev: 'I', Weight: 5, msg: func(c *noiseCtx) string {
		return c.queuePre() + "Peer responded invalid term: " + c.trackedPeer(false) + ". Peer's new term: " + strconv.FormatInt(c.tb.term+1, 10)
	}},
	{Name: "queue-non-lagging", File: "consensus_queue.cc", Line: 810, Sev: 'I', Weight: 5, msg: func(c *noiseCtx) string {
		return c.queuePre() + "Non lagging peer(s) not found."
	}},
	{Name: "queue-not-caught-up", File: "consensus_queue.cc", Line: 1394, Sev: 'I', Weight: 5, msg: func(c *noiseCtx) string {
		return "Peer " + c.other.uuid + " cannot become Leader as it is not caught up: Majority OpId " + c.op() + ", Peer OpId " + c.opBack(2)
	}},
	{Name: "queue-rbs-peer", File: "consensus_queue.cc", Line: 749, Sev: 'I', Weight: 2, msg: func(c *noiseCtx) string {
		return "Remote bootstrapping peer " + c.other.uuid + " with type VOTER"
	}},

	// consensus_peers.cc, the leader's proxy to a follower.
	{Name: "peer-send-failed", File: "consensus_peers.cc", Line: 440, Sev: 'W', Weight: 40, msg: func(c *noiseCtx) string {
		return c.peerPre() + "Couldn't send request.  Status: Network error (yb/util/net/socket.cc:540): recvmsg error: Connection refused (system error 111). Retrying in the next heartbeat period. Already tried " +
			strconv.Itoa(1+c.g.rng.IntN(200)) + " times. State: 2"
	}},
	{Name: "peer-closing", File: "consensus_peers.cc", Line: 480, Sev: 'I', Weight: 25, msg: func(c *noiseCtx) string {
		return c.peerPre() + "Closing peer"
	}},
	{Name: "peer-no-request", File: "consensus_peers.cc", Line: 245, Sev: 'I', Weight: 10, msg: func(c *noiseCtx) string {
		return c.peerPre() + "Could not obtain request from queue for peer: Not found (yb/consensus/consensus_queue.cc:312): Peer not tracked or queue not in leader mode."
	}},
	{Name: "peer-promote", File: "consensus_peers.cc", Line: 290, Sev: 'I', Weight: 3, msg: func(c *noiseCtx) string {
		return "Sending ChangeConfig request to promote peer"
	}},
}

// YBNoise returns the YugabyteDB noise table: every kind, events and not.
func YBNoise() []NoiseKind { return ybNoise }

// Lines writes n lines of the kind, each in its glog envelope, as the
// generator writes them for seed: three peers, the tablets' terms and
// leaders spread out.
func (k NoiseKind) Lines(n int, seed uint64) []byte {
	g := newGen(Options{System: "yb", Seed: seed, Peers: 3, Tablets: 64})
	g.clock = time.Date(2023, 10, 7, 16, 0, 0, 0, time.UTC)
	peers, tablets := g.ybSetup()
	for i, t := range tablets {
		t.term, t.leader, t.op = int64(2+i%7), i%len(peers), int64(1000+i*37)
	}
	var b []byte
	for range n {
		g.tick(2000)
		b = append(b, g.noiseLine(&k, peers, tablets[g.rng.IntN(len(tablets))])...)
	}
	return b
}

// noiseLine renders one line of k about tb.
func (g *gen) noiseLine(k *NoiseKind, peers []*peer, tb *tablet) string {
	pi := g.rng.IntN(len(peers))
	c := noiseCtx{g: g, peers: peers, pi: pi, p: peers[pi], tb: tb, leader: peers[tb.leader]}
	c.other = peers[(pi+1)%len(peers)]
	if c.other == c.p && len(peers) > 1 {
		c.other = peers[(pi+2)%len(peers)]
	}
	tid := c.p.tid
	if strings.HasPrefix(k.Name, "queue-") || strings.HasPrefix(k.Name, "peer-") {
		// The leader writes its queue's and its peers' lines.
		c.p = c.leader
		tid = c.leader.tid
		if c.other == c.leader {
			c.other = peers[(tb.leader+1)%len(peers)]
		}
	}
	return g.glog(k.Sev, tid, k.File, k.Line) + k.msg(&c) + "\n"
}

// noisePicker draws kinds by weight.
type noisePicker struct {
	kinds []*NoiseKind
	cum   []int
}

func newNoisePicker() *noisePicker {
	p := &noisePicker{}
	total := 0
	for i := range ybNoise {
		if ybNoise[i].Weight == 0 {
			continue
		}
		total += ybNoise[i].Weight
		p.kinds = append(p.kinds, &ybNoise[i])
		p.cum = append(p.cum, total)
	}
	return p
}

func (p *noisePicker) pick(g *gen) *NoiseKind {
	x := g.rng.IntN(p.cum[len(p.cum)-1])
	lo, hi := 0, len(p.cum)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if p.cum[mid] > x {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return p.kinds[lo]
}
