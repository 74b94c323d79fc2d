package ybrules

import (
	"slices"
	"testing"
)

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

// A tablet whose one write is judged only at the end: the term-1 lease
// it falls inside shows in a line read after it (ts-6's line at 06.0,
// after ts-5's trace at 05.9), so only the end-of-logs judgment
// (writeOverlaps) can place it. The lease is a's own reset, or b's
// revocation of it, which is a lease fact too.
func TestWriteOverlapsOneWrite(t *testing.T) {
	const (
		tab = "9d2f1b6c4e8a4f3b9c7d6e5f4a3b2c1d"
		a   = "1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b"
		b   = "3b5d7f9a1c3e4a6b8d0f2a4c6e8a0c2e"
	)
	for name, lease := range map[string]string{
		"reset":      `I1007 16:39:06.000000   5100 replica_state.cc:1257] T ` + tab + ` P ` + a + ` [term 3 FOLLOWER]: Reset our ht lease: { physical: 1696696746900000 }`,
		"revocation": `I1007 16:39:06.000000   5100 replica_state.cc:1257] T ` + tab + ` P ` + b + ` [term 3 LEADER]: Revoked old leader ` + a + ` ht lease: { physical: 1696696746900000 }`,
	} {
		t.Run(name, func(t *testing.T) {
			logs := map[string]string{
				"ts-5.log": `Log file created at: 2023/10/07 16:30:00
I1007 16:39:05.660100   5100 raft_consensus.cc:1080] T ` + tab + ` P ` + b + ` [term 3 FOLLOWER]: Becoming Leader. State: Replica: ` + b + `, State: 1, Role: FOLLOWER
W1007 16:39:05.900000   5300 mvcc.cc:300] T ` + tab + ` P ` + b + `: Recent 1 MVCC operations:
1. AddLeaderPending { ht: { physical: 1696696745800000 } op_id: 3.5 }
`,
				"ts-6.log": `Log file created at: 2023/10/07 16:30:00
I1007 16:39:00.100000   5100 raft_consensus.cc:1080] T ` + tab + ` P ` + a + ` [term 1 FOLLOWER]: Becoming Leader. State: Replica: ` + a + `, State: 1, Role: FOLLOWER
` + lease + "\n",
			}
			var got []string
			for _, f := range runLogs(t, logs) {
				if f.Rule == LeaseOverlap {
					got = append(got, f.Pos().String()+" "+f.Facts["lease_holder"]+" term "+f.Facts["lease_term"])
				}
			}
			if want := []string{"ts-5.log:4 " + a + " term 1"}; !slices.Equal(got, want) {
				t.Errorf("lease overlaps: %q, want %q", got, want)
			}
		})
	}
}
