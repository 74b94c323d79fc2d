package ybrules

import "testing"

// A second tablet, judged after the seed's (its id sorts later), with a
// write of term 3 and no lease of its own: no lease-overlap finding may
// name it, whatever the tablet judged before it held (writeOverlaps
// reuses one buffer for every tablet's leases).
func TestWriteOverlapsNoLeaseFromTabletBefore(t *testing.T) {
	const b = "8c1e0a5b3f9d4e2a8b6c5d4e3f2a1b0c"
	logs := seedWithDump(t)
	logs["ts-4.log"] = `Log file created at: 2023/10/07 16:30:00
I1007 16:39:05.660100   5100 raft_consensus.cc:1080] T ` + b + ` P 3b5d7f9a1c3e4a6b8d0f2a4c6e8a0c2e [term 3 FOLLOWER]: Becoming Leader. State: Replica: 3b5d7f9a1c3e4a6b8d0f2a4c6e8a0c2e, State: 1, Role: FOLLOWER
W1007 16:39:05.900000   5300 mvcc.cc:300] T ` + b + ` P 3b5d7f9a1c3e4a6b8d0f2a4c6e8a0c2e: Recent 1 MVCC operations:
1. AddLeaderPending { ht: { physical: 1696696745800000 } op_id: 3.5 }
`
	seedHit := false
	for _, f := range runLogs(t, logs) {
		if f.Rule != LeaseOverlap {
			continue
		}
		if f.Subject.Tablet == b {
			t.Errorf("finding on the second tablet: %s", f.Message)
		} else {
			seedHit = true
		}
	}
	if !seedHit {
		t.Fatal("no overlap on the seed's tablet, whose leases fill the buffer")
	}
}
