package replay

import (
	"container/heap"
	"math"

	"github.com/logsleuth/logsleuth/parse"
)

// Producer writes one source's events, in line order, to emit, and
// returns when the source is done.
type Producer func(emit func(parse.Event))

// batchSize is how many events a producer hands over at a time: enough to
// make channel traffic negligible, small enough to keep memory flat.
const batchSize = 512

// weighed is an event that holds many lines' worth of values (an MVCC
// dump part): a batch counts its Weight, so a batch of them stays small.
type weighed interface{ Weight() int }

// Stream runs the producers concurrently (one goroutine each, so several
// inputs decode on several cores) and calls fn with their events in the
// order Merge would give: by wall time across sources, ties by producer
// order, line order within a source. Only a few batches per source are held
// at once, so memory does not grow with the input.
func Stream(producers []Producer, fn func(parse.Event)) {
	heads := make(mergeHeap, 0, len(producers))
	for i, p := range producers {
		ch := make(chan []parse.Event, 4)
		go func() {
			defer close(ch)
			batch := make([]parse.Event, 0, batchSize)
			weight := 0
			p(func(e parse.Event) {
				batch = append(batch, e)
				weight++
				if w, ok := e.(weighed); ok {
					weight += w.Weight()
				}
				if weight >= batchSize {
					ch <- batch
					batch, weight = make([]parse.Event, 0, batchSize), 0
				}
			})
			if len(batch) > 0 {
				ch <- batch
			}
		}()
		h := &head{stream: i, ch: ch, high: math.MinInt64}
		if h.advance() {
			heads = append(heads, h)
		}
	}
	if len(heads) == 1 {
		// One source: its events are already in the order Merge gives.
		h := heads[0]
		for {
			for _, e := range h.batch[h.idx:] {
				fn(e)
			}
			b, ok := <-h.ch
			if !ok {
				return
			}
			h.batch, h.idx = b, 0
		}
	}
	heap.Init(&heads)
	for len(heads) > 0 {
		h := heads[0]
		fn(h.batch[h.idx])
		h.idx++
		h.seq++
		if h.advance() {
			heap.Fix(&heads, 0)
		} else {
			heap.Pop(&heads)
		}
	}
}

// head is one producer's next event.
type head struct {
	stream int
	ch     chan []parse.Event
	batch  []parse.Event
	idx    int
	seq    int
	// high is the latest time seen in this source: within a source, line
	// order wins over a clock that steps back.
	high int64
	key  int64
}

// advance moves to the next event, receiving a batch when needed, and
// reports whether there is one.
func (h *head) advance() bool {
	for h.idx >= len(h.batch) {
		b, ok := <-h.ch
		if !ok {
			return false
		}
		h.batch, h.idx = b, 0
	}
	if t := timeKey(h.batch[h.idx]); t > h.high {
		h.high = t
	}
	h.key = h.high
	return true
}

type mergeHeap []*head

func (m mergeHeap) Len() int { return len(m) }
func (m mergeHeap) Less(i, j int) bool {
	if m[i].key != m[j].key {
		return m[i].key < m[j].key
	}
	return m[i].stream < m[j].stream
}
func (m mergeHeap) Swap(i, j int) { m[i], m[j] = m[j], m[i] }
func (m *mergeHeap) Push(x any)   { *m = append(*m, x.(*head)) }
func (m *mergeHeap) Pop() any {
	old := *m
	x := old[len(old)-1]
	*m = old[:len(old)-1]
	return x
}

// timeKey orders events by wall time; an event with none sorts first.
func timeKey(e parse.Event) int64 {
	if t := e.Info().Time; !t.IsZero() {
		return t.UnixNano()
	}
	return math.MinInt64
}
