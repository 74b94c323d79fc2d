package main

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
)

// Huge pages for the heap. A run's heap grows to its peak early (within
// the first tenth of a second for most logs; over the run for a million
// tablets) and is then reused, and each 4 KiB page of it is faulted in
// once. On a virtual machine a fault costs microseconds (about 6 µs on
// the host the README was measured on: a tenth of a tserver log's CPU, a
// quarter of a TRACE log's). With 2 MiB pages the same heap takes a few
// thousand faults instead of tens of thousands.
//
// Go asks for no huge pages for the heap (GODEBUG=disablethp only turns
// them off), and with transparent_hugepage set to "madvise", as on the
// host the README was measured on, the kernel gives them only to memory
// that asked. Memory the heap maps later is a new mapping that has not
// asked. So once the inputs are planned, before their lines are read,
// the process maps heapReserve bytes of heap at once (bigReserve for
// inputs of bigInput or more): an allocation dropped at once and
// collected. It advises the heap's mappings MADV_HUGEPAGE. The reserve
// is not resident until the heap uses it, and then comes in 2 MiB at a
// time (the runtime zeroes what it reuses of it, which the measurements
// include). After each collection the heap's mappings are advised again,
// for what grew past the reserve; most of that growth has been faulted
// in with small pages by then, so a state far larger than the reserve
// gains little.
//
// It is done once a process, for inputs of at least hugeHeapMin or of a
// size not known, and not under --memprofile (the reserve would be most
// of what the profile shows allocated). It is skipped where it could hurt
// or gains nothing: GODEBUG=disablethp (Go's own switch for no huge
// pages); transparent huge pages "always" (the heap has them already) or
// "never"; huge pages over 32 MiB (64 KiB base pages); strict overcommit
// (vm.overcommit_memory=2, where mapped memory is charged though never
// touched); a limit on the address space or the data segment (ulimit -v,
// ulimit -d: the reserve would count against it, and the runtime cannot
// map more once it is reached); a soft memory limit (GOMEMLIMIT: the
// reserve would count against it until scavenged, and a tight limit
// would force collections and eager scavenging); a 32-bit process. The
// reserve is at most an eighth of the machine's memory. A host that is
// short of free huge pages may stall a fault while the kernel compacts
// memory (transparent_hugepage/defrag); GODEBUG=disablethp=1 turns it
// all off.

// hugeHeapMin is the least input worth the reserve: it costs a small run
// about 5 ms (one or two collections, and huge pages zeroed whole for a
// heap that uses little of them), which a run of 1 MiB of log earns back.
const hugeHeapMin = 1 << 20

// heapSetup is held while the reserve is made, until it has been
// collected: the collector's pacer (gcpace.go) reads the live heap under
// it, so that it never takes the reserve for the run's state.
var heapSetup sync.Mutex

// heapPreparer makes the reserve once.
type heapPreparer struct {
	once sync.Once
	// start makes a reserve of that many bytes.
	start func(reserve int) *hugeHeap
	// profiled reports whether a heap profile was asked for.
	profiled func() bool
}

// processHeap is the process's preparer.
var processHeap = &heapPreparer{start: startHugeHeap, profiled: memProfiled}

// prepareHeap is IOStreams.Prepare for the process.
func prepareHeap(size int64) { processHeap.prepare(size) }

// prepare makes the reserve for inputs of size bytes (-1: unknown, as a
// stream's) unless they are known to be small or a heap profile was
// asked for.
func (p *heapPreparer) prepare(size int64) {
	if reserveFor(size) && !p.profiled() {
		p.once.Do(func() { p.start(reserveSize(size)) })
	}
}

// reserveFor reports whether inputs of size bytes (-1: unknown) are worth
// the reserve.
func reserveFor(size int64) bool { return size < 0 || size >= hugeHeapMin }

// memProfiled reports whether --memprofile was given.
func memProfiled() bool { return profiles != nil && profiles.memFile != "" }

// heapReserve is the heap address space mapped and advised at start: the
// peak of the benchmark logs' runs (50-120 MiB) fits it.
const heapReserve = 256 << 20

// bigReserve is the reserve for inputs of bigInput or more: a large state
// (a million tablets: 750 MiB) then grows inside it. It costs a run 4-6 ms
// more than heapReserve (the runtime's per-page span metadata for it,
// written in full), which a small input would feel and a large one does
// not.
const (
	bigReserve = 1 << 30
	bigInput   = 64 << 20
)

// reserveSize is the reserve for inputs of size bytes (-1: unknown).
func reserveSize(size int64) int {
	if size >= bigInput {
		return bigReserve
	}
	return heapReserve
}

// maxHugePage is the largest huge page the reserve is made for.
const maxHugePage = 32 << 20

// hugeHeapHost is what hugeHeapSize reads of the host.
type hugeHeapHost struct {
	// godebug is $GODEBUG.
	godebug string
	// thp is /sys/kernel/mm/transparent_hugepage/enabled, hugePage
	// transparent_hugepage/hpage_pmd_size, overcommit
	// /proc/sys/vm/overcommit_memory and meminfo /proc/meminfo ("" when
	// unreadable).
	thp, hugePage, overcommit, meminfo string
	// limited is whether the address space or the data segment is limited
	// (RLIMIT_AS, RLIMIT_DATA), memLimited whether the runtime has a soft
	// memory limit (GOMEMLIMIT).
	limited, memLimited bool
}

// hugeHeapSize returns how much heap to reserve with huge pages on host
// for a run that wants want bytes, or 0 for none.
func hugeHeapSize(h hugeHeapHost, want int) int {
	for _, kv := range strings.Split(h.godebug, ",") {
		if k, v, _ := strings.Cut(strings.TrimSpace(kv), "="); k == "disablethp" && v != "0" && v != "" {
			return 0
		}
	}
	if !strings.Contains(h.thp, "[madvise]") || strings.TrimSpace(h.overcommit) == "2" || h.limited || h.memLimited {
		return 0
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(h.hugePage), 10, 64); err != nil || n <= 0 || n > maxHugePage {
		return 0
	}
	total := memTotal(h.meminfo)
	if total <= 0 {
		return 0
	}
	return int(min(int64(want), total/8))
}

// memTotal is /proc/meminfo's MemTotal in bytes, or 0.
func memTotal(meminfo string) int64 {
	for _, ln := range strings.Split(meminfo, "\n") {
		rest, ok := strings.CutPrefix(ln, "MemTotal:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb <= 0 {
			return 0
		}
		return kb << 10
	}
	return 0
}

// span is an address range [lo, hi).
type span struct{ lo, hi uintptr }

// anonSpans returns the private, writable, anonymous mappings that
// /proc/self/maps lists (the heap's arenas are such mappings), in the
// file's order, which is by address. A kernel that names anonymous
// mappings lists the runtime's with their names (`[anon: Go: heap]`).
func anonSpans(maps []byte) []span {
	var out []span
	for ln := range bytes.Lines(maps) {
		// start-end perms offset dev inode [path]
		f := bytes.Fields(ln)
		if len(f) < 5 || len(f) > 5 && !bytes.HasPrefix(f[5], []byte("[anon:")) ||
			string(f[1]) != "rw-p" || string(f[3]) != "00:00" || string(f[4]) != "0" {
			continue
		}
		if s, ok := mapRange(f[0]); ok {
			out = append(out, s)
		}
	}
	return out
}

// mapRange reads a maps line's range, `start-end` in hex.
func mapRange(field []byte) (span, bool) {
	lo, hi, ok := bytes.Cut(field, []byte("-"))
	if !ok {
		return span{}, false
	}
	l, err1 := strconv.ParseUint(string(lo), 16, 64)
	h, err2 := strconv.ParseUint(string(hi), 16, 64)
	if err1 != nil || err2 != nil || h <= l {
		return span{}, false
	}
	return span{uintptr(l), uintptr(h)}, true
}

// heapSpans returns the mappings of spans that make up the heap: the one
// holding at, and those that adjoin it on either side, one after the
// other (the heap grows by mapping the address space next to what it
// has). Mappings apart from it, such as the runtime's own metadata, are
// left out: advised, a sparse table would take a huge page per page it
// touches.
func heapSpans(spans []span, at uintptr) []span {
	k := -1
	for i, s := range spans {
		if s.lo <= at && at < s.hi {
			k = i
			break
		}
	}
	if k < 0 {
		return nil
	}
	lo, hi := k, k
	for lo > 0 && spans[lo-1].hi == spans[lo].lo {
		lo--
	}
	for hi+1 < len(spans) && spans[hi+1].lo == spans[hi].hi {
		hi++
	}
	return spans[lo : hi+1]
}
