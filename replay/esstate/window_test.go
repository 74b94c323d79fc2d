package esstate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mapWindow is the window's meaning, spelled with a map: every seq# put
// since the last reset, except those at or below top-MaxOps, where top is
// the highest seq# put since then.
type mapWindow struct {
	m       map[int64]OpRef
	top     int64
	started bool
}

func (w *mapWindow) put(o OpRef) {
	switch {
	case !w.started:
		w.started, w.top = true, o.Seq
	case o.Seq <= w.top-MaxOps:
		return
	case o.Seq > w.top:
		w.top = o.Seq
		for q := range w.m {
			if q <= w.top-MaxOps {
				delete(w.m, q)
			}
		}
	}
	w.m[o.Seq] = o
}

func (w *mapWindow) deleteAbove(q int64) {
	for k := range w.m {
		if k > q {
			delete(w.m, k)
		}
	}
}

func (w *mapWindow) sorted() []OpRef {
	keys := make([]int64, 0, len(w.m))
	for q := range w.m {
		keys = append(keys, q)
	}
	slices.Sort(keys)
	out := make([]OpRef, len(keys))
	for i, q := range keys {
		out[i] = w.m[q]
	}
	return out
}

func all(w *Window) []OpRef {
	out := []OpRef{}
	for o := range w.All() {
		out = append(out, o)
	}
	return out
}

// same checks every way of reading w against the map.
func same(t *testing.T, want *mapWindow, w *Window, step string) {
	t.Helper()
	require.Equal(t, len(want.m), w.Len(), step)
	sorted := want.sorted()
	require.Equal(t, sorted, all(w), step)
	hi, ok := w.Max()
	require.Equal(t, len(sorted) > 0, ok, step)
	if ok {
		require.Equal(t, sorted[len(sorted)-1].Seq, hi, step)
	}
	for _, q := range []int64{want.top - MaxOps, want.top - MaxOps + 1, want.top, want.top + 1} {
		o, ok := w.Get(q)
		wo, wok := want.m[q]
		require.Equal(t, wok, ok, "%s: Get(%d)", step, q)
		require.Equal(t, wo, o, "%s: Get(%d)", step, q)
		require.Equal(t, wok, w.Has(q), "%s: Has(%d)", step, q)
	}
}

// The ring gives the map's answers on random histories shaped like TRACE
// logs: mostly rising seq#s a little out of order, with jumps far ahead,
// late ops far behind, deletes, rollbacks and resets.
func TestWindowMatchesMap(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 99))
			want := &mapWindow{m: map[int64]OpRef{}}
			var w Window
			next := int64(rng.IntN(100))
			for i := range 60_000 {
				var step string
				switch r := rng.IntN(1000); {
				case r < 700: // the next op, a little out of order
					q := max(0, next+int64(rng.IntN(9))-4)
					next++
					o := OpRef{Seq: q, Doc: fmt.Sprint("d", i), Term: int64(i)}
					want.put(o)
					w.Put(o)
					step = fmt.Sprintf("put %d", q)
				case r < 850: // a lookup-and-replace near the top
					q := max(0, next-int64(rng.IntN(64)))
					o := OpRef{Seq: q, Doc: fmt.Sprint("r", i)}
					want.put(o)
					w.Put(o)
					step = fmt.Sprintf("replace %d", q)
				case r < 930: // delete near the top
					q := next - int64(rng.IntN(32))
					delete(want.m, q)
					w.Delete(q)
					step = fmt.Sprintf("delete %d", q)
				case r < 960: // a late op anywhere below, even outside the window
					q := max(0, next-int64(rng.IntN(3*MaxOps)))
					o := OpRef{Seq: q, Doc: "late"}
					want.put(o)
					w.Put(o)
					step = fmt.Sprintf("late %d", q)
				case r < 975: // a jump ahead, sometimes past the whole window
					next += int64(rng.IntN(2 * MaxOps))
					o := OpRef{Seq: next, Doc: "jump"}
					want.put(o)
					w.Put(o)
					step = fmt.Sprintf("jump %d", next)
				case r < 990: // a rollback
					q := next - int64(rng.IntN(200))
					want.deleteAbove(q)
					w.DeleteAbove(q)
					step = fmt.Sprintf("delete above %d", q)
				case r < 995: // a sparse spell: a few ops far apart
					for range 5 {
						next += int64(rng.IntN(MaxOps / 4))
						o := OpRef{Seq: next, Doc: "sparse"}
						want.put(o)
						w.Put(o)
					}
					step = fmt.Sprintf("sparse to %d", next)
				default: // a new allocation: the history starts over
					want.m, want.started = map[int64]OpRef{}, false
					w.Reset()
					next = int64(rng.IntN(1000))
					step = "reset"
				}
				if i%97 == 0 || step == "reset" {
					same(t, want, &w, fmt.Sprintf("step %d (%s)", i, step))
				}
			}
			same(t, want, &w, "end")
		})
	}
}

func TestWindowWrapsAroundAndEvictsOldestFirst(t *testing.T) {
	var w Window
	for q := range int64(3 * MaxOps) {
		w.Put(OpRef{Seq: q})
		if q == MaxOps-1 {
			require.Equal(t, MaxOps, w.Len(), "full, nothing evicted yet")
			require.True(t, w.Has(0))
		}
	}
	assert.Equal(t, MaxOps, w.Len())
	assert.Len(t, w.ring, MaxOps, "the ring stops growing at MaxOps")
	assert.False(t, w.Has(2*MaxOps-1), "the oldest seq#s went first")
	assert.True(t, w.Has(2*MaxOps))
	got := all(&w)
	require.Len(t, got, MaxOps)
	assert.Equal(t, int64(2*MaxOps), got[0].Seq)
	assert.Equal(t, int64(3*MaxOps-1), got[MaxOps-1].Seq)

	// Too old to keep: putting it changes nothing.
	w.Put(OpRef{Seq: 2*MaxOps - 1, Doc: "late"})
	assert.False(t, w.Has(2*MaxOps-1))
	assert.Equal(t, MaxOps, w.Len())

	// A jump past the window empties it.
	w.Put(OpRef{Seq: 10 * MaxOps})
	assert.Equal(t, []OpRef{{Seq: 10 * MaxOps}}, all(&w))
}

func TestWindowOutOfOrder(t *testing.T) {
	var w Window
	for _, q := range []int64{10, 7, 12, 8, 11, 9} {
		w.Put(OpRef{Seq: q, Doc: fmt.Sprint(q)})
	}
	var got []int64
	for o := range w.All() {
		got = append(got, o.Seq)
	}
	assert.Equal(t, []int64{7, 8, 9, 10, 11, 12}, got)
	o, ok := w.Get(9)
	assert.True(t, ok)
	assert.Equal(t, "9", o.Doc)
	w.Delete(12)
	hi, _ := w.Max()
	assert.Equal(t, int64(11), hi, "the highest held after the highest went")
	w.DeleteAbove(8)
	assert.Equal(t, 2, w.Len())
	hi, _ = w.Max()
	assert.Equal(t, int64(8), hi)
}

// A copy whose seq#s are far apart holds a small ring: its memory follows
// the span it must cover and its op count, not MaxOps ops.
func TestWindowSparse(t *testing.T) {
	var w Window
	w.Put(OpRef{Seq: 5})
	w.Put(OpRef{Seq: 5 + MaxOps - 1})
	assert.Equal(t, 2, w.Len())
	assert.Len(t, w.ring, MaxOps)
	assert.Len(t, w.pages, 1)
	w.Put(OpRef{Seq: 5 + MaxOps})
	assert.False(t, w.Has(5))
	assert.Equal(t, 2, w.Len())
}

// Deleting and evicting drop the ops' strings, so a long log does not keep
// the text of lines it has moved past.
func TestWindowReleasesTexts(t *testing.T) {
	var w Window
	for q := range int64(MaxOps + 100) {
		w.Put(OpRef{Seq: q, At: Ref{Text: "line"}})
	}
	w.Delete(MaxOps + 50)
	texts := func() int {
		n := 0
		for _, p := range w.pages {
			for _, o := range p {
				if o.At.Text != "" {
					n++
				}
			}
		}
		return n
	}
	assert.Equal(t, w.Len(), texts())
	w.Reset()
	assert.Zero(t, w.Len())
	assert.Empty(t, all(&w))
	assert.Zero(t, texts())
}

// A long log keeps only the newest MaxOps seq#s per copy and per shard.
func TestOpsAreBounded(t *testing.T) {
	s := New()
	sh := s.Shard(ShardID{"i", 0})
	c := sh.Copy("n0", "n0")
	for q := range int64(MaxOps + MaxOps/2) {
		c.putOp(OpRef{Seq: q})
		sh.History.Put(OpRef{Seq: q})
	}
	for _, w := range []*Window{&c.Ops, &sh.History} {
		assert.Equal(t, MaxOps, w.Len())
		assert.False(t, w.Has(MaxOps/2-1))
		assert.True(t, w.Has(MaxOps/2))
	}
	assert.Equal(t, int64(MaxOps+MaxOps/2-1), c.maxOp())
}
