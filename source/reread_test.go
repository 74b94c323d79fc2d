package source

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Only a log read as it is on disk can be read again by offset: not a
// compressed file, not an archive's member, not standard input.
func TestRereadsPlainFilesOnly(t *testing.T) {
	dir := t.TempDir()
	text := glogLine + "I1007 16:39:06.000000  5100 raft_consensus.cc:2] T t P p: second\n"
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		return p
	}
	plain := write("plain.log", []byte(text))
	zipped := write("zipped.log.gz", gz([]byte(text)))
	bundle := write("bundle.tar", tarBytes(t, map[string]string{"m.log": text}))
	rr := NewRereads()
	defer rr.Close()
	in := Expand(Options{FS: OS{}, Stdin: strings.NewReader(text), IsLog: isGlog}, []string{plain, zipped, bundle, "-"})
	in.SetRereads(rr)
	read, _ := readPlanned(t, in)
	require.Len(t, read, 4, "every log is read: %v", read)
	assert.True(t, rr.Has(plain))
	for _, name := range []string{zipped, bundle + "!m.log", "-"} {
		_, ok := read[name]
		assert.True(t, ok, "%s read", name)
		assert.False(t, rr.Has(name), name)
	}
	off := int64(len(glogLine))
	b, err := rr.ReadAt(plain, off, 10)
	require.NoError(t, err)
	assert.Equal(t, text[off:off+10], string(b))
	_, err = rr.ReadAt(plain, int64(len(text))-3, 10)
	assert.Error(t, err, "past the end")
	_, err = rr.ReadAt(zipped, 0, 10)
	assert.Error(t, err)
	// Closed, it opens the file again.
	rr.Close()
	b, err = rr.ReadAt(plain, 0, 5)
	require.NoError(t, err)
	assert.Equal(t, text[:5], string(b))
}

// Rereads keeps a bounded number of files open.
func TestRereadsBoundsOpenFiles(t *testing.T) {
	dir := t.TempDir()
	rr := NewRereads()
	defer rr.Close()
	for i := range 3 * maxRereadOpen {
		p := filepath.Join(dir, strings.Repeat("f", i+1)+".log")
		require.NoError(t, os.WriteFile(p, []byte(glogLine), 0o644))
		rr.add(p, OS{}, p, nil)
		b, err := rr.ReadAt(p, 0, 4)
		require.NoError(t, err)
		assert.Equal(t, glogLine[:4], string(b))
		assert.LessOrEqual(t, len(rr.open), maxRereadOpen)
	}
}

// readPlanned reads every log of in's plan, by name.
func readPlanned(t *testing.T, in *Inputs) (map[string]string, *Plan) {
	t.Helper()
	p := in.Plan()
	out := map[string]string{}
	for _, g := range p.Groups {
		rd := p.Open(g)
		for {
			l, r, err := rd.Next()
			if err != nil {
				break
			}
			b, err := io.ReadAll(r)
			require.NoError(t, err)
			out[l.Name] = string(b)
		}
		rd.Close()
	}
	return out, p
}

// A log that rotates while the run goes on is read again where it was
// read: through a link that moved, from the file it pointed to; a file
// put in the place of the one read is not read at all.
func TestRereadsAfterRotation(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "yb-tserver.INFO.20231007-160000.1")
	link := filepath.Join(dir, "yb-tserver.INFO")
	plain := filepath.Join(dir, "plain.log")
	require.NoError(t, os.WriteFile(old, []byte(glogLine), 0o644))
	require.NoError(t, os.WriteFile(plain, []byte(glogLine), 0o644))
	require.NoError(t, os.Symlink(filepath.Base(old), link))
	rr := NewRereads()
	defer rr.Close()
	in := Expand(Options{FS: OS{}, IsLog: isGlog}, []string{link, plain})
	in.SetRereads(rr)
	read, _ := readPlanned(t, in)
	require.Len(t, read, 2)
	require.True(t, rr.Has(link))
	require.True(t, rr.Has(plain))

	// glog rotates: a new file, and the link moves to it.
	other := strings.Replace(glogLine, "line", "LINE", 1)
	cur := filepath.Join(dir, "yb-tserver.INFO.20231007-170000.2")
	require.NoError(t, os.WriteFile(cur, []byte(other), 0o644))
	require.NoError(t, os.Remove(link))
	require.NoError(t, os.Symlink(filepath.Base(cur), link))
	b, err := rr.ReadAt(link, 0, len(glogLine))
	require.NoError(t, err)
	assert.Equal(t, glogLine, string(b))

	// The plain file is moved away and another written in its place.
	require.NoError(t, os.Rename(plain, plain+".1"))
	require.NoError(t, os.WriteFile(plain, []byte(other), 0o644))
	_, err = rr.ReadAt(plain, 0, len(glogLine))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "another file than the one read")
}

// A file whose name is also an archive member's (x.tar!a.log, a legal
// file name) is not read again: the member's lines cite the same name.
func TestRereadsOnlyAnOnlyName(t *testing.T) {
	dir := t.TempDir()
	tarPath := filepath.Join(dir, "x.tar")
	require.NoError(t, os.WriteFile(tarPath, tarBytes(t, map[string]string{"a.log": glogLine}), 0o644))
	clash := tarPath + "!a.log"
	require.NoError(t, os.WriteFile(clash, []byte(glogLine), 0o644))
	other := filepath.Join(dir, "b.log")
	require.NoError(t, os.WriteFile(other, []byte(glogLine), 0o644))
	rr := NewRereads()
	defer rr.Close()
	in := Expand(Options{FS: OS{}, IsLog: isGlog}, []string{tarPath, clash, other})
	in.SetRereads(rr)
	read, _ := readPlanned(t, in)
	require.Len(t, read, 2, "the member and the file of its name are one name: %v", read)
	assert.False(t, rr.Has(clash))
	assert.True(t, rr.Has(other))
}

// limitedFS lets at most max files be open at once, as a low limit on
// file descriptors does.
type limitedFS struct {
	OS
	mu        sync.Mutex
	open, max int
}

type limitedFile struct {
	*os.File
	fs *limitedFS
}

func (f limitedFile) Close() error {
	f.fs.mu.Lock()
	f.fs.open--
	f.fs.mu.Unlock()
	return f.File.Close()
}

func (l *limitedFS) OpenRegular(name string) (io.ReadCloser, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open >= l.max {
		return nil, &os.PathError{Op: "open", Path: name, Err: syscall.EMFILE}
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	l.open++
	return limitedFile{f, l}, nil
}

// Out of file descriptors, Rereads closes the files it keeps open and
// tries again, and goes on reading.
func TestRereadsUnderAFileLimit(t *testing.T) {
	dir := t.TempDir()
	fsys := &limitedFS{max: 3}
	rr := NewRereads()
	defer rr.Close()
	for i := range 10 {
		p := filepath.Join(dir, strings.Repeat("f", i+1)+".log")
		require.NoError(t, os.WriteFile(p, []byte(glogLine), 0o644))
		rr.add(p, fsys, p, nil)
		b, err := rr.ReadAt(p, 0, 4)
		require.NoError(t, err, "file %d", i)
		assert.Equal(t, glogLine[:4], string(b))
	}
	assert.LessOrEqual(t, fsys.open, fsys.max)
}

// A group read from standard input, alone or as an archive on it, is
// streamed; files, empty or not, are not.
func TestGroupStreamed(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		return p
	}
	plain := write("plain.log", []byte(glogLine))
	empty := write("empty.log", nil)
	bundle := write("bundle.tar", tarBytes(t, map[string]string{"m.log": glogLine}))
	streamed := func(stdin []byte, paths ...string) map[string]bool {
		p := Expand(Options{FS: OS{}, Stdin: bytes.NewReader(stdin), IsLog: isGlog}, paths).Plan()
		out := map[string]bool{}
		for _, g := range p.Groups {
			for _, l := range g.Logs {
				out[l.Name] = g.Streamed()
			}
		}
		return out
	}
	assert.Equal(t, map[string]bool{plain: false, empty: false, bundle + "!m.log": false, "-": true},
		streamed([]byte(glogLine), plain, empty, bundle, "-"))
	assert.Equal(t, map[string]bool{"-!m.log": true},
		streamed(tarBytes(t, map[string]string{"m.log": glogLine}), "-"))
}
