package ybstate

import (
	"testing"
	"time"
	"unsafe"

	"github.com/logsleuth/logsleuth/grammar/ybval"
	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// TestTabletSizes keeps the per-tablet structs of a node hosting a
// million tablets within the allocator size classes they were cut to:
// a field added in the wrong place costs 16-64 bytes per tablet.
func TestTabletSizes(t *testing.T) {
	if n := unsafe.Sizeof(TabletRaft{}); n > 128 {
		t.Errorf("TabletRaft is %d bytes, over the 128-byte size class", n)
	}
	if n := unsafe.Sizeof(Leadership{}); n > 112 {
		t.Errorf("Leadership is %d bytes, over the 112-byte size class", n)
	}
	if n := unsafe.Sizeof(PeerRaft{}); n > 112 {
		t.Errorf("PeerRaft is %d bytes, over the 112-byte size class", n)
	}
	if n := unsafe.Sizeof(tabletRare{}); n > 112 {
		t.Errorf("a tablet's rare part is %d bytes, over the 112-byte size class", n)
	}
	if n := unsafe.Sizeof(tabletEntry{}); n > 192 {
		t.Errorf("a tablet's entry (its Raft history and first replica) is %d bytes, over the 192-byte size class", n)
	}
	// A slab of entries (Raft.made) is a large object, rounded up to
	// 8 KiB pages: a size that fills its pages wastes none.
	if n := unsafe.Sizeof(tabletEntry{}) * entrySlab; n <= 32<<10 || n%(8<<10) != 0 {
		t.Errorf("a slab of %d entries is %d bytes: not a whole number of 8 KiB pages over 32 KiB", entrySlab, n)
	}
	// A lease line keeps a lease fact, a revocation line a revocation too.
	if n := unsafe.Sizeof(LeaseFact{}); n > 160 {
		t.Errorf("LeaseFact is %d bytes, over the 160-byte size class", n)
	}
	if n := unsafe.Sizeof(Revocation{}); n > 224 {
		t.Errorf("Revocation is %d bytes, over the 224-byte size class", n)
	}
}

// TestOneLineTabletHasNoRarePart checks that a tablet that only logs a
// NO_OP does not make the part of TabletRaft most tablets never need,
// while a vote does. The timeline's rows are kept in the rare part: the
// budget is spent here, as it is by the first few thousand tablets of a
// node hosting a million.
func TestOneLineTabletHasNoRarePart(t *testing.T) {
	r := NewRaft()
	r.rows.left = 0
	r.Apply(&yb.NoOp{Base: yb.Base{Meta: parse.Meta{Pos: parse.Pos{Source: "a", Line: 1}}, Replica: yb.Replica{Tablet: "t1", Peer: "p1", Term: 2, Role: "LEADER"}}, Op: ybval.OpID{Term: 2, Index: 1}})
	tr := r.Tablet("t1")
	if tr == nil || tr.x != nil {
		t.Fatalf("tablet %v: want it held without its rare part", tr)
	}
	if len(tr.Leaders(2)) != 1 {
		t.Fatalf("leaders of term 2: %v", tr.Leaders(2))
	}
	// Its NO_OP is kept in the leadership its line began, and read back
	// whole.
	if len(tr.noOps) != 0 {
		t.Errorf("NO_OP records %v: want it kept in its leadership", tr.noOps)
	}
	if n := tr.NoOp("2.1"); n == nil || n.Leader != "p1" || n.Op != (ybval.OpID{Term: 2, Index: 1}) || n.From.Pos.Line != 1 {
		t.Errorf("NoOp(2.1) = %+v", n)
	}
	// One whose leader was already known from another line keeps its own.
	r.Apply(&yb.NoOp{Base: yb.Base{Meta: parse.Meta{Pos: parse.Pos{Source: "a", Line: 5}}, Replica: yb.Replica{Tablet: "t1", Peer: "p1", Term: 2, Role: "LEADER"}}, Op: ybval.OpID{Term: 2, Index: 7}})
	if n := tr.NoOp("2.7"); len(tr.noOps) != 1 || n == nil || n.From.Pos.Line != 5 {
		t.Errorf("NoOp(2.7) = %+v, records %v", n, tr.noOps)
	}
	r.Apply(&yb.NoOp{Base: yb.Base{Meta: parse.Meta{Pos: parse.Pos{Source: "a", Line: 6}}, Replica: yb.Replica{Tablet: "t1", Peer: "p1", Term: 2, Role: "LEADER"}}, Op: ybval.OpID{Term: 2, Index: 1}})
	if n := tr.NoOp("2.1"); len(tr.noOps) != 1 || n == nil || n.From.Pos.Line != 1 {
		t.Errorf("a NO_OP seen again: NoOp(2.1) = %+v, records %v", n, tr.noOps)
	}
	r.Apply(&yb.Vote{Base: yb.Base{Meta: parse.Meta{Pos: parse.Pos{Source: "a", Line: 2}}, Replica: yb.Replica{Tablet: "t1", Peer: "p2", Term: 3}}, Candidate: "p3", Term: 3, Granted: true})
	if tr.x == nil || len(tr.Votes(3)) != 1 {
		t.Fatalf("after a vote: rare part %v, votes %v", tr.x, tr.Votes(3))
	}
	// A vote, a lease reset or a revocation needs the rare part, not the
	// rarer one: that is for rows, the master, more replicas, waits and
	// compaction.
	at := time.Date(2023, 10, 7, 16, 0, 0, 0, time.UTC)
	meta := func(line int) parse.Meta {
		return parse.Meta{Pos: parse.Pos{Source: "a", Line: line}, Time: at, Timed: true}
	}
	r.Apply(&yb.LeaseReset{Base: yb.Base{Meta: meta(7), Replica: yb.Replica{Tablet: "t2", Peer: "p1", Term: 2, Role: "FOLLOWER"}}, HT: true, Expiry: ybval.HybridTime{Physical: 1696694400000000}})
	r.Apply(&yb.LeaseRevoked{Base: yb.Base{Meta: meta(8), Replica: yb.Replica{Tablet: "t3", Peer: "p1", Term: 2, Role: "LEADER"}}, Holder: "p2", HT: true, Expiry: ybval.HybridTime{Physical: 1696694400000000}})
	for _, id := range []string{"t1", "t2", "t3"} {
		tr := r.Tablet(id)
		if tr == nil || tr.x == nil || tr.x.y != nil {
			t.Errorf("tablet %s: want its rare part without the rarer one, got %+v", id, tr)
		}
	}
	if n := len(r.Tablet("t2").Leases()) + len(r.Tablet("t3").Leases()); n != 2 {
		t.Errorf("lease facts: %d, want one per tablet", n)
	}
	if n := len(r.Tablet("t3").Revocations()); n != 1 {
		t.Errorf("revocations: %d, want 1", n)
	}
	// A row is kept in the rarer part, while the budget lasts.
	r.rows.left = 1
	r.Apply(&yb.Vote{Base: yb.Base{Meta: meta(9), Replica: yb.Replica{Tablet: "t4", Peer: "p2", Term: 3}}, Candidate: "p3", Term: 3, Granted: true})
	if tr := r.Tablet("t4"); tr.x == nil || tr.x.y == nil || len(tr.Rows()) != 1 {
		t.Errorf("a vote with a row to spare: rows %v", tr.Rows())
	}
}

// TestLeaseNames: a lease's kind and How print as they did when they
// were strings, which reports and findings' facts quote.
func TestLeaseNames(t *testing.T) {
	for k, want := range map[LeaseKind]string{0: "", HTLeaseKind: "ht lease", WallLeaseKind: "lease", 9: ""} {
		if got := k.String(); got != want {
			t.Errorf("LeaseKind(%d) = %q, want %q", uint16(k), got, want)
		}
	}
	for h, want := range map[LeaseHow]string{0: "", LeaseRevoked: "revoked", LeaseReset: "reset by holder",
		LeaseWaited: "waited on", LeaseInDump: "mvcc dump", 9: ""} {
		if got := h.String(); got != want {
			t.Errorf("LeaseHow(%d) = %q, want %q", uint16(h), got, want)
		}
	}
}
