package main

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// changingFS opens real files, but change runs on the file on disk at one
// moment of the read: before the first read, or when the reader first
// reaches the end. Only the second open changes the file: the first is
// logsleuth's look at the file's first bytes, to tell what it is.
type changingFS struct {
	osFS
	atEOF  bool
	change func(path string)
	opens  *int
}

func (c changingFS) Open(name string) (io.ReadCloser, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	*c.opens++
	return &changingFile{File: f, fs: c, name: name, done: *c.opens != 2}, nil
}

type changingFile struct {
	*os.File
	fs   changingFS
	name string
	done bool
}

func (f *changingFile) Read(b []byte) (int, error) {
	if !f.done && !f.fs.atEOF {
		f.done = true
		f.fs.change(f.name)
	}
	n, err := f.File.Read(b)
	if err == io.EOF && !f.done {
		f.done = true
		f.fs.change(f.name)
	}
	return n, err
}

func appendTo(t *testing.T, text string) func(string) {
	return func(path string) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		require.NoError(t, err)
		_, err = f.WriteString(text)
		require.NoError(t, err)
		require.NoError(t, f.Close())
	}
}

// The sample without its MVCC FATAL block, which a test appends while the
// file is read.
func splitSample(t *testing.T) (head, tail string) {
	s := readSample(t)
	i := strings.Index(s, "F1007")
	require.Positive(t, i)
	return s[:i], s[i:]
}

func TestFileGrowsWhileRead(t *testing.T) {
	head, tail := splitSample(t)
	path := filepath.Join(t.TempDir(), "live.log")

	// Written to before logsleuth reaches the end: all of it is read.
	require.NoError(t, os.WriteFile(path, []byte(head), 0o644))
	r := logsleuthFS(t, changingFS{change: appendTo(t, tail), opens: new(int)}, "", nil, "analyze", path)
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Contains(t, r.stdout, "yb/mvcc/ht-below-safe-time", "the appended lines are analysed")
	lines := strings.Count(head+tail, "\n")
	assert.Contains(t, r.stderr, path+":"+strconv.Itoa(lines)+": the file grew while it was read ("+strconv.Itoa(len(head))+" bytes when opened, "+strconv.Itoa(len(head)+len(tail))+" read)")

	// Written to after logsleuth reached the end: said, and not read.
	require.NoError(t, os.WriteFile(path, []byte(head), 0o644))
	r = logsleuthFS(t, changingFS{atEOF: true, change: appendTo(t, tail), opens: new(int)}, "", nil, "analyze", path)
	assert.Equal(t, exitClean, r.code, r.stderr)
	assert.Contains(t, r.stderr, ": the file grew while it was read ("+strconv.Itoa(len(head))+" bytes when opened, "+strconv.Itoa(len(head))+" read, "+strconv.Itoa(len(head)+len(tail))+" now); it is analysed up to the end reached")
}

func TestFileShrinksWhileRead(t *testing.T) {
	s := readSample(t)
	path := filepath.Join(t.TempDir(), "rotated.log")
	require.NoError(t, os.WriteFile(path, []byte(s), 0o644))
	truncate := func(p string) { require.NoError(t, os.Truncate(p, 100)) }
	r := logsleuthFS(t, changingFS{change: truncate, opens: new(int)}, "", nil, "analyze", path)
	assert.Equal(t, exitClean, r.code, r.stderr)
	assert.Contains(t, r.stderr, ": the file shrank while it was read ("+strconv.Itoa(len(s))+" bytes when opened, 100 read): truncated or rotated?")
}

func TestStdinHasNoSizeToChange(t *testing.T) {
	r := logsleuth(t, readSample(t), nil, "analyze", "-")
	assert.NotContains(t, r.stderr, "while it was read")
	assert.Contains(t, r.stdout, " 0 diagnostics")
}
