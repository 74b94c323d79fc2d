package ybstate_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Replicas lists every replica, whatever its tablet id: 32 lowercase hex
// digits, the same in capitals, and ids that are no UUID.
func TestReplicasOfEveryKindOfID(t *testing.T) {
	hex := "7c1e0a5b3f9d4e2a8b6c5d4e3f2a1b0c"
	ids := []string{hex, strings.ToUpper(hex), "tab", hex[:31]}
	var b strings.Builder
	var want []string
	for i, id := range ids {
		for _, p := range []string{"a", "b"} {
			fmt.Fprintf(&b, "I1007 16:39:%02d.000000 1 raft_consensus.cc:1] T %s P %s [term 1 FOLLOWER]: Becoming Leader. State: Replica: %s, State: 1, Role: FOLLOWER\n", i, id, p, p)
			want = append(want, id+"/"+p)
		}
	}
	st := foldState(t, b.String())
	var got []string
	for _, r := range st.Replicas() {
		got = append(got, r.Tablet+"/"+r.Peer)
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("Replicas gave %v, want %v", got, want)
	}
}
