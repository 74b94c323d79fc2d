package source

import (
	"bytes"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// memFS is a file system in memory: names are slash paths, files are
// their bytes; directories are implied by the files under them.
type memFS map[string][]byte

type memInfo struct {
	name string
	size int64
	dir  bool
}

func (i memInfo) Name() string { return path.Base(i.name) }
func (i memInfo) Size() int64  { return i.size }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }

type memFile struct {
	*bytes.Reader
}

func (memFile) Close() error { return nil }

func (m memFS) Open(name string) (io.ReadCloser, error) {
	if b, ok := m[name]; ok {
		return memFile{bytes.NewReader(b)}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

func (m memFS) OpenRegular(name string) (io.ReadCloser, error) { return m.Open(name) }

func (m memFS) Stat(name string) (fs.FileInfo, error) {
	if b, ok := m[name]; ok {
		return memInfo{name, int64(len(b)), false}, nil
	}
	for k := range m {
		if name == "." || strings.HasPrefix(k, name+"/") {
			return memInfo{name, 0, true}, nil
		}
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

func (m memFS) Lstat(name string) (fs.FileInfo, error) { return m.Stat(name) }

func (m memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	seen := map[string]fs.DirEntry{}
	prefix := name + "/"
	if name == "." {
		prefix = ""
	}
	for k, b := range m {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		rest := k[len(prefix):]
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			seen[rest[:i]] = fs.FileInfoToDirEntry(memInfo{prefix + rest[:i], 0, true})
		} else {
			seen[rest] = fs.FileInfoToDirEntry(memInfo{k, int64(len(b)), false})
		}
	}
	var out []fs.DirEntry
	for _, e := range seen {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}
