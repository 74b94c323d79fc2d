package source

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Reader reads one group's logs one after another. It is used by one
// goroutine; each group's reader opens the archive for itself, so groups
// read concurrently, and a group of a compressed archive decompresses (and
// discards) up to its members: one pass per group, in bounded memory.
type Reader struct {
	p        *Plan
	g        *Group
	i        int
	progress bool
	b        *budget
	acc      *access
	cur      *opened
	lazy     *lazyState
	done     bool
}

// Open returns a reader of g's logs.
func (p *Plan) Open(g *Group) *Reader { return p.reader(g, true) }

func (p *Plan) reader(g *Group, progress bool) *Reader {
	return &Reader{p: p, g: g, progress: progress, b: newBudget(p.opts.Limits.MaxBytes)}
}

// opened is the log being read.
type opened struct {
	l       *Log
	pe      *peeled
	closers []func()
	watch   *watch
}

// Next opens the next log. It returns io.EOF after the last; an error with
// a log names a log that could not be opened (the next call goes on with
// the next log); an error without one ends the group.
func (rd *Reader) Next() (*Log, io.Reader, error) {
	rd.closeCur()
	if rd.done {
		return nil, nil, io.EOF
	}
	if rd.g.lazy != nil {
		return rd.nextLazy()
	}
	if rd.i >= len(rd.g.Logs) {
		return nil, nil, io.EOF
	}
	l := rd.g.Logs[rd.i]
	rd.i++
	r, err := rd.open(l)
	if err != nil {
		if l.c != nil && !l.c.random && rd.i < len(rd.g.Logs) {
			// Past a failure, an archive read front to back has nothing
			// more to give this group.
			err = fmt.Errorf("%w; %s of this archive not read", err, plural(int64(len(rd.g.Logs)-rd.i), "more log"))
			rd.done = true
		}
		return l, nil, err
	}
	return l, r, nil
}

// Notes returns what reading the log just read ignored or found odd
// (bytes after the end of its compressed data, a file that changed size
// while it was read, a WARNING file that repeats part of its INFO file).
// Call it once the log has been read to its end.
func (rd *Reader) Notes() []string {
	if rd.cur == nil {
		return nil
	}
	out := append([]string(nil), rd.cur.l.notes...)
	if rd.cur.pe != nil {
		out = append(out, rd.cur.pe.notes()...)
	}
	if w := rd.cur.watch; w != nil {
		if msg, ok := w.changed(rd.p.opts.FS); ok {
			out = append(out, msg)
		}
	}
	return out
}

// Close releases what the reader holds.
func (rd *Reader) Close() {
	rd.closeCur()
	if rd.acc != nil {
		rd.acc.close()
		rd.acc = nil
	}
	if rd.lazy != nil {
		rd.lazy.pe.close()
		if c := rd.g.lazy.closer; c != nil {
			c.Close()
		}
		rd.lazy = nil
	}
}

func (rd *Reader) closeCur() {
	if rd.cur == nil {
		return
	}
	if rd.cur.pe != nil {
		rd.cur.pe.close()
	}
	for _, c := range rd.cur.closers {
		c()
	}
	rd.cur = nil
}

// counted reports the stored bytes read to the progress callback.
type counted struct {
	r  io.Reader
	fn func(int64)
	n  int64
}

func (c *counted) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.fn != nil && n > 0 {
		c.fn(int64(n))
	}
	return n, err
}

func (rd *Reader) progressFn() func(int64) {
	if rd.progress {
		return rd.p.opts.Progress
	}
	return nil
}

func (rd *Reader) open(l *Log) (io.Reader, error) {
	lim := rd.p.opts.Limits
	switch {
	case l.stream != nil:
		pe := l.stream
		l.stream = nil
		rd.cur = &opened{l: l, pe: pe}
		return pe.r, nil
	case l.c == nil:
		rc, err := rd.p.openEntry(l.e)
		if err != nil {
			return nil, cleanErr(l.Name, err)
		}
		w := &watch{name: l.Name, opened: -1}
		if info, err := rd.p.opts.FS.Stat(l.Name); err == nil && info.Mode().IsRegular() {
			w.opened = info.Size()
		}
		cr := &counted{r: rc, fn: rd.progressFn()}
		w.read = cr
		rd.cur = &opened{l: l, closers: []func(){func() { rc.Close() }}, watch: w}
		pe, err := peel(cr, newBudget(lim.MaxBytes), 0, lim.MaxDepth)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", l.Name, err)
		}
		rd.cur.pe = pe
		if pe.format != fmtText {
			return nil, fmt.Errorf("%s: now holds a %s archive; it changed while it was read", l.Name, pe.format)
		}
		if _, at := rc.(io.ReaderAt); at && len(pe.layers) == 0 && w.opened >= 0 && !l.e.stdin && rd.p.onlyOfName(l) {
			// Its bytes as read are the file's from its start, and no
			// other log's lines cite its name.
			rd.p.opts.Rereads.add(l.Name, rd.p.opts.FS, l.e.name, rc)
		}
		return pe.r, nil
	}
	if rd.acc == nil || rd.acc.c != l.c {
		if rd.acc != nil {
			rd.acc.close()
		}
		acc, err := rd.openContainer(l.c)
		if err != nil {
			return nil, err
		}
		rd.acc = acc
	}
	r, closer, err := rd.acc.open(l.m)
	if err != nil {
		return nil, err
	}
	rd.cur = &opened{l: l}
	if closer != nil {
		rd.cur.closers = append(rd.cur.closers, closer)
	}
	pe, err := peel(r, rd.b, l.c.depth, lim.MaxDepth)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.Name, err)
	}
	rd.cur.pe = pe
	if pe.format != fmtText {
		return nil, fmt.Errorf("%s: now holds a %s archive; the archive changed while it was read", l.Name, pe.format)
	}
	return pe.r, nil
}

// access opens the members of one archive.
type access struct {
	c       *container
	open    func(m *member) (r io.Reader, closer func(), err error)
	closers []func()
}

func (a *access) close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
}

// openContainer opens an archive: its file, or its member of the archive
// it is in, opened the same way in turn.
func (rd *Reader) openContainer(c *container) (*access, error) {
	lim := rd.p.opts.Limits
	acc := &access{c: c}
	var r io.Reader
	var ra io.ReaderAt
	var size int64
	fail := func(err error) (*access, error) {
		acc.close()
		return nil, err
	}
	if c.parent == nil {
		e := c.e
		if e.mem != nil {
			br := bytes.NewReader(e.mem)
			r, ra, size = &counted{r: br, fn: rd.progressFn()}, br, int64(len(e.mem))
		} else {
			rc, err := rd.p.openEntry(e)
			if err != nil {
				return fail(cleanErr(e.name, err))
			}
			acc.closers = append(acc.closers, func() { rc.Close() })
			r = &counted{r: rc, fn: rd.progressFn()}
			if at, ok := rc.(io.ReaderAt); ok {
				if info, err := rd.p.opts.FS.Stat(e.name); err == nil {
					ra, size = at, info.Size()
				}
			}
		}
	} else {
		parent, err := rd.openContainer(c.parent)
		if err != nil {
			return fail(err)
		}
		acc.closers = append(acc.closers, parent.close)
		mr, closer, err := parent.open(c.at)
		if err != nil {
			return fail(err)
		}
		if closer != nil {
			acc.closers = append(acc.closers, closer)
		}
		r = mr
		if sec, ok := mr.(*io.SectionReader); ok {
			ra, size = sec, sec.Size()
		}
	}
	start := 0
	if c.parent != nil {
		start = c.parent.depth
	}
	pe, err := peel(r, rd.b, start, lim.MaxDepth)
	if err != nil {
		return fail(fmt.Errorf("%s: %w", c.name, err))
	}
	acc.closers = append(acc.closers, pe.close)
	if len(pe.layers) > 0 {
		ra = nil
	}
	if pe.format != c.format {
		return fail(fmt.Errorf("%s: no longer a %s archive; it changed while it was read", c.name, c.format))
	}
	switch c.format {
	case fmtTar:
		if c.random {
			if ra == nil {
				return fail(fmt.Errorf("%s: it changed while it was read", c.name))
			}
			acc.open = func(m *member) (io.Reader, func(), error) {
				return io.NewSectionReader(ra, m.offset, m.size), nil, nil
			}
			return acc, nil
		}
		tr := tar.NewReader(pe.r)
		next := 0
		acc.open = func(m *member) (io.Reader, func(), error) {
			if m.index < next {
				return nil, nil, fmt.Errorf("%s: read out of order", m.name)
			}
			for {
				hdr, err := tr.Next()
				if err == io.EOF {
					return nil, nil, fmt.Errorf("%s: no longer in the archive; it changed while it was read", m.name)
				}
				if err != nil {
					return nil, nil, fmt.Errorf("%s: reading up to it: %w", m.name, err)
				}
				i := next
				next++
				if i == m.index {
					if hdr.Name != m.raw {
						return nil, nil, fmt.Errorf("%s: the archive changed while it was read", m.name)
					}
					return tr, nil, nil
				}
			}
		}
	case fmtZip:
		if ra == nil {
			buf, err := readUpTo(pe.r, lim.MaxSpool)
			if err != nil {
				return fail(fmt.Errorf("%s: %w", c.name, err))
			}
			br := bytes.NewReader(buf)
			ra, size = br, int64(len(buf))
		}
		zr, err := zip.NewReader(ra, size)
		if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
			return fail(fmt.Errorf("%s: %w", c.name, err))
		}
		acc.open = func(m *member) (io.Reader, func(), error) {
			if m.index >= len(zr.File) || strings.ReplaceAll(zr.File[m.index].Name, `\`, "/") != m.raw {
				return nil, nil, fmt.Errorf("%s: the archive changed while it was read", m.name)
			}
			f := zr.File[m.index]
			if f.Method == zip.Store {
				off, err := f.DataOffset()
				if err != nil {
					return nil, nil, fmt.Errorf("%s: %w", m.name, err)
				}
				return io.NewSectionReader(ra, off, int64(f.CompressedSize64)), nil, nil
			}
			rc, err := f.Open()
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", m.name, err)
			}
			return errPrefix{rc, "zip"}, func() { rc.Close() }, nil
		}
	}
	return acc, nil
}

// watch tells a file that changed size while it was read.
type watch struct {
	name   string
	opened int64 // the size when opened, or -1 for other than a regular file
	read   *counted
}

// changed says, for a file read to its end, whether it changed size while
// it was read: a log still being written (read up to the end seen then) or
// truncated under the reader (copytruncate rotation).
func (w *watch) changed(fsys FS) (string, bool) {
	if w.opened < 0 {
		return "", false
	}
	n := w.read.n
	now := int64(-1)
	if info, err := fsys.Stat(w.name); err == nil {
		now = info.Size()
	}
	switch {
	case n > w.opened || now > w.opened:
		msg := fmt.Sprintf("the file grew while it was read (%d bytes when opened, %d read", w.opened, n)
		if now > n {
			msg += fmt.Sprintf(", %d now", now)
		}
		return msg + "); it is analysed up to the end reached, where a line being written may be cut", true
	case n < w.opened:
		return fmt.Sprintf("the file shrank while it was read (%d bytes when opened, %d read): truncated or rotated?", w.opened, n), true
	}
	return "", false
}

// lazyState reads an archive on a stream too large to keep: once, in
// archive order, deciding about each member as it comes.
type lazyState struct {
	pe      *peeled
	tr      *tar.Reader
	members int
	last    string
}

func (rd *Reader) nextLazy() (*Log, io.Reader, error) {
	e := rd.g.lazy
	lim := rd.p.opts.Limits
	if rd.lazy == nil {
		pe, err := peel(&counted{r: e.replay, fn: rd.progressFn()}, rd.b, 0, lim.MaxDepth)
		if err != nil {
			rd.done = true
			return nil, nil, cleanErr(e.name, err)
		}
		rd.lazy = &lazyState{pe: pe, tr: tar.NewReader(pe.r)}
	}
	lz := rd.lazy
	depth := len(lz.pe.layers) + 1
	for {
		hdr, err := lz.tr.Next()
		if err == io.EOF {
			return nil, nil, io.EOF
		}
		if err != nil {
			rd.done = true
			if lz.last != "" {
				return nil, nil, fmt.Errorf("%s: %w after member %s (the archive is cut short or damaged; the members before are read)", e.name, err, lz.last)
			}
			return nil, nil, fmt.Errorf("%s: %w", e.name, err)
		}
		lz.members++
		if lz.members > lim.MaxMembers {
			rd.done = true
			return nil, nil, fmt.Errorf("%s: more than %d members; the rest are not read", e.name, lim.MaxMembers)
		}
		name := memberName(e.name, hdr.Name)
		lz.last = name
		switch hdr.Typeflag {
		case tar.TypeReg:
		case tar.TypeDir:
			continue
		case tar.TypeSymlink, tar.TypeLink:
			rd.p.skip(name, fmt.Sprintf("a link to %s; its bytes are read under their own name", safeName(hdr.Linkname)))
			continue
		default:
			rd.p.skip(name, "not a regular file in the archive")
			continue
		}
		pe, err := peel(lz.tr, rd.b, depth, lim.MaxDepth)
		if err != nil {
			return &Log{Name: name}, nil, fmt.Errorf("%s: %w", name, err)
		}
		if pe.format.archive() {
			pe.close()
			rd.p.skip(name, "an archive inside an archive read from a stream too large to keep; extract the outer one to read it")
			continue
		}
		head, _ := pe.r.Peek(headLen)
		if why, _ := rd.p.classify(head, false); why != "" {
			pe.close()
			rd.p.skip(name, why)
			continue
		}
		l := &Log{Name: name, e: e}
		rd.cur = &opened{l: l, pe: pe}
		return l, pe.r, nil
	}
}

func (p *Plan) skip(name, why string) {
	p.mu.Lock()
	p.skipped = append(p.skipped, Skipped{name, why})
	p.mu.Unlock()
}
