package source

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sync"
)

// Rereads reads again, by offset, the logs a plan's readers read as they
// are on disk: a regular file named or found by a walk, not a member of
// an archive, not decompressed, not standard input. A replayed state can
// then keep where a line is instead of its text (ybstate.Rereader), and
// read the line again for a finding that cites it. Its methods may be
// called from any goroutine.
type Rereads struct {
	mu sync.Mutex
	// files maps the name a log's lines cite to where it is.
	files map[string]rereadFile
	// open holds the files read again so far, up to maxRereadOpen.
	open map[string]io.ReadCloser
}

type rereadFile struct {
	fs   FS
	name string
	// id is the file that was read, when the file system says; a file
	// opened again under name that is another (the log rotated onto a
	// new file of that name) is not read.
	id    FileID
	hasID bool
}

// maxRereadOpen bounds the files Rereads keeps open.
const maxRereadOpen = 16

// NewRereads returns an empty Rereads, for Inputs.SetRereads.
func NewRereads() *Rereads {
	return &Rereads{files: map[string]rereadFile{}, open: map[string]io.ReadCloser{}}
}

// SetRereads has the plan's readers tell r of each log they read as it is
// on disk.
func (in *Inputs) SetRereads(r *Rereads) { in.opts.Rereads = r }

// add says the log whose lines cite source is the file name of fsys,
// opened as rc. A symbolic link on the OS is followed now, so a log that
// rotates while the run goes on is read again where it was read (glog's
// yb-tserver.INFO link moves to the new file).
func (r *Rereads) add(source string, fsys FS, name string, rc io.Reader) {
	if r == nil {
		return
	}
	f := rereadFile{fs: fsys, name: name}
	f.id, f.hasID = openedID(rc)
	if _, ok := fsys.(OS); ok {
		if real, err := filepath.EvalSymlinks(name); err == nil {
			f.name = real
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.files[source] = f
}

// Has reports whether the log whose lines cite source can be read again.
func (r *Rereads) Has(source string) bool {
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.files[source]
	return ok
}

// ReadAt reads n bytes at offset off of the log whose lines cite source.
func (r *Rereads) ReadAt(source string, off int64, n int) ([]byte, error) {
	if r == nil {
		return nil, errors.New("no log to read again")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	f, ok := r.files[source]
	if !ok {
		return nil, fmt.Errorf("%s was not read as a file", source)
	}
	rc := r.open[source]
	if rc == nil {
		if len(r.open) >= maxRereadOpen {
			r.closeAll()
		}
		var err error
		if rc, err = f.fs.OpenRegular(f.name); err != nil && len(r.open) > 0 {
			// Out of file descriptors, perhaps: the files kept open are
			// closed, and the open tried once more.
			r.closeAll()
			rc, err = f.fs.OpenRegular(f.name)
		}
		if err != nil {
			return nil, err
		}
		if f.hasID {
			if id, ok := openedID(rc); !ok || id != f.id {
				rc.Close()
				return nil, fmt.Errorf("%s is another file than the one read (rotated or replaced since)", f.name)
			}
		}
		r.open[source] = rc
	}
	at, ok := rc.(io.ReaderAt)
	if !ok {
		return nil, fmt.Errorf("%s cannot be read at an offset", source)
	}
	b := make([]byte, n)
	m, err := at.ReadAt(b, off)
	if m == n {
		return b, nil
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return nil, err
}

// openedID is the identity of the file r reads, when it is a file that
// says (an *os.File does).
func openedID(r io.Reader) (FileID, bool) {
	st, ok := r.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return FileID{}, false
	}
	info, err := st.Stat()
	if err != nil {
		return FileID{}, false
	}
	return idOf(info)
}

// Close closes the files read again. Rereads may be used after, and opens
// them again.
func (r *Rereads) Close() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closeAll()
}

func (r *Rereads) closeAll() {
	for k, rc := range r.open {
		rc.Close()
		delete(r.open, k)
	}
}
