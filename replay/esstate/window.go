package esstate

import "iter"

// Window is an op history by seq#: a copy's since its last reset, or a
// shard's live history. It keeps the newest MaxOps seq#s: once seq# t has
// been put, every seq# at or below t-MaxOps is gone and putting one does
// nothing, so a long TRACE log costs the window, not the whole log.
//
// A TRACE log puts and looks up an op per line, nearly always near the top
// of the window, so the window is a ring indexed by seq#: a lookup is a
// range test and two loads, with no hashing. The ring holds indexes of
// ops rather than the ops, so a window whose seq#s are spread thin costs
// 4 bytes per seq# of span (at most MaxOps of them), plus its ops; the ops
// live in fixed pages, so a growing window never copies them. The zero
// Window is empty.
type Window struct {
	// ring[q&(len(ring)-1)] is 1 + the index of seq# q's op, or 0. Every
	// seq# held is in [lo, top] and the ring is at least that wide, so a
	// slot holds no seq# but q.
	ring []int32
	// Op k is pages[k/pageOps][k%pageOps]; used of them have been handed
	// out, and those freed since are listed in free.
	pages [][]OpRef
	used  int32
	free  []int32
	// top is the highest seq# put since the window was last empty of
	// history (started); lo is at or below the lowest seq# held; hi is
	// the highest seq# held.
	lo, hi, top int64
	n           int
	started     bool
}

// minRing is the ring's first size; it doubles up to MaxOps as the span of
// the seq#s held requires.
const minRing = 64

// pageOps is how many ops a page of a window holds.
const pageOps = 256

func (w *Window) op(k int32) *OpRef { return &w.pages[k/pageOps][k%pageOps] }

func (w *Window) slot(q int64) int { return int(uint64(q) & uint64(len(w.ring)-1)) }

// Len is the number of seq#s held.
func (w *Window) Len() int { return w.n }

// Get returns the op at seq# q.
func (w *Window) Get(q int64) (OpRef, bool) {
	if w.n == 0 || q < w.lo || q > w.top {
		return OpRef{}, false
	}
	k := w.ring[w.slot(q)]
	if k == 0 {
		return OpRef{}, false
	}
	return *w.op(k - 1), true
}

// Has reports whether seq# q is held.
func (w *Window) Has(q int64) bool {
	return w.n > 0 && q >= w.lo && q <= w.top && w.ring[w.slot(q)] != 0
}

// Max returns the highest seq# held.
func (w *Window) Max() (int64, bool) { return w.hi, w.n > 0 }

// Put sets the op at seq# o.Seq, replacing any op there.
func (w *Window) Put(o OpRef) {
	q := o.Seq
	switch {
	case !w.started:
		w.started, w.top = true, q
	case q <= w.top-MaxOps:
		return
	case q > w.top:
		w.evictThrough(q - MaxOps)
		w.top = q
	}
	if w.n == 0 || q < w.lo {
		w.lo = q
	}
	w.fit(w.top - w.lo + 1)
	i := w.slot(q)
	if k := w.ring[i]; k != 0 {
		*w.op(k - 1) = o
		return
	}
	var k int32
	if f := len(w.free); f > 0 {
		k = w.free[f-1]
		w.free = w.free[:f-1]
	} else {
		k = w.used
		w.used++
		if int(k/pageOps) == len(w.pages) {
			w.pages = append(w.pages, make([]OpRef, pageOps))
		}
	}
	*w.op(k) = o
	w.ring[i] = k + 1
	if w.n == 0 || q > w.hi {
		w.hi = q
	}
	w.n++
}

// Delete removes the op at seq# q, if any.
func (w *Window) Delete(q int64) {
	if !w.Has(q) {
		return
	}
	w.remove(w.slot(q))
	if w.n > 0 && q == w.hi {
		for w.hi--; w.ring[w.slot(w.hi)] == 0; w.hi-- {
		}
	}
}

// DeleteAbove removes the ops above seq# q.
func (w *Window) DeleteAbove(q int64) {
	for w.n > 0 && w.hi > q {
		w.Delete(w.hi)
	}
}

// Reset empties the window and forgets its top: a new history starts.
func (w *Window) Reset() {
	w.empty()
	*w = Window{ring: w.ring, pages: w.pages, free: w.free}
}

// empty removes every op.
func (w *Window) empty() {
	clear(w.ring)
	for _, p := range w.pages {
		clear(p)
	}
	w.used, w.free, w.n = 0, w.free[:0], 0
}

// All yields the ops held in seq# order. Deleting or replacing the op
// yielded is allowed; putting another seq# is not.
func (w *Window) All() iter.Seq[OpRef] {
	return func(yield func(OpRef) bool) {
		if w.n == 0 {
			return
		}
		for q, hi := w.lo, w.hi; q <= hi && w.n > 0; q++ {
			if k := w.ring[w.slot(q)]; k != 0 && !yield(*w.op(k - 1)) {
				return
			}
		}
	}
}

// remove frees the op in ring slot i.
func (w *Window) remove(i int) {
	k := w.ring[i] - 1
	w.ring[i] = 0
	*w.op(k) = OpRef{}
	w.n--
	if w.n == 0 {
		// Start the pages over: the next ops stay close together.
		w.used, w.free = 0, w.free[:0]
		return
	}
	w.free = append(w.free, k)
}

// evictThrough removes the seq#s at or below floor.
func (w *Window) evictThrough(floor int64) {
	if w.n == 0 || floor < w.lo {
		return
	}
	if floor >= w.hi {
		w.empty()
		return
	}
	// floor-lo < hi-lo < len(ring): each seq# has its own slot.
	for q := w.lo; q <= floor; q++ {
		if i := w.slot(q); w.ring[i] != 0 {
			w.remove(i)
		}
	}
	w.lo = floor + 1
}

// fit widens the ring to hold span consecutive seq#s.
func (w *Window) fit(span int64) {
	if span <= int64(len(w.ring)) {
		return
	}
	size := max(len(w.ring), minRing)
	for int64(size) < span {
		size *= 2
	}
	old := w.ring
	w.ring = make([]int32, size)
	for _, k := range old {
		if k != 0 {
			w.ring[w.slot(w.op(k-1).Seq)] = k
		}
	}
}
