package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReserveHugeHeap makes the reserve and checks that the heap mapping
// holding it is advised, and that memory the heap then hands out lies in
// it. It runs in a process of its own, whose heap is fresh: in one that
// has run other tests, the heap hands out the free memory lowest in it
// first, and the reserve is above that.
func TestReserveHugeHeap(t *testing.T) {
	if hugeHeapSize(linuxHost(), heapReserve) == 0 {
		t.Skip("this host gives the heap no huge pages on advice")
	}
	if os.Getenv("LOGSLEUTH_TEST_RESERVE") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestReserveHugeHeap$", "-test.v")
		cmd.Env = append(os.Environ(), "LOGSLEUTH_TEST_RESERVE=1")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		assert.Contains(t, string(out), "AnonHugePages of the reserve's mapping")
		return
	}
	size := uintptr(hugeHeapSize(linuxHost(), heapReserve))
	h := startHugeHeap(heapReserve)
	require.NotNil(t, h)
	maps, err := os.ReadFile("/proc/self/maps")
	require.NoError(t, err)
	heap := heapSpans(anonSpans(maps), h.at)
	require.NotEmpty(t, heap)
	assert.GreaterOrEqual(t, heap[len(heap)-1].hi-h.at, size, "the heap is mapped past the whole reserve")
	var held [][]byte
	in := 0
	for range 8 {
		b := make([]byte, 4<<20)
		for i := range b {
			b[i] = 1
		}
		held = append(held, b)
		if a := uintptr(unsafe.Pointer(unsafe.SliceData(b))); a >= h.at && a < h.at+size {
			in++
		}
	}
	assert.Positive(t, in, "the heap grows into the reserve")
	flags, huge := smapsOf(t, h.at)
	assert.Contains(t, strings.Fields(flags), "hg", "VmFlags of the reserve's mapping")
	t.Logf("AnonHugePages of the reserve's mapping: %d kB", huge)

	// Past the reserve the heap maps more; once a collection has run,
	// that is advised too, and so is what the heap maps after the next.
	for round := range 2 {
		maps, err := os.ReadFile("/proc/self/maps")
		require.NoError(t, err)
		heap := heapSpans(anonSpans(maps), h.at)
		end := heap[len(heap)-1].hi
		var past uintptr
		for range 64 {
			b := make([]byte, 4<<20)
			held = append(held, b)
			if a := uintptr(unsafe.Pointer(unsafe.SliceData(b))); a >= end {
				past = a
				break
			}
		}
		require.NotZero(t, past, "round %d: the heap grew past its mappings", round)
		advised := false
		for range 100 {
			runtime.GC()
			if flags, _ := smapsOf(t, past); slices.Contains(strings.Fields(flags), "hg") {
				advised = true
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		assert.True(t, advised, "round %d: the heap mapped past the reserve is advised after a collection", round)
	}
	runtime.KeepAlive(held)
}

// TestLinuxHostReads checks what linuxHost reads against the files and
// limits themselves, in a process of its own, whose data segment it
// limits.
func TestLinuxHostReads(t *testing.T) {
	if os.Getenv("LOGSLEUTH_TEST_LIMITS") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLinuxHostReads$", "-test.v")
		cmd.Env = append(os.Environ(), "LOGSLEUTH_TEST_LIMITS=1", "GODEBUG=gctrace=0", "GOMEMLIMIT=")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		assert.Contains(t, string(out), "--- PASS: TestLinuxHostReads")
		return
	}
	h := linuxHost()
	assert.Equal(t, "gctrace=0", h.godebug)
	assert.False(t, h.memLimited, "no GOMEMLIMIT")
	was := debug.SetMemoryLimit(1 << 40)
	assert.True(t, linuxHost().memLimited, "a soft memory limit, however large")
	assert.Equal(t, int64(1<<40), debug.SetMemoryLimit(-1), "reading the limit leaves it as it was")
	debug.SetMemoryLimit(was)
	if b, err := os.ReadFile("/proc/sys/vm/overcommit_memory"); err == nil {
		assert.Equal(t, string(b), h.overcommit)
	}
	if _, err := os.Stat("/proc/meminfo"); err == nil {
		assert.Positive(t, memTotal(h.meminfo))
	}
	if b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err == nil {
		assert.Equal(t, string(b), h.thp)
	}
	if b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"); err == nil {
		assert.Equal(t, string(b), h.hugePage)
	}
	var lim syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_DATA, &lim))
	if lim.Cur == ^uint64(0) {
		var as syscall.Rlimit
		require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_AS, &as))
		assert.Equal(t, as.Cur != ^uint64(0), h.limited, "no data limit: limited only by an address-space one")
	}
	limit := func(r int, what string) {
		var lim, was syscall.Rlimit
		require.NoError(t, syscall.Getrlimit(r, &lim))
		was = lim
		lim.Cur = min(lim.Max, 1<<44)
		require.NoError(t, syscall.Setrlimit(r, &lim))
		assert.True(t, linuxHost().limited, "%s, however large", what)
		assert.Zero(t, hugeHeapSize(linuxHost(), heapReserve), what)
		require.NoError(t, syscall.Setrlimit(r, &was))
	}
	limit(syscall.RLIMIT_AS, "an address-space limit")
	limit(syscall.RLIMIT_DATA, "a data limit")
}

// smapsOf returns the VmFlags and AnonHugePages (kB) of the mapping
// /proc/self/smaps lists at addr.
func smapsOf(t *testing.T, addr uintptr) (flags string, hugeKB int) {
	t.Helper()
	b, err := os.ReadFile("/proc/self/smaps")
	require.NoError(t, err)
	sc := bufio.NewScanner(bytes.NewReader(b))
	in := false
	for sc.Scan() {
		ln := sc.Text()
		if f := strings.Fields(ln); len(f) >= 5 {
			if s, ok := mapRange([]byte(f[0])); ok {
				in = s.lo <= addr && addr < s.hi
				continue
			}
		}
		if !in {
			continue
		}
		if v, ok := strings.CutPrefix(ln, "VmFlags:"); ok {
			return v, hugeKB
		}
		if v, ok := strings.CutPrefix(ln, "AnonHugePages:"); ok {
			hugeKB, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	t.Fatalf("no mapping at %#x", addr)
	return "", 0
}
