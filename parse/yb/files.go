package yb

// knownFile reports whether a glog file field names one of the YugabyteDB
// source files that log a message this package reads (formats/yb.md cites
// each). A glog line naming any other file is left unclaimed after this
// test, which is what keeps a multi-GB tserver log cheap; lines without a
// glog envelope (pasted excerpts) skip it and go to the phrase test
// directly.
//
// A switch on constant strings compiles to a search by length and bytes,
// with no hashing: it runs on nearly every line of a log.
//
// A reader that adds a message logged from another file must list it here.
// (Alarms are read from every file: isAlarm decides before this test.)
func knownFile(name []byte) bool {
	switch string(name) {
	case
		// MVCC
		"mvcc.cc",
		// Raft, leases, elections
		"raft_consensus.cc", "replica_state.cc", "consensus_meta.cc",
		"consensus.cc", "leader_election.cc", "consensus_queue.cc",
		"consensus_peers.cc", "sys_catalog.cc", "leader_lease.cc",
		"peer_manager.cc",
		// Config changes, tablet reports, deletes, remote bootstrap
		"tablet_peer.cc", "ts_tablet_manager.cc", "tablet_service.cc",
		"remote_bootstrap_client.cc", "remote_bootstrap_service.cc",
		"remote_bootstrap_session.cc", "remote_client_base.cc",
		"remote_bootstrap_file_downloader.cc",
		"async_rpc_tasks.cc", "catalog_manager.cc", "catalog_entity_info.cc",
		"cluster_balance.cc", "master_heartbeat_service.cc",
		"tablet_bootstrap.cc", "tablet_bootstrap_if.cc":
		return true
	}
	return false
}
