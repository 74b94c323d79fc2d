package source

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// Options say where inputs come from and how far to follow them.
type Options struct {
	FS    FS
	Stdin io.Reader
	// StdinInfo describes standard input when it is known (a file
	// redirected with <), so a report path can be checked against it.
	StdinInfo fs.FileInfo
	// IsLog says whether the first bytes of a file hold a line of a known
	// system, possibly wrapped by a collector. It decides which files of
	// a walked directory or an archive are read; files named on the
	// command line are read unless they are binary or logsleuth's own
	// reports. Nil takes every text file for a log.
	IsLog func(head []byte) bool
	// Progress, when set, is called with the count of bytes read from
	// files and standard input as stored (before decompression) while
	// logs are read; it may be called from several goroutines.
	Progress func(n int64)
	Limits   Limits
	// Rereads, when set, is told of each log read as it is on disk, so
	// its lines can be read again by offset (Inputs.SetRereads).
	Rereads *Rereads
}

// Limits bound what a hostile or damaged input can cost. The zero value of
// a field means its default.
type Limits struct {
	// MaxBytes caps the bytes one input may decompress to, counted on
	// every pass over it (listing it, and each group's read): a
	// decompression bomb stops there with a diagnostic.
	MaxBytes int64
	// MaxMembers caps the members listed in one input, nested ones
	// included.
	MaxMembers int
	// MaxDepth caps how many archive and compression layers may nest
	// inside one input (bundle.tar.gz is two).
	MaxDepth int
	// MaxSpool caps the bytes of an archive that cannot be reopened
	// (standard input, a FIFO, a zip inside a compressed stream) that are
	// kept in memory so it can be read like a file.
	MaxSpool int64
	// MaxHashes caps the glog line hashes kept to compare WARNING, ERROR
	// and FATAL files with the INFO file of the same process.
	MaxHashes int
}

// Defaults for Limits.
const (
	DefaultMaxBytes   = 32 << 30
	DefaultMaxMembers = 100_000
	DefaultMaxDepth   = 6
	DefaultMaxSpool   = 256 << 20
	DefaultMaxHashes  = 4 << 20
)

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxMembers <= 0 {
		l.MaxMembers = DefaultMaxMembers
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxSpool <= 0 {
		l.MaxSpool = DefaultMaxSpool
	}
	if l.MaxHashes <= 0 {
		l.MaxHashes = DefaultMaxHashes
	}
	return l
}

// Skipped is an input not read, and why: a report lists them so that
// nothing is left out in silence.
type Skipped struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Inputs is the command line's paths expanded to files, before any of
// them is opened: enough to check report paths against, cheaply.
type Inputs struct {
	opts    Options
	entries []*entry
	dirs    []dirEntry
	tops    []string // the directories named
	skipped []Skipped
	errs    []error
}

// entry is one file or stream to open.
type entry struct {
	name     string
	explicit bool // named on the command line (or by a glob there)
	stream   bool // read once, as it comes: standard input, a FIFO
	stdin    bool
	link     bool // the name is a symbolic link
	id       FileID
	hasID    bool
	size     int64
	// mem holds a stream's bytes when it is an archive small enough to
	// keep; replay and closer read one too large to keep, once.
	mem    []byte
	replay io.Reader
	closer io.Closer
	// tops are the directories named on the command line whose walks
	// found it.
	tops []string
}

type dirEntry struct {
	name  string
	abs   string
	id    FileID
	hasID bool
}

// maxWalkDepth bounds directory nesting, so a pathological tree cannot
// exhaust the stack.
const maxWalkDepth = 64

// Expand turns the user's paths into inputs: "-" or no path is standard
// input, a directory is every regular file under it in name order, a
// pattern that names no file is expanded as a glob (for CI configs that
// quote one), and anything else is itself. Paths that cannot be listed
// are errors; the rest are still read.
func Expand(opts Options, paths []string) *Inputs {
	opts.Limits = opts.Limits.withDefaults()
	if opts.FS == nil {
		opts.FS = OS{}
	}
	in := &Inputs{opts: opts}
	if len(paths) == 0 {
		paths = []string{"-"}
	}
	stdinSeen := false
	for _, p := range paths {
		if p == "-" {
			// Standard input can be read once; a second "-" adds nothing.
			if !stdinSeen {
				stdinSeen = true
				e := &entry{name: "-", explicit: true, stream: true, stdin: true}
				if opts.StdinInfo != nil {
					e.id, e.hasID = idOf(opts.StdinInfo)
				}
				in.entries = append(in.entries, e)
			}
			continue
		}
		if _, err := opts.FS.Stat(p); err != nil {
			if hasMeta(p) && errors.Is(err, fs.ErrNotExist) {
				matches, gerr := glob(opts.FS, p)
				if gerr != nil {
					in.errs = append(in.errs, fmt.Errorf("%s: %w", p, gerr))
					continue
				}
				if len(matches) == 0 {
					in.errs = append(in.errs, fmt.Errorf("%s: no file matches the pattern", p))
					continue
				}
				for _, m := range matches {
					in.add(m, true)
				}
				continue
			}
			in.errs = append(in.errs, cleanErr(p, err))
			continue
		}
		in.add(p, true)
	}
	in.dedupe()
	return in
}

// add adds a path named on the command line (or matched by its glob).
func (in *Inputs) add(p string, explicit bool) {
	info, err := in.opts.FS.Stat(p)
	if err != nil {
		in.errs = append(in.errs, cleanErr(p, err))
		return
	}
	if info.IsDir() {
		in.tops = append(in.tops, p)
		in.walk(p, p, info, 0)
		return
	}
	e := &entry{name: p, explicit: explicit, size: info.Size()}
	e.id, e.hasID = idOf(info)
	if li, err := in.opts.FS.Lstat(p); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		e.link = true
	}
	if !info.Mode().IsRegular() {
		// A FIFO or device the user named streams, like standard input.
		e.stream, e.size = true, -1
	}
	in.entries = append(in.entries, e)
}

// walk lists dir recursively in name order. Symbolic links to directories
// are not followed (a link loop cannot trap the walk); links to regular
// files are read; anything else that is not a regular file is listed as
// skipped and never opened.
func (in *Inputs) walk(top, dir string, info fs.FileInfo, depth int) {
	if depth > maxWalkDepth {
		in.errs = append(in.errs, fmt.Errorf("%s: directories nested more than %d deep; not read", dir, maxWalkDepth))
		return
	}
	d := dirEntry{name: dir}
	d.id, d.hasID = idOf(info)
	if abs, err := filepath.Abs(dir); err == nil {
		d.abs = abs
	}
	in.dirs = append(in.dirs, d)
	entries, err := in.opts.FS.ReadDir(dir)
	if err != nil {
		in.errs = append(in.errs, cleanErr(dir, err))
		return
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, de := range entries {
		p := filepath.Join(dir, de.Name())
		t := de.Type()
		link := t&fs.ModeSymlink != 0
		var fi fs.FileInfo
		if link || t.IsDir() || t.IsRegular() {
			fi, err = in.opts.FS.Stat(p)
			if err != nil {
				in.errs = append(in.errs, cleanErr(p, err))
				continue
			}
		} else {
			fi, err = de.Info()
			if err != nil {
				in.errs = append(in.errs, cleanErr(p, err))
				continue
			}
		}
		m := fi.Mode()
		switch {
		case m.IsDir() && link:
			in.skipped = append(in.skipped, Skipped{p, "a symbolic link to a directory; not followed"})
		case m.IsDir():
			in.walk(top, p, fi, depth+1)
		case m.IsRegular():
			e := &entry{name: p, link: link, size: fi.Size(), tops: []string{top}}
			e.id, e.hasID = idOf(fi)
			in.entries = append(in.entries, e)
		default:
			what := kindOf(m)
			if link {
				what = "a symbolic link to " + what
			}
			in.skipped = append(in.skipped, Skipped{p, what + ", not a regular file; not opened"})
		}
	}
}

// dedupe keeps one name for each file reached more than once (a symbolic
// or hard link, a file named twice or found by two walks): the one that is
// not a link, else one written plainly (no `./` or `//`), else the first
// in name order.
func (in *Inputs) dedupe() {
	byID := map[FileID]*entry{}
	byPath := map[string]*entry{}
	keep := in.entries[:0]
	better := func(a, b *entry) bool { // a is a better name than b
		if a.link != b.link {
			return !a.link
		}
		if ca, cb := a.name == filepath.Clean(a.name), b.name == filepath.Clean(b.name); ca != cb {
			return ca
		}
		return a.name < b.name
	}
	var dropped []*entry
	for _, e := range in.entries {
		var prev *entry
		key := ""
		if e.stdin {
			keep = append(keep, e)
			continue
		}
		if e.hasID {
			prev = byID[e.id]
		} else {
			key = cleanPath(e.name)
			prev = byPath[key]
		}
		if prev == nil {
			if e.hasID {
				byID[e.id] = e
			} else {
				byPath[key] = e
			}
			keep = append(keep, e)
			continue
		}
		if better(e, prev) {
			// e takes prev's place; prev is the one skipped.
			*prev, *e = *e, *prev
		}
		prev.explicit = prev.explicit || e.explicit
		prev.tops = append(prev.tops, e.tops...)
		dropped = append(dropped, e)
	}
	in.entries = keep
	listed := map[string]bool{}
	for _, e := range dropped {
		var canon *entry
		if e.hasID {
			canon = byID[e.id]
		} else {
			canon = byPath[cleanPath(e.name)]
		}
		if e.name == canon.name || listed[e.name] {
			continue
		}
		listed[e.name] = true
		why := "hard link"
		switch {
		case cleanPath(e.name) == cleanPath(canon.name):
			why = "named more than once"
		case e.link:
			why = "symbolic link"
		}
		in.skipped = append(in.skipped, Skipped{e.name, fmt.Sprintf("the same file as %s (%s)", canon.name, why)})
	}
}

func cleanPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}

// Collision is a report path that is, or would land inside, an input.
type Collision struct {
	Report string
	Input  string
	Inside bool // the report would be written inside the input directory
}

func (c Collision) Error() string {
	if c.Inside {
		return fmt.Sprintf("report %s would be written inside the input directory %s; write it elsewhere", c.Report, c.Input)
	}
	return fmt.Sprintf("report %s is the input %s; logsleuth never writes over its inputs", c.Report, c.Input)
}

// Collides says whether writing a report to path would touch an input:
// the same file (by device and inode, whatever the names), or a file
// inside a directory being read. It is checked before any report file is
// created, so no input is ever truncated.
func (in *Inputs) Collides(path string) (Collision, bool) {
	fsys := in.opts.FS
	if info, err := fsys.Stat(path); err == nil {
		id, ok := idOf(info)
		for _, e := range in.entries {
			if ok && e.hasID && e.id == id || !e.stdin && cleanPath(e.name) == cleanPath(path) {
				return Collision{Report: path, Input: e.name}, true
			}
		}
		for _, d := range in.dirs {
			if ok && d.hasID && d.id == id {
				return Collision{Report: path, Input: d.name}, true
			}
		}
	}
	// The directories the report would be in, by identity where the file
	// system says it (so a symbolic link or bind mount cannot hide the
	// overlap), else by absolute path.
	abs := cleanPath(path)
	real := resolveExisting(fsys, abs)
	for _, p := range []string{real, abs} {
		for dir := filepath.Dir(p); ; dir = filepath.Dir(dir) {
			info, err := fsys.Stat(dir)
			var id FileID
			ok := false
			if err == nil {
				id, ok = idOf(info)
			}
			for _, d := range in.dirs {
				if ok && d.hasID && d.id == id || d.abs != "" && d.abs == dir {
					return Collision{Report: path, Input: d.name, Inside: true}, true
				}
			}
			if dir == filepath.Dir(dir) {
				break
			}
		}
	}
	return Collision{}, false
}

// resolveExisting resolves the symbolic links of the longest part of abs
// that exists, on the real file system.
func resolveExisting(fsys FS, abs string) string {
	if _, ok := fsys.(OS); !ok {
		return abs
	}
	rest := ""
	for p := abs; ; p = filepath.Dir(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		if p == filepath.Dir(p) {
			return abs
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
}

// hasMeta reports whether p holds a glob pattern character.
func hasMeta(p string) bool { return strings.ContainsAny(p, "*?[") }

// glob expands a pattern the shell left unexpanded, segment by segment
// over fsys, in name order. A pattern that is not well formed is an error.
func glob(fsys FS, pattern string) ([]string, error) {
	if _, err := filepath.Match(pattern, ""); err != nil {
		return nil, err
	}
	vol := filepath.VolumeName(pattern)
	rest := pattern[len(vol):]
	root := "."
	if strings.HasPrefix(rest, string(filepath.Separator)) {
		root = vol + string(filepath.Separator)
		rest = strings.TrimLeft(rest, string(filepath.Separator))
	}
	segs := strings.Split(rest, string(filepath.Separator))
	cur := []string{root}
	for i, seg := range segs {
		last := i == len(segs)-1
		var next []string
		for _, dir := range cur {
			if seg == "" || seg == "." {
				next = append(next, dir)
				continue
			}
			if !hasMeta(seg) {
				p := joinGlob(dir, seg)
				if _, err := fsys.Stat(p); err == nil {
					next = append(next, p)
				}
				continue
			}
			ents, err := fsys.ReadDir(dir)
			if err != nil {
				continue
			}
			sort.Slice(ents, func(a, b int) bool { return ents[a].Name() < ents[b].Name() })
			for _, de := range ents {
				name := de.Name()
				// As shells do, * does not match a leading dot.
				if strings.HasPrefix(name, ".") && !strings.HasPrefix(seg, ".") {
					continue
				}
				if ok, _ := filepath.Match(seg, name); !ok {
					continue
				}
				p := joinGlob(dir, name)
				if !last {
					if info, err := fsys.Stat(p); err != nil || !info.IsDir() {
						continue
					}
				}
				next = append(next, p)
			}
		}
		cur = next
	}
	return cur, nil
}

func joinGlob(dir, name string) string {
	if dir == "." {
		return name
	}
	return filepath.Join(dir, name)
}

// SetProgress sets Options.Progress, for a progress bar made once the
// inputs are known.
func (in *Inputs) SetProgress(fn func(n int64)) { in.opts.Progress = fn }

// Errors returns what could not be listed.
func (in *Inputs) Errors() []error { return in.errs }
