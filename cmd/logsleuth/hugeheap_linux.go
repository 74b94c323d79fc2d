package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"syscall"
	"unsafe"
)

// madvHugePage is MADV_HUGEPAGE (linux/mman.h).
const madvHugePage = 14

// startHugeHeap reserves want bytes and advises the heap (see
// hugeheap.go) where the host allows it, and has it advised again after
// each collection; it returns nil where the host does not.
func startHugeHeap(want int) *hugeHeap {
	if unsafe.Sizeof(uintptr(0)) < 8 {
		// A 32-bit process's address space has no room to spare.
		return nil
	}
	size := hugeHeapSize(linuxHost(), want)
	if size == 0 {
		return nil
	}
	h := reserveHugeHeap(size)
	h.watch()
	return h
}

// reserveHugeHeap maps size bytes of heap at once and advises the heap's
// mappings.
func reserveHugeHeap(size int) *hugeHeap {
	// The allocation maps fresh heap of its own size. Nothing refers to
	// it past KeepAlive, so the collection below frees it whole, its pages
	// untouched, for the heap to grow into. A collection its size sets
	// off may find it live; runtime.GC waits that one out and runs one of
	// its own, and the pacer waits for heapSetup, so it reads the live
	// heap of that one.
	heapSetup.Lock()
	defer heapSetup.Unlock()
	b := make([]byte, size)
	at := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	runtime.KeepAlive(b)
	h := &hugeHeap{at: at}
	h.advise()
	runtime.GC()
	return h
}

// linuxHost reads what hugeHeapSize needs.
func linuxHost() hugeHeapHost {
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			return ""
		}
		return string(b)
	}
	limited := false
	for _, r := range []int{syscall.RLIMIT_AS, syscall.RLIMIT_DATA} {
		var lim syscall.Rlimit
		if syscall.Getrlimit(r, &lim) != nil || lim.Cur != ^uint64(0) { // RLIM_INFINITY
			limited = true
		}
	}
	return hugeHeapHost{
		godebug:    os.Getenv("GODEBUG"),
		thp:        read("/sys/kernel/mm/transparent_hugepage/enabled"),
		hugePage:   read("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"),
		overcommit: read("/proc/sys/vm/overcommit_memory"),
		meminfo:    read("/proc/meminfo"),
		limited:    limited,
		// A negative limit reads the limit without changing it.
		memLimited: debug.SetMemoryLimit(-1) != math.MaxInt64,
	}
}

// hugeHeap advises the heap's mappings.
type hugeHeap struct {
	// at is an address in the heap (the reserve's).
	at uintptr
}

// advise advises every heap mapping (again: advising a mapping twice
// changes nothing, and the heap is a few mappings). It reports false once
// /proc/self/maps cannot be read, and the heap is then left as it is.
func (h *hugeHeap) advise() bool {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return false
	}
	for _, s := range heapSpans(anonSpans(maps), h.at) {
		// An advice that fails changes nothing: the heap keeps its
		// small pages.
		syscall.Syscall(syscall.SYS_MADVISE, s.lo, s.hi-s.lo, madvHugePage)
	}
	return true
}

// watch advises the heap again after each collection.
func (h *hugeHeap) watch() { afterCollections(h.advise) }
