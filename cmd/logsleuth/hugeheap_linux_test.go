package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
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
	if hugeHeapSize(linuxHost()) == 0 {
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
	h := reserveHugeHeap(64 << 20)
	var held [][]byte
	in := 0
	for range 8 {
		b := make([]byte, 4<<20)
		for i := range b {
			b[i] = 1
		}
		held = append(held, b)
		if a := uintptr(unsafe.Pointer(unsafe.SliceData(b))); a >= h.at && a < h.at+64<<20 {
			in++
		}
	}
	assert.Positive(t, in, "the heap grows into the reserve")
	flags, huge := smapsOf(t, h.at)
	assert.Contains(t, strings.Fields(flags), "hg", "VmFlags of the reserve's mapping")
	t.Logf("AnonHugePages of the reserve's mapping: %d kB", huge)
	_ = held
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
		if lo, hi, ok := mapRange(ln); ok {
			in = lo <= addr && addr < hi
			continue
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

// mapRange reads the range of a smaps header line.
func mapRange(ln string) (lo, hi uintptr, ok bool) {
	f := strings.Fields(ln)
	if len(f) < 5 {
		return 0, 0, false
	}
	a, b, ok := strings.Cut(f[0], "-")
	if !ok {
		return 0, 0, false
	}
	l, err1 := strconv.ParseUint(a, 16, 64)
	h, err2 := strconv.ParseUint(b, 16, 64)
	return uintptr(l), uintptr(h), err1 == nil && err2 == nil
}
