package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/klauspost/compress/gzip"
)

// FileSystem is the part of the OS the inputs need.
type FileSystem interface {
	Open(name string) (io.ReadCloser, error)
	Stat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
}

type osFS struct{}

func (osFS) Open(name string) (io.ReadCloser, error)    { return os.Open(name) }
func (osFS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(name) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }

// input is one log to read: a file, a file inside a named directory, or
// standard input ("-").
type input struct {
	name string
}

// expand turns the user's paths into inputs: "-" or no path is standard
// input, a directory is every regular file under it in name order, a file
// is itself. Paths that cannot be listed are returned as errors; the rest
// are still read.
func expand(fsys FileSystem, paths []string) ([]input, []error) {
	if len(paths) == 0 {
		return []input{{name: "-"}}, nil
	}
	var (
		out  []input
		errs []error
		seen = map[string]bool{}
	)
	for _, p := range paths {
		if p == "-" {
			// Standard input can be read once; a second "-" adds nothing.
			if !seen["-"] {
				seen["-"] = true
				out = append(out, input{name: "-"})
			}
			continue
		}
		info, err := fsys.Stat(p)
		if err != nil {
			errs = append(errs, cleanErr(p, err))
			continue
		}
		if !info.IsDir() {
			if !seen[p] {
				seen[p] = true
				out = append(out, input{name: p})
			}
			continue
		}
		walkDir(fsys, p, 0, seen, &out, &errs)
	}
	return out, errs
}

// walkDir lists dir recursively in name order. Symbolic links to
// directories are not followed (a link loop cannot trap the walk); links
// to files are read.
func walkDir(fsys FileSystem, dir string, depth int, seen map[string]bool, out *[]input, errs *[]error) {
	if depth > 64 {
		*errs = append(*errs, fmt.Errorf("%s: directories nested too deep; not read", dir))
		return
	}
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		*errs = append(*errs, cleanErr(dir, err))
		return
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			walkDir(fsys, p, depth+1, seen, out, errs)
		case e.Type()&fs.ModeSymlink != 0:
			info, err := fsys.Stat(p)
			if err != nil {
				*errs = append(*errs, cleanErr(p, err))
				continue
			}
			if info.IsDir() {
				continue
			}
			fallthrough
		case e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0:
			if !seen[p] {
				seen[p] = true
				*out = append(*out, input{name: p})
			}
		}
	}
}

// cleanErr says what went wrong with path without repeating it.
func cleanErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", path, pe.Err)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// maxDecompressed caps what one .gz input may expand to, so a
// decompression bomb cannot fill memory or stall the run.
// It is a variable so tests can use a small one.
var maxDecompressed int64 = 32 << 30

// openInput returns a reader of in's log text, decompressing gzip
// (recognised by its magic bytes, whatever the name). The bytes read from
// the file (before decompression) are counted on prog.
func openInput(ios *IOStreams, in input, prog *progress, raw *rawCount) (io.ReadCloser, error) {
	var rc io.ReadCloser
	raw.opened = -1
	if in.name == "-" {
		rc = io.NopCloser(ios.In)
	} else {
		f, err := ios.FS.Open(in.name)
		if err != nil {
			return nil, cleanErr(in.name, err)
		}
		rc = f
		if info, err := ios.FS.Stat(in.name); err == nil && info.Mode().IsRegular() {
			raw.opened = info.Size()
		}
	}
	raw.r = rc
	br := bufio.NewReaderSize(prog.reader(raw), 64<<10)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			rc.Close()
			return nil, fmt.Errorf("%s: gzip: %w", in.name, err)
		}
		return &gzInput{zr: zr, under: rc, left: maxDecompressed}, nil
	}
	return struct {
		io.Reader
		io.Closer
	}{br, rc}, nil
}

// rawCount counts the bytes read from a file as stored (before any
// decompression), to tell a file that changed size while it was read.
type rawCount struct {
	r      io.Reader
	n      int64
	opened int64 // the size when opened, or -1 for other than a regular file
}

func (c *rawCount) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}

// changed says, for a file read to its end, whether it changed size while
// it was read: a log still being written (read up to the end seen then) or
// truncated under the reader (copytruncate rotation).
func (c *rawCount) changed(fsys FileSystem, name string) (string, bool) {
	if c.opened < 0 {
		return "", false
	}
	now := int64(-1)
	if info, err := fsys.Stat(name); err == nil {
		now = info.Size()
	}
	switch {
	case c.n > c.opened || now > c.opened:
		msg := fmt.Sprintf("the file grew while it was read (%d bytes when opened, %d read", c.opened, c.n)
		if now > c.n {
			msg += fmt.Sprintf(", %d now", now)
		}
		return msg + "); it is analysed up to the end reached, where a line being written may be cut", true
	case c.n < c.opened:
		return fmt.Sprintf("the file shrank while it was read (%d bytes when opened, %d read): truncated or rotated?", c.opened, c.n), true
	}
	return "", false
}

type gzInput struct {
	zr    *gzip.Reader
	under io.Closer
	left  int64
}

// bombError reports a .gz that expands past maxDecompressed: a
// decompression bomb, or a log too large to be worth reading whole.
type bombError struct{ limit int64 }

func (e bombError) Error() string {
	return fmt.Sprintf("gzip: decompresses to more than %s; the rest is not read (a decompression bomb?)", humanBytes(e.limit))
}

func (g *gzInput) Read(b []byte) (int, error) {
	if g.left <= 0 {
		return 0, bombError{maxDecompressed}
	}
	if int64(len(b)) > g.left {
		b = b[:g.left]
	}
	n, err := g.zr.Read(b)
	g.left -= int64(n)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("gzip: %w", err)
	}
	return n, err
}

func (g *gzInput) Close() error {
	g.zr.Close()
	return g.under.Close()
}

// totalSize is the sum of the sizes of the inputs that are regular files,
// for the progress bar; standard input adds nothing (its size is unknown).
func totalSize(fsys FileSystem, inputs []input) int64 {
	var n int64
	for _, in := range inputs {
		if in.name == "-" {
			continue
		}
		if info, err := fsys.Stat(in.name); err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
	}
	return n
}
