package ybstate

import (
	"slices"
	"testing"

	"github.com/logsleuth/logsleuth/grammar/ybval"
)

// A replica's lines taken at a step read as its Lines did then, after the
// replica changes on, with MVCC state or without; an append to them
// leaves them as they were.
func TestReplicaLinesAsTheyStood(t *testing.T) {
	raftOnly := &Replica{Key: Key{"tab", "a"}, Term: 3, role: roleOf("LEADER"), LeaderTerm: 3}
	withMvcc := &Replica{Key: Key{"tab", "b"}, Term: -1, LeaderTerm: -1}
	withMvcc.Mvcc().LastOp, withMvcc.Mvcc().HasLastOp = ybval.OpID{Term: 2, Index: 7}, true
	for _, r := range []*Replica{raftOnly, withMvcc} {
		want := r.Lines()
		l := linesOf(r)
		r.Term, r.LeaderTerm, r.role = 9, 9, roleOf("FOLLOWER")
		if r.mvcc != nil {
			r.mvcc.LastOp.Index = 8
		}
		if got := l.Lines(); !slices.Equal(got, want) {
			t.Errorf("%s: lines %q, want %q as they stood", r.Key, got, want)
		}
		_ = append(l.Lines(), "appended")
		if got := l.Lines(); !slices.Equal(got, want) {
			t.Errorf("%s: an append changed the lines to %q", r.Key, got)
		}
	}
	var none ReplicaLines
	if got := none.Lines(); got != nil {
		t.Errorf("no lines taken: %q", got)
	}
}
