package yb

// knownFiles are the YugabyteDB source files that log a message this
// package reads (formats/yb.md cites each). A glog line naming any other
// file is left unclaimed after one map lookup, which is what keeps a
// multi-GB tserver log cheap; lines without a glog envelope (pasted
// excerpts) skip this test and go to the keyword test directly.
//
// A reader that adds a message logged from another file must list it here.
var knownFiles = map[string]bool{
	// MVCC
	"mvcc.cc": true,
	// Raft, leases, elections
	"raft_consensus.cc": true, "replica_state.cc": true, "consensus_meta.cc": true,
	"consensus.cc": true, "leader_election.cc": true, "consensus_queue.cc": true,
	"consensus_peers.cc": true, "sys_catalog.cc": true, "leader_lease.cc": true,
	"peer_manager.cc": true,
	// Config changes, tablet reports, deletes, remote bootstrap
	"tablet_peer.cc": true, "ts_tablet_manager.cc": true, "tablet_service.cc": true,
	"remote_bootstrap_client.cc": true, "remote_bootstrap_service.cc": true,
	"remote_bootstrap_session.cc": true, "remote_client_base.cc": true,
	"remote_bootstrap_file_downloader.cc": true,
	"async_rpc_tasks.cc":                  true, "catalog_manager.cc": true, "catalog_entity_info.cc": true,
	"cluster_balance.cc": true, "master_heartbeat_service.cc": true, "heartbeater.cc": false,
	"tablet_bootstrap.cc": true, "tablet_bootstrap_if.cc": true,
}

// knownFile reports whether a glog file field names a file listed above.
func knownFile(name []byte) bool {
	return knownFiles[string(name)]
}
