package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The collector's pace. What a run keeps live is the replayed state: for
// most logs a few tens of MiB (each copy's newest ops, each tablet's
// recent terms and leases), growing with the number of tablets and
// shards, not with the log's length. Everything else the heap holds is
// the events and line texts on their way to that state, garbage a few
// batches later, and they are made at the speed the log is read (a TRACE
// log makes about twice its size). Under Go's default pace (GOGC=100) the
// collector runs each time the heap doubles over what was live, so a
// small state is marked over and over, with write barriers on for much of
// the run: 5-10% of the CPU of the benchmark logs (scripts/bench.sh).
//
// So while the live heap is under smallHeap, the heap may grow to three
// times what is live (GOGC=200): at most about 3*smallHeap. Once the
// state passes smallHeap (a million tablets), the default pace comes
// back for the rest of the run, and a large state costs the memory it
// did. GOGC set in the environment is the user's choice and is kept.

// smallHeap is the live heap up to which the collector runs at gcRaised.
const smallHeap = 64 << 20

// gcRaised is the collector's percent (GOGC) while the live heap is small.
const gcRaised = 200

// gcPacer watches the live heap after each collection and puts the
// default pace back once it passes smallHeap.
type gcPacer struct {
	// live returns the heap the last collection found live.
	live func() uint64
	// set sets the collector's percent (debug.SetGCPercent).
	set func(percent int)
}

// newGCPacer returns the pacer of a run, or nil when the environment sets
// GOGC.
func newGCPacer(getenv func(string) string) *gcPacer {
	if getenv("GOGC") != "" {
		return nil
	}
	return &gcPacer{live: liveHeap, set: func(p int) { debug.SetGCPercent(p) }}
}

// start raises the pace and watches the collections that follow.
func (p *gcPacer) start() {
	if p == nil {
		return
	}
	p.set(gcRaised)
	p.watch()
}

// after is called once a collection is done; it reports whether the
// pacer goes on watching (the live heap is still small). While the heap's
// reserve is being made (hugeheap.go) a collection may find the reserve
// live, which is not the run's state: after waits until it is collected.
func (p *gcPacer) after() bool {
	heapSetup.Lock()
	defer heapSetup.Unlock()
	if p.live() < smallHeap {
		return true
	}
	p.set(100)
	return false
}

// gcSentinel is an object nothing refers to, whose finalizer says a
// collection has run. It holds a pointer so that it is an object of its
// own (the allocator packs small pointer-free objects together, and a
// finalizer on one of those may never run).
type gcSentinel struct{ _ *byte }

// afterCollections calls fn once the next collection is done, and again
// after each one after that, for as long as fn returns true.
func afterCollections(fn func() bool) {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		if fn() {
			afterCollections(fn)
		}
	})
}

// watch calls after once the next collection is done, and again after
// each one after that, for as long as after asks.
func (p *gcPacer) watch() { afterCollections(p.after) }

// liveHeap returns the heap the last collection marked live; a runtime
// that does not say counts as a large heap, so the pace is the default.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return ^uint64(0)
	}
	return s[0].Value.Uint64()
}
