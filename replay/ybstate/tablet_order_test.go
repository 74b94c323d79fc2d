package ybstate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// Tablets and EachTablet give the tablets seen in the order of their ids
// as strings, whatever the ids: tablet ids of 32 hex digits, ids that
// share their first eight bytes, ids shorter than eight bytes, zero bytes
// where a short id's padding is, and bytes over 0x7f (a signed
// comparison would put them first). A tablet made but never seen is
// left out.
func TestTabletsInIDOrder(t *testing.T) {
	ids := []string{
		"", "a", "a\x00", "a\x00\x00", "a\x00\x01", "ab", "abcdefg", "abcdefg\x00",
		"abcdefgh", "abcdefgh\x00", "abcdefghi", "abcdefgg\xff", "abcdefgi",
		"\xff", "\xff\xff\xff\xff\xff\xff\xff\xff", "\xff\xff\xff\xff\xff\xff\xff\xff\x00",
		"\x7f", "\x80", "T", "t",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		ids = append(ids, fmt.Sprintf("%016x%016x", rng.Uint64(), rng.Uint64()))
	}
	// Ids over a three-letter alphabet of up to 12 bytes: many share
	// their first eight bytes, or are one another's prefixes.
	alphabet := []byte{0x00, 'a', 0xff}
	for range 3000 {
		b := make([]byte, rng.IntN(13))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		ids = append(ids, string(b))
	}
	r := &Raft{}
	for _, id := range ids {
		r.tablet(id)
	}
	r.entry("made but never seen")
	want := slices.Sorted(slices.Values(ids))
	want = slices.Compact(want)

	got := r.Tablets()
	if !slices.Equal(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("Tablets()[%d] = %q, want %q (%d tablets, want %d)", i, got[i], want[i], len(got), len(want))
			}
		}
		t.Fatalf("Tablets() gives %d tablets, want %d", len(got), len(want))
	}
	var each []string
	r.EachTablet(func(tr *TabletRaft) {
		if tr != r.Tablet(tr.Tablet) {
			t.Fatalf("EachTablet gave %q a history that is not its own", tr.Tablet)
		}
		each = append(each, tr.Tablet)
	})
	if !slices.Equal(each, want) {
		t.Fatalf("EachTablet visits another order than Tablets")
	}
}

// BenchmarkEachTablet sorts a million tablets of 32-hex-digit ids, as
// the end of a run over a node hosting them does.
func BenchmarkEachTablet(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	r := &Raft{}
	for range 1_000_000 {
		r.tablet(fmt.Sprintf("%016x%016x", rng.Uint64(), rng.Uint64()))
	}
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		r.EachTablet(func(*TabletRaft) { n++ })
		if n != 1_000_000 {
			b.Fatal(n)
		}
	}
}

// BenchmarkEachTabletJudged visits a million tablets, each with a
// leader, a peer and a lease, reading what a judgment reads first (the
// history, its rare part, its leases, the leader and the peer), with
// and without preloading each batch. The tablets are made in an order
// unrelated to their ids, as a log names them.
func BenchmarkEachTabletJudged(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	r := &Raft{}
	for range 1_000_000 {
		t := r.tablet(fmt.Sprintf("%016x%016x", rng.Uint64(), rng.Uint64()))
		t.peers = []*PeerRaft{{Peer: "p", Term: 2}}
		t.led = []*Leadership{{Peer: "p", Term: 2}}
		t.more().leases = []LeaseFact{{Holder: "q", Term: 1}}
	}
	var want int64
	r.eachEntry(func(e *tabletEntry) { want += 1 + 2 + 2 + int64(e.raft.Tablet[0]) })
	for _, c := range []struct {
		name      string
		preloaded bool
	}{{"none", false}, {"preloaded", true}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var sum int64
				r.eachTablet(func(t *TabletRaft) {
					for _, l := range t.Leases() {
						sum += l.Term
					}
					sum += t.led[0].Term + t.peers[0].Term + int64(t.Tablet[0])
				}, c.preloaded)
				if sum != want {
					b.Fatalf("read %d, want %d", sum, want)
				}
			}
		})
	}
}
