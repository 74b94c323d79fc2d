package main

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pacerLog records what a pacer set.
type pacerLog struct {
	mu   sync.Mutex
	sets []int
}

func (l *pacerLog) set(p int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sets = append(l.sets, p)
}

func (l *pacerLog) got() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]int(nil), l.sets...)
}

func TestGCPacerKeepsGOGC(t *testing.T) {
	assert.Nil(t, newGCPacer(func(k string) string {
		if k == "GOGC" {
			return "50"
		}
		return ""
	}), "GOGC in the environment is the user's")
	p := newGCPacer(func(string) string { return "" })
	require.NotNil(t, p)
	(*gcPacer)(nil).start() // no pacer, nothing to do
}

func TestGCPacerAfter(t *testing.T) {
	var log pacerLog
	heaps := []uint64{1 << 20, smallHeap - 1, smallHeap}
	p := &gcPacer{live: func() uint64 { h := heaps[0]; heaps = heaps[1:]; return h }, set: log.set}
	p.set(gcRaised)
	assert.True(t, p.after(), "1 MiB live")
	assert.True(t, p.after(), "just under smallHeap")
	assert.Equal(t, []int{gcRaised}, log.got(), "the pace stays raised while the heap is small")
	assert.False(t, p.after(), "smallHeap live")
	assert.Equal(t, []int{gcRaised, 100}, log.got(), "the default comes back once")
}

// TestGCPacerWaitsForReserve: a collection may find the heap's reserve
// live (hugeheap.go); the pacer must read the live heap only once the
// reserve is collected, or it would take the reserve for the run's state
// and drop the raised pace.
func TestGCPacerWaitsForReserve(t *testing.T) {
	var log pacerLog
	var live atomic.Uint64
	live.Store(4 * smallHeap) // the reserve, found live
	p := &gcPacer{live: live.Load, set: log.set}
	heapSetup.Lock()
	done := make(chan bool)
	go func() { done <- p.after() }()
	select {
	case <-done:
		heapSetup.Unlock()
		t.Fatal("the pacer read the live heap while the reserve was being made")
	case <-time.After(50 * time.Millisecond):
	}
	live.Store(1 << 20) // collected
	heapSetup.Unlock()
	assert.True(t, <-done, "the live heap is small once the reserve is collected")
	assert.Empty(t, log.got(), "the pace is left raised")
}

// TestGCPacerWatchesCollections runs real collections: the pacer must
// hear of each one, keep the raised pace while the live heap is small,
// and put the default back once it is not.
func TestGCPacerWatchesCollections(t *testing.T) {
	var log pacerLog
	heard := make(chan uint64, 64)
	p := &gcPacer{live: func() uint64 { h := liveHeap(); heard <- h; return h }, set: log.set}
	p.start()
	wait := func() uint64 {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			runtime.GC()
			select {
			case h := <-heard:
				return h
			case <-time.After(20 * time.Millisecond):
			case <-deadline:
				t.Fatal("no collection reached the pacer")
			}
		}
	}
	if h := wait(); h >= smallHeap {
		t.Skipf("the test's heap is already %d bytes live", h)
	}
	wait()
	assert.Equal(t, []int{gcRaised}, log.got(), "small heap: still raised after two collections")
	ballast := make([]byte, smallHeap+(8<<20))
	for wait() < smallHeap {
	}
	runtime.KeepAlive(ballast)
	// live has answered; after sets the default right after it returns.
	require.Eventually(t, func() bool { return len(log.got()) == 2 }, 10*time.Second, time.Millisecond)
	assert.Equal(t, []int{gcRaised, 100}, log.got())
	// The pacer stops watching: no more sets however many collections.
	runtime.GC()
	runtime.GC()
	time.Sleep(50 * time.Millisecond)
	assert.Equal(t, []int{gcRaised, 100}, log.got())
}
