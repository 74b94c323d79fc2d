package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// madviseHost is a host where the reserve is made: transparent huge pages
// on madvise, heuristic overcommit, 16 GiB.
func madviseHost() hugeHeapHost {
	return hugeHeapHost{
		thp:        "always [madvise] never\n",
		hugePage:   "2097152\n",
		overcommit: "0\n",
		meminfo:    "MemTotal:       16384000 kB\nMemFree:         1000 kB\n",
	}
}

func TestHugeHeapSize(t *testing.T) {
	assert.Equal(t, heapReserve, hugeHeapSize(madviseHost(), heapReserve))
	assert.Equal(t, bigReserve, hugeHeapSize(madviseHost(), bigReserve), "an eighth of 16 GB is more")
	for name, change := range map[string]func(*hugeHeapHost){
		"GODEBUG=disablethp=1":          func(h *hugeHeapHost) { h.godebug = "disablethp=1" },
		"GODEBUG=disablethp=2":          func(h *hugeHeapHost) { h.godebug = "disablethp=2" },
		"64 KiB base pages":             func(h *hugeHeapHost) { h.hugePage = "536870912\n" },
		"huge page size unreadable":     func(h *hugeHeapHost) { h.hugePage = "" },
		"huge page size not a number":   func(h *hugeHeapHost) { h.hugePage = "2M\n" },
		"disablethp among others":       func(h *hugeHeapHost) { h.godebug = "gctrace=1, disablethp=1" },
		"thp always":                    func(h *hugeHeapHost) { h.thp = "[always] madvise never\n" },
		"thp never":                     func(h *hugeHeapHost) { h.thp = "always madvise [never]\n" },
		"thp unreadable":                func(h *hugeHeapHost) { h.thp = "" },
		"strict overcommit":             func(h *hugeHeapHost) { h.overcommit = "2\n" },
		"address space or data limited": func(h *hugeHeapHost) { h.limited = true },
		"GOMEMLIMIT":                    func(h *hugeHeapHost) { h.memLimited = true },
		"meminfo unreadable":            func(h *hugeHeapHost) { h.meminfo = "" },
		"MemTotal in unknown units":     func(h *hugeHeapHost) { h.meminfo = "MemTotal: 16 GB\n" },
		"MemTotal not a number":         func(h *hugeHeapHost) { h.meminfo = "MemTotal: x kB\n" },
		"MemTotal missing":              func(h *hugeHeapHost) { h.meminfo = "MemFree: 1000 kB\n" },
		"MemTotal without its number":   func(h *hugeHeapHost) { h.meminfo = "MemTotal:\n" },
	} {
		h := madviseHost()
		change(&h)
		assert.Zero(t, hugeHeapSize(h, heapReserve), name)
	}
	h := madviseHost()
	h.godebug = "disablethp=0,gctrace=1"
	assert.Equal(t, heapReserve, hugeHeapSize(h, heapReserve), "disablethp=0 keeps huge pages")
	h.meminfo = "MemTotal:         524288 kB\n"
	assert.Equal(t, 64<<20, hugeHeapSize(h, heapReserve), "an eighth of a 512 MiB machine")
	assert.Equal(t, 64<<20, hugeHeapSize(h, bigReserve), "an eighth of a 512 MiB machine")
	h.hugePage = "33554432\n"
	assert.Equal(t, 64<<20, hugeHeapSize(h, heapReserve), "32 MiB huge pages (16 KiB base pages)")
}

func TestHeapPreparer(t *testing.T) {
	starts := 0
	var reserves []int
	start := func(n int) *hugeHeap { starts++; reserves = append(reserves, n); return nil }
	profiled := false
	p := &heapPreparer{start: start, profiled: func() bool { return profiled }}
	p.prepare(0)
	p.prepare(hugeHeapMin - 1)
	assert.Zero(t, starts, "small inputs go without")
	profiled = true
	p.prepare(-1)
	p.prepare(hugeHeapMin)
	assert.Zero(t, starts, "not under --memprofile")
	profiled = false
	p.prepare(hugeHeapMin)
	assert.Equal(t, 1, starts)
	p.prepare(-1)
	p.prepare(1 << 30)
	assert.Equal(t, 1, starts, "once a process")
	p = &heapPreparer{start: start, profiled: func() bool { return false }}
	p.prepare(-1)
	assert.Equal(t, 2, starts, "a stream may be long")
	p = &heapPreparer{start: start, profiled: func() bool { return false }}
	p.prepare(bigInput)
	assert.Equal(t, []int{heapReserve, heapReserve, bigReserve}, reserves, "the large reserve for large inputs only")
	assert.Equal(t, heapReserve, reserveSize(bigInput-1))
	assert.NotNil(t, systemIO().Prepare, "the process prepares its heap")
}

func TestMemProfiled(t *testing.T) {
	was := profiles
	defer func() { profiles = was }()
	profiles = nil
	assert.False(t, memProfiled())
	profiles = &profiling{cpuFile: "cpu.out"}
	assert.False(t, memProfiled())
	profiles = &profiling{memFile: "mem.out"}
	assert.True(t, memProfiled())
}

// A maps listing of a Go process: its binary, the heap (two mappings
// side by side, the second grown after the first), the runtime's
// metadata apart from it, a file mapping and the stack.
const sampleMaps = `00400000-004ab000 r-xp 00000000 fe:00 9994807                            /usr/bin/logsleuth
0058e000-00599000 rw-p 0018e000 fe:00 9994807                            /usr/bin/logsleuth
00599000-005cf000 rw-p 00000000 00:00 0 
3c8180000000-3c8188c00000 ---p 00000000 00:00 0 
3c8188c00000-3c8199400000 rw-p 00000000 00:00 0 
3c8199400000-3c819d000000 rw-p 00000000 00:00 0 
3c819d000000-3c81a0000000 ---p 00000000 00:00 0 
7f91b1b5c000-7f91b235c000 rw-p 00000000 00:00 0 
7f91b235c000-7f91b259c000 rw-p 00000000 fe:00 12                         /tmp/mapped
7f91b259c000-7f91b2d9c000 rw-p 00000000 00:00 0 
7f91c0000000-7f91c0400000 rw-p 00000000 00:00 0                          [anon: Go: heap]
7f91c0400000-7f91c0800000 rw-p 00000000 00:00 0                          [anon:other]
7f91c0800000-7f91c0c00000 rw-p 00000000 00:00 0                          [heap]
7ffd50b83000-7ffd50ba4000 rw-p 00000000 00:00 0                          [stack]
bad line
zz-00 rw-p 00000000 00:00 0
`

func TestAnonSpans(t *testing.T) {
	got := anonSpans([]byte(sampleMaps))
	assert.Equal(t, []span{
		{0x00599000, 0x005cf000},
		{0x3c8188c00000, 0x3c8199400000},
		{0x3c8199400000, 0x3c819d000000},
		{0x7f91b1b5c000, 0x7f91b235c000},
		{0x7f91b259c000, 0x7f91b2d9c000},
		{0x7f91c0000000, 0x7f91c0400000},
		{0x7f91c0400000, 0x7f91c0800000},
	}, got, "private writable anonymous mappings, named or not; file mappings, reserved space, the stack and the brk heap left out")
	assert.Empty(t, anonSpans(nil))
}

func TestHeapSpans(t *testing.T) {
	spans := anonSpans([]byte(sampleMaps))
	heap := []span{{0x3c8188c00000, 0x3c8199400000}, {0x3c8199400000, 0x3c819d000000}}
	assert.Equal(t, heap, heapSpans(spans, 0x3c8190000000), "the reserve's mapping and the one grown next to it")
	assert.Equal(t, heap, heapSpans(spans, 0x3c819cffffff), "found from the grown one too")
	assert.Equal(t, []span{{0x7f91b1b5c000, 0x7f91b235c000}}, heapSpans(spans, 0x7f91b1b5c000),
		"a mapping next to a file mapping stands alone")
	assert.Nil(t, heapSpans(spans, 0x3c819d000000), "the end is not in the mapping")
	assert.Nil(t, heapSpans(spans, 0x1000))
	assert.Equal(t, []span{{0x7f91c0000000, 0x7f91c0400000}, {0x7f91c0400000, 0x7f91c0800000}}, heapSpans(spans, 0x7f91c0000000),
		"named mappings chain like the others")
}

// TestPrepareSize checks what the inputs' size Prepare is told: the
// files' bytes summed, or -1 for standard input and a log store.
func TestPrepareSize(t *testing.T) {
	dir := t.TempDir()
	a, b, empty := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log"), filepath.Join(dir, "empty.log")
	sampleText := readSample(t)
	require.NoError(t, os.WriteFile(a, []byte(sampleText), 0o644))
	require.NoError(t, os.WriteFile(b, []byte(strings.Repeat(sampleText, 3)), 0o644))
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	prepared := func(stdin string, args ...string) []int64 {
		var got []int64
		var out, errOut bytes.Buffer
		ios := &IOStreams{
			In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut,
			Getenv:  func(string) string { return "" },
			FS:      osFS{},
			Prepare: func(n int64) { got = append(got, n) },
		}
		Main(args, ios)
		return got
	}
	n := int64(len(sampleText))
	assert.Equal(t, []int64{n}, prepared("", "analyze", a))
	assert.Equal(t, []int64{4 * n}, prepared("", "analyze", a, b))
	assert.Equal(t, []int64{4 * n}, prepared("", "state", a, b))
	assert.Equal(t, []int64{-1}, prepared(sampleText, "analyze"), "standard input's size is not known")
	assert.Equal(t, []int64{-1}, prepared(sampleText, "analyze", a, "-"))
	assert.Equal(t, []int64{n}, prepared("", "analyze", a, empty), "an empty file is no stream")
	assert.Equal(t, []int64{4 * n}, prepared("", "events", a, b))
	assert.Equal(t, []int64{-1}, prepared("", "analyze", "vlogs://127.0.0.1:1"), "a log store's size is not known")
}
