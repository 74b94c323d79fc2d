package ybstate

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// The index gives back what was put under each id, as a map of strings
// would, whatever the ids: 32 lowercase hex digits (held as bytes), the
// same in capitals or with one capital (other tablets), one digit more
// or less, a byte that is no hex digit, and ids that are not tablet ids
// at all.
func TestTabletIndexIsAMapOfIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var ids []string
	for range 500 {
		id := fmt.Sprintf("%016x%016x", rng.Uint64(), rng.Uint64())
		i := rng.IntN(32)
		ids = append(ids, id, strings.ToUpper(id), id[:i]+strings.ToUpper(id[i:i+1])+id[i+1:],
			id[:31], id+"0", id[:i]+"g"+id[i+1:], id[:i]+"\x00"+id[i+1:])
	}
	ids = append(ids, "", "a", "tablet-1", strings.Repeat("0", 32), strings.Repeat("f", 32), strings.Repeat("F", 32),
		strings.Repeat("/", 32), strings.Repeat(":", 32), strings.Repeat("`", 32), strings.Repeat("G", 32))
	var x tabletIndex
	want := map[string]*tabletEntry{}
	for _, id := range ids {
		if x.get(id) != want[id] {
			t.Fatalf("get(%q) before put: %p, want %p", id, x.get(id), want[id])
		}
		if want[id] == nil {
			e := &tabletEntry{raft: TabletRaft{Tablet: id}}
			x.put(id, e)
			want[id] = e
		}
	}
	for id, e := range want {
		if got := x.get(id); got != e {
			t.Fatalf("get(%q) = %q, want its own entry", id, got.raft.Tablet)
		}
	}
	hex := 0
	for id := range want {
		if len(id) == 32 && strings.Trim(id, "0123456789abcdef") == "" {
			hex++
		}
	}
	if len(x.hex) != hex || len(x.other) != len(want)-hex || hex < 500 {
		t.Fatalf("%d ids held as bytes and %d as strings, want %d and %d", len(x.hex), len(x.other), hex, len(want)-hex)
	}
	for k := range x.hex {
		if id := fmt.Sprintf("%x", k[:]); want[id] == nil {
			t.Fatalf("bytes %x held for no id put", k)
		}
	}
}
