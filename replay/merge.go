package replay

import (
	"sort"

	"github.com/logsleuth/logsleuth/parse"
)

// Merge interleaves the events of several sources into one timeline: by
// wall time across sources, ties broken by the sources' order, and line
// order kept within a source. streams[i] must be in line order.
//
// The sources' order is the caller's; to make the result independent of the
// order the user named them in, sort streams by source name first.
func Merge(streams [][]parse.Event) []parse.Event {
	n := 0
	for _, s := range streams {
		n += len(s)
	}
	type at struct {
		ev     parse.Event
		stream int
		idx    int
	}
	all := make([]at, 0, n)
	for si, s := range streams {
		for i, e := range s {
			all = append(all, at{e, si, i})
		}
	}
	// Within one source, an event's time can be earlier than the one before
	// it (clock steps, untimed lines); line order must win there, so each
	// event sorts by the latest time seen so far in its source.
	keys := make([]int64, len(all))
	var (
		prevStream = -1
		high       int64
	)
	for i, a := range all {
		t := timeKey(a.ev)
		if a.stream != prevStream {
			prevStream, high = a.stream, t
		}
		if t > high {
			high = t
		}
		keys[i] = high
	}
	idx := make([]int, len(all))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool {
		a, b := idx[x], idx[y]
		if keys[a] != keys[b] {
			return keys[a] < keys[b]
		}
		if all[a].stream != all[b].stream {
			return all[a].stream < all[b].stream
		}
		return all[a].idx < all[b].idx
	})
	out := make([]parse.Event, len(all))
	for i, j := range idx {
		out[i] = all[j].ev
	}
	return out
}
