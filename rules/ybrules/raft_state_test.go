package ybrules

import (
	"runtime"
	"testing"
	"time"
)

// The side table must not keep packs' Raft views after the packs are gone.
func TestRaftStateDroppedWithPack(t *testing.T) {
	count := func() int {
		raftMu.Lock()
		defer raftMu.Unlock()
		return len(raftStates)
	}
	before := count()
	for i := 0; i < 50; i++ {
		p := New()
		if raftOf(p) != raftOf(p) {
			t.Fatal("one pack, two Raft states")
		}
	}
	if count() < before+50 {
		t.Fatalf("want 50 more states, have %d over %d", count(), before)
	}
	deadline := time.Now().Add(5 * time.Second)
	for count() > before && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := count(); n > before {
		t.Errorf("%d Raft states outlived their packs", n-before)
	}
}
