package source

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// FS is the part of the operating system the inputs need. Tests give one
// that needs no real files; the real one is OS.
type FS interface {
	// Open opens a file the user named: it may block, as opening a FIFO
	// does until a writer comes.
	Open(name string) (io.ReadCloser, error)
	// OpenRegular opens a file found by a walk, and fails without
	// blocking, and without reading, when it is not a regular file once
	// links are followed (a FIFO or a device put where a log was
	// expected): a walk must never hang on, or read forever from, a
	// file nobody named.
	OpenRegular(name string) (io.ReadCloser, error)
	// Stat follows symbolic links; Lstat does not.
	Stat(name string) (fs.FileInfo, error)
	Lstat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
}

// OS is the real file system.
type OS struct{}

func (OS) Open(name string) (io.ReadCloser, error)    { return os.Open(name) }
func (OS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(name) }
func (OS) Lstat(name string) (fs.FileInfo, error)     { return os.Lstat(name) }
func (OS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }

// OpenRegular opens without blocking (O_NONBLOCK where the system has it)
// and checks the opened file, not the name, so a file swapped for a FIFO
// between a walk's listing and the open is still refused.
func (OS) OpenRegular(name string) (io.ReadCloser, error) {
	f, err := openNonblocking(name)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: errNotRegular{info.Mode()}}
	}
	if err := clearNonblocking(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// errNotRegular says what a walk found instead of a regular file.
type errNotRegular struct{ mode fs.FileMode }

func (e errNotRegular) Error() string {
	return "not a regular file (" + kindOf(e.mode) + "); not opened"
}

// kindOf names a file mode's type for a person.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "an irregular file"
}

// FileID names a file's bytes: the same device and inode is the same file
// whatever path reached it.
type FileID struct {
	Dev, Ino uint64
}

// IDer is implemented by the FileInfo of file systems that are not the OS
// but can still tell two names of one file apart (tests).
type IDer interface {
	FileID() (FileID, bool)
}

// idOf returns the identity of the file info describes, if the file system
// says it.
func idOf(info fs.FileInfo) (FileID, bool) {
	if info == nil {
		return FileID{}, false
	}
	if d, ok := info.(IDer); ok {
		return d.FileID()
	}
	if d, ok := info.Sys().(IDer); ok {
		return d.FileID()
	}
	return sysID(info)
}

// IDOf is idOf for callers that check other paths (report files) against
// the inputs.
func IDOf(info fs.FileInfo) (FileID, bool) { return idOf(info) }

// cleanErr says what went wrong with path without repeating it.
func cleanErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", path, pe.Err)
	}
	return fmt.Errorf("%s: %w", path, err)
}
