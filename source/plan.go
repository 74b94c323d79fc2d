package source

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/logsleuth/logsleuth/internal/units"
)

// Plan is what there is to read: logs in groups, what was skipped and why,
// and what could not be read.
type Plan struct {
	opts   Options
	Groups []*Group
	// mu guards skipped, errs and notes while groups read lazily
	// (an archive on standard input too large to keep).
	mu      sync.Mutex
	skipped []Skipped
	// hashLeft counts the glog line hashes still allowed (MaxHashes).
	hashLeft atomic.Int64
	errs     []error
	notes    []Note
	// named counts the planned logs of each name, and lazyNames are how
	// the names of the logs found as they are read begin: a log read
	// again by its name (Rereads) must be the only one of that name.
	named     map[string]int
	lazyNames []string
}

// onlyOfName reports whether l is the only log of the plan that its name
// can cite.
func (p *Plan) onlyOfName(l *Log) bool {
	if p.named[l.Name] != 1 {
		return false
	}
	for _, pre := range p.lazyNames {
		if strings.HasPrefix(l.Name, pre) {
			return false
		}
	}
	return true
}

// Note is a remark about one source that is not an error: the report
// carries it with the source's diagnostics.
type Note struct {
	Source  string
	Message string
}

// Group is a series of logs read one after another by one reader: the
// caller decodes each group on its own goroutine and merges groups by
// time. A group's logs are in time order, so its events are too.
type Group struct {
	Logs []*Log
	// lazy is set for an archive on a stream too large to keep in
	// memory: its logs are found as it is read.
	lazy *entry
	// size is how many stored bytes reading the group reads, for a
	// progress bar; 0 when unknown.
	size int64
}

// Size returns how many bytes, as stored, reading the group reads; 0 when
// it cannot be known (a stream).
func (g *Group) Size() int64 { return g.size }

// Streamed reports whether the group reads a stream (standard input, or
// an archive on it), whose size is not known until it has been read.
func (g *Group) Streamed() bool {
	if g.lazy != nil {
		return true
	}
	for _, l := range g.Logs {
		if l.e != nil && l.e.stream {
			return true
		}
	}
	return false
}

// Log is one stream of log text: a file, standard input, or a member of an
// archive. Name is its source name in events and reports.
type Log struct {
	Name string
	e    *entry
	c    *container // the archive it is a member of; nil for a file
	m    *member
	// stream holds a stream's text, opened while planning; it is read once.
	stream *peeled
	notes  []string
	// dir and base place the log for grouping: its directory (or archive
	// and member directory) and base name.
	dir, base string
	hashes    *glogHashes
}

// container is an archive: a file, or a member of another archive.
type container struct {
	e      *entry
	parent *container
	at     *member // the member of parent that holds it
	format format
	name   string
	depth  int // archive and compression layers down to its members
	// random is set when its members can be opened in any order without
	// reading what comes before (a zip, a tar that is not compressed).
	random bool
	// mem holds an archive kept in memory (from a stream, or a zip inside
	// a compressed stream).
	mem     []byte
	members []*member
}

// member is an entry of an archive.
type member struct {
	c     *container
	index int    // ordinal in a tar, index in a zip's directory
	raw   string // the name as stored
	name  string // as shown
	// offset and size place the data in its archive's bytes when the
	// archive is random.
	offset, size int64
	// rawEnd is how many stored bytes of the input were read by the end
	// of its header, for a progress bar.
	rawEnd int64
	link   string // a symbolic link's target
	hard   bool   // a hard link to link
	log    *Log
	skip   bool
}

// Plan opens the inputs, lists archives and decides what to read. It reads
// each archive once to list it (and, where a glog WARNING file may repeat
// its INFO file, the glog files of the process) but never holds a member
// whole in memory.
func (in *Inputs) Plan() *Plan {
	p := &Plan{opts: in.opts}
	p.hashLeft.Store(int64(in.opts.Limits.MaxHashes))
	p.skipped = append(p.skipped, in.skipped...)
	p.errs = append(p.errs, in.errs...)
	results := make([]*result, len(in.entries))
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = p.planEntry(in.entries[i])
			}
		}()
	}
	for i := range in.entries {
		work <- i
	}
	close(work)
	wg.Wait()
	var logs []*Log
	for _, r := range results {
		logs = append(logs, r.logs...)
		p.skipped = append(p.skipped, r.skipped...)
		p.errs = append(p.errs, r.errs...)
		p.notes = append(p.notes, r.notes...)
		if r.lazy != nil {
			p.Groups = append(p.Groups, &Group{lazy: r.lazy})
		}
	}
	logs = p.dedupeGlog(logs)
	p.group(logs)
	p.named = map[string]int{}
	for _, l := range logs {
		p.named[l.Name]++
	}
	for _, g := range p.Groups {
		if g.lazy != nil {
			p.lazyNames = append(p.lazyNames, g.lazy.name+"!")
		}
	}
	for _, r := range results {
		if r.empty != "" {
			p.errs = append(p.errs, errors.New(r.empty))
		}
	}
	// A directory in which nothing was read is never a silent pass.
	found := map[string]bool{}
	for i, r := range results {
		if len(r.logs) > 0 || r.lazy != nil || len(r.errs) > 0 {
			for _, t := range in.entries[i].tops {
				found[t] = true
			}
		}
	}
	for _, d := range in.tops {
		if !found[d] {
			n := 0
			for _, s := range p.skipped {
				if strings.HasPrefix(s.Name, d) {
					n++
				}
			}
			p.errs = append(p.errs, fmt.Errorf("%s: no log of a known system in this directory (%s skipped)", d, plural(int64(n), "file")))
		}
	}
	return p
}

// Skipped returns what was not read, and why.
func (p *Plan) Skipped() []Skipped {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Skipped(nil), p.skipped...)
}

// Errors returns what could not be read.
func (p *Plan) Errors() []error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]error(nil), p.errs...)
}

// Notes returns remarks about sources that are not errors.
func (p *Plan) Notes() []Note {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Note(nil), p.notes...)
}

// result is what planning one input found.
type result struct {
	logs    []*Log
	skipped []Skipped
	errs    []error
	notes   []Note
	lazy    *entry
	members int
	// empty is set for a directory or archive in which no log was found.
	empty string
}

func (r *result) skip(name, why string) { r.skipped = append(r.skipped, Skipped{name, why}) }

// openEntry opens a file or stream for reading.
func (p *Plan) openEntry(e *entry) (io.ReadCloser, error) {
	switch {
	case e.stdin:
		if p.opts.Stdin == nil {
			return io.NopCloser(strings.NewReader("")), nil
		}
		return io.NopCloser(p.opts.Stdin), nil
	case e.explicit:
		return p.opts.FS.Open(e.name)
	}
	return p.opts.FS.OpenRegular(e.name)
}

func (p *Plan) planEntry(e *entry) *result {
	res := &result{}
	lim := p.opts.Limits
	b := newBudget(lim.MaxBytes)
	rc, err := p.openEntry(e)
	if err != nil {
		var nr errNotRegular
		if errors.As(err, &nr) {
			res.skip(e.name, nr.Error())
			return res
		}
		res.errs = append(res.errs, cleanErr(e.name, err))
		return res
	}
	var rec *recorder
	var src io.Reader = rc
	if e.stream {
		// A stream cannot be reopened: what is read while it is sniffed
		// is kept, so an archive can be read again from memory. A stream
		// is read once, from here, so its bytes count toward progress.
		rec = &recorder{r: &counted{r: rc, fn: p.opts.Progress}, limit: lim.MaxSpool}
		src = rec
	}
	pe, err := peel(src, b, 0, lim.MaxDepth)
	if err != nil {
		rc.Close()
		res.errs = append(res.errs, cleanErr(e.name, err))
		return res
	}
	if !pe.format.archive() {
		head, _ := pe.r.Peek(headLen)
		why, isErr := p.classify(head, e.explicit)
		switch {
		case isErr:
			res.errs = append(res.errs, fmt.Errorf("%s: %s", e.name, why))
		case why != "":
			res.skip(e.name, why)
		default:
			l := &Log{Name: e.name, e: e, dir: filepath.Dir(e.name), base: filepath.Base(e.name)}
			if e.stream {
				rec.stop()
				rec.buf = nil
				l.stream = pe
				res.logs = append(res.logs, l)
				// Kept open: read by its group.
				l.stream.layers = append(l.stream.layers, &layer{close: func() { rc.Close() }, note: func() string { return "" }})
				return res
			}
			res.logs = append(res.logs, l)
		}
		pe.close()
		rc.Close()
		return res
	}
	c := &container{e: e, format: pe.format, name: e.name, depth: len(pe.layers) + 1}
	var ra io.ReaderAt
	var size int64
	switch {
	case e.stream:
		// Read the rest of the stream into memory, up to MaxSpool.
		if _, err := io.Copy(io.Discard, rec); err != nil && !rec.over {
			pe.close()
			rc.Close()
			res.errs = append(res.errs, cleanErr(e.name, err))
			return res
		}
		pe.close()
		if rec.over {
			// Too large to keep: read once, in archive order.
			rec.stop()
			if c.format == fmtZip {
				rc.Close()
				res.errs = append(res.errs, fmt.Errorf("%s: a zip archive larger than %s cannot be read from a stream (its directory is at its end); give it as a file", e.name, units.Bytes(lim.MaxSpool)))
				return res
			}
			e.replay = io.MultiReader(bytes.NewReader(rec.buf), rc)
			e.closer = rc
			res.lazy = e
			res.notes = append(res.notes, Note{e.name, fmt.Sprintf("an archive larger than %s on a stream: its members are read in archive order, one after another, not merged by time with each other; give the archive as a file to merge them", units.Bytes(lim.MaxSpool))})
			return res
		}
		rc.Close()
		e.mem = rec.buf
		c.mem = e.mem
		b = newBudget(lim.MaxBytes)
		pe, err = peel(bytes.NewReader(c.mem), b, 0, lim.MaxDepth)
		if err != nil {
			res.errs = append(res.errs, cleanErr(e.name, err))
			return res
		}
		if len(pe.layers) == 0 {
			ra, size = bytes.NewReader(c.mem), int64(len(c.mem))
		}
	default:
		defer rc.Close()
		if at, ok := rc.(io.ReaderAt); ok && len(pe.layers) == 0 {
			if info, err := p.opts.FS.Stat(e.name); err == nil {
				ra, size = at, info.Size()
			}
		}
	}
	defer pe.close()
	p.list(c, pe.r, ra, size, b, res)
	if len(res.logs) == 0 && len(res.errs) == 0 {
		res.empty = fmt.Sprintf("%s: no log of a known system in this %s archive (%s skipped)", e.name, c.format, plural(int64(len(res.skipped)), "member"))
	}
	return res
}

// recorder keeps what is read from a stream, up to limit bytes; past the
// limit it reads nothing more until stopped, so what it kept is always the
// whole start of the stream.
type recorder struct {
	r       io.Reader
	buf     []byte
	limit   int64
	over    bool
	stopped bool
}

func (r *recorder) Read(p []byte) (int, error) {
	if r.stopped {
		return r.r.Read(p)
	}
	room := r.limit - int64(len(r.buf))
	if room <= 0 {
		r.over = true
		return 0, errSpoolFull
	}
	if int64(len(p)) > room {
		p = p[:room]
	}
	n, err := r.r.Read(p)
	r.buf = append(r.buf, p[:n]...)
	return n, err
}

// stop ends the recording; what was kept stays in buf.
func (r *recorder) stop() { r.stopped = true }

var errSpoolFull = errors.New("stream too large to keep")

// classify decides, from its first bytes, whether a file is read. It
// returns why not (empty for a log), and whether that is an error: a file
// the user named that holds no text.
func (p *Plan) classify(head []byte, explicit bool) (string, bool) {
	isLog := func() bool { return p.opts.IsLog == nil || p.opts.IsLog(head) }
	if r := ownReport(head); r != "" {
		return r + ", not a log", false
	}
	if binary(head) && !isLog() {
		what := "binary data"
		if u := unsupported(head); u != "" {
			what = u
		}
		if explicit {
			return what + ", not a log, nor an archive or compression logsleuth reads (tar, zip, gzip, zstd, xz, bzip2)", true
		}
		return what + ", not a log", false
	}
	if explicit {
		return "", false
	}
	if len(head) == 0 {
		return "empty", false
	}
	if d := document(head); d != "" && !(d == "notes in markdown" && p.opts.IsLog != nil && p.opts.IsLog(firstLine(head))) {
		return d + ", not a log", false
	}
	if !isLog() {
		return fmt.Sprintf("no line of a known system's log in its first %s", units.Bytes(headLen)), false
	}
	return "", false
}

// list lists an archive's members from r (or, when the archive is random,
// from ra) and plans each.
func (p *Plan) list(c *container, r io.Reader, ra io.ReaderAt, size int64, b *budget, res *result) {
	c.random = ra != nil
	switch c.format {
	case fmtTar:
		p.listTar(c, r, ra, size, b, res)
	case fmtZip:
		if ra == nil {
			// A zip's directory is at its end: one inside a compressed
			// stream is kept in memory to be read.
			buf, err := readUpTo(r, p.opts.Limits.MaxSpool)
			if err != nil {
				res.errs = append(res.errs, fmt.Errorf("%s: %w", c.name, err))
				return
			}
			c.mem = buf
			c.random = true
			ra, size = bytes.NewReader(buf), int64(len(buf))
		}
		p.listZip(c, ra, size, b, res)
	}
	p.resolveLinks(c, res)
}

// readUpTo reads r whole if it holds at most limit bytes.
func readUpTo(r io.Reader, limit int64) ([]byte, error) {
	buf, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(buf)) > limit {
		return nil, fmt.Errorf("a zip archive inside a compressed stream larger than %s; not read (extract the outer archive first)", units.Bytes(limit))
	}
	return buf, nil
}

func (p *Plan) countMember(c *container, res *result) bool {
	res.members++
	if res.members > p.opts.Limits.MaxMembers {
		res.errs = append(res.errs, fmt.Errorf("%s: more than %d members; the rest are not read", c.e.name, p.opts.Limits.MaxMembers))
		return false
	}
	return true
}

func (p *Plan) listTar(c *container, r io.Reader, ra io.ReaderAt, size int64, b *budget, res *result) {
	var sr *io.SectionReader
	if ra != nil {
		sr = io.NewSectionReader(ra, 0, size)
		r = sr
	}
	tr := tar.NewReader(r)
	var last *member
	for idx := 0; ; idx++ {
		hdr, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			res.errs = append(res.errs, tarError(c, last, err))
			return
		}
		if !p.countMember(c, res) {
			return
		}
		m := &member{c: c, index: idx, raw: hdr.Name, name: memberName(c.name, hdr.Name), size: hdr.Size}
		c.members = append(c.members, m)
		last = m
		switch hdr.Typeflag {
		case tar.TypeReg:
		case tar.TypeSymlink:
			m.link = hdr.Linkname
			continue
		case tar.TypeLink:
			m.link, m.hard = hdr.Linkname, true
			continue
		case tar.TypeDir:
			continue
		case tar.TypeChar, tar.TypeBlock, tar.TypeFifo:
			m.skip = true
			res.skip(m.name, "a device or FIFO entry, not a file")
			continue
		default:
			m.skip = true
			res.skip(m.name, fmt.Sprintf("a tar entry of type %q, not a regular file", hdr.Typeflag))
			continue
		}
		if len(hdr.PAXRecords) > 0 && hasSparse(hdr) {
			m.skip = true
			res.skip(m.name, "a sparse file in the archive; not read")
			continue
		}
		var mr io.Reader = tr
		var mra io.ReaderAt
		if sr != nil {
			off, _ := sr.Seek(0, io.SeekCurrent)
			m.offset = off
			sec := io.NewSectionReader(ra, off, hdr.Size)
			mr, mra = sec, sec
		}
		if err := p.planMember(c, m, mr, mra, hdr.Size, b, res); err != nil {
			res.errs = append(res.errs, fmt.Errorf("%s: %w (the archive is cut short or damaged; the members after it are not read)", m.name, err))
			return
		}
	}
}

func hasSparse(hdr *tar.Header) bool {
	for k := range hdr.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
}

// tarError says where an archive's listing stopped.
func tarError(c *container, last *member, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, tar.ErrHeader) {
		if last == nil {
			return fmt.Errorf("%s: %w (the archive is cut short or damaged before its first member)", c.name, err)
		}
		return fmt.Errorf("%s: %w after member %s (the archive is cut short or damaged; the members before are read)", c.name, err, last.name)
	}
	if last != nil {
		return fmt.Errorf("%s: after member %s: %w", c.name, last.name, err)
	}
	return fmt.Errorf("%s: %w", c.name, err)
}

func (p *Plan) listZip(c *container, ra io.ReaderAt, size int64, b *budget, res *result) {
	zr, err := zip.NewReader(ra, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		res.errs = append(res.errs, fmt.Errorf("%s: %w (a zip archive cut short or damaged: its directory, at its end, cannot be read)", c.name, err))
		return
	}
	for idx, f := range zr.File {
		if !p.countMember(c, res) {
			return
		}
		raw := strings.ReplaceAll(f.Name, `\`, "/")
		m := &member{c: c, index: idx, raw: raw, name: memberName(c.name, raw), size: int64(f.UncompressedSize64)}
		c.members = append(c.members, m)
		mode := f.Mode()
		if mode.IsDir() {
			continue
		}
		if mode&fs.ModeSymlink != 0 {
			rc, err := f.Open()
			if err == nil {
				t, _ := io.ReadAll(io.LimitReader(rc, 4096))
				rc.Close()
				m.link = string(t)
			}
			continue
		}
		if !mode.IsRegular() {
			m.skip = true
			res.skip(m.name, "not a regular file in the archive")
			continue
		}
		var mr io.Reader
		var mra io.ReaderAt
		if f.Method == zip.Store {
			off, err := f.DataOffset()
			if err != nil {
				res.errs = append(res.errs, fmt.Errorf("%s: %w", m.name, err))
				continue
			}
			sec := io.NewSectionReader(ra, off, int64(f.CompressedSize64))
			mr, mra = sec, sec
		} else {
			rc, err := f.Open()
			if err != nil {
				res.errs = append(res.errs, fmt.Errorf("%s: %w", m.name, err))
				continue
			}
			defer rc.Close()
			mr = rc
		}
		if err := p.planMember(c, m, mr, mra, m.size, b, res); err != nil {
			res.errs = append(res.errs, fmt.Errorf("%s: %w", m.name, err))
		}
	}
}

// planMember decides what a member is: a log, a nested archive (listed in
// turn), or something skipped. An error is a read error of the archive
// itself, which ends its listing.
func (p *Plan) planMember(c *container, m *member, r io.Reader, ra io.ReaderAt, size int64, b *budget, res *result) error {
	lim := p.opts.Limits
	pe, err := peel(r, b, c.depth, lim.MaxDepth)
	if err != nil {
		if strings.HasPrefix(err.Error(), "nested more than") {
			m.skip = true
			res.errs = append(res.errs, fmt.Errorf("%s: %w", m.name, err))
			return nil
		}
		return err
	}
	defer pe.close()
	if len(pe.layers) > 0 {
		ra = nil
	}
	if pe.format.archive() {
		if c.depth+len(pe.layers)+1 > lim.MaxDepth {
			m.skip = true
			res.errs = append(res.errs, fmt.Errorf("%s: nested more than %d archive or compression layers deep; not read", m.name, lim.MaxDepth))
			return nil
		}
		nc := &container{e: c.e, parent: c, at: m, format: pe.format, name: m.name, depth: c.depth + len(pe.layers) + 1}
		m.skip = true
		var nsize int64
		if ra != nil {
			nsize = size
		}
		before := len(res.errs)
		p.list(nc, pe.r, ra, nsize, b, res)
		if len(res.errs) > before && !nc.random {
			// A nested stream that failed may have failed in its parent.
			_, err := io.Copy(io.Discard, pe.r)
			if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
				return err
			}
		}
		return nil
	}
	head, err := pe.r.Peek(headLen)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return err
	}
	why, _ := p.classify(head, false)
	if why != "" {
		m.skip = true
		res.skip(m.name, why)
		return nil
	}
	l := &Log{Name: m.name, e: c.e, c: c, m: m, dir: c.name + "!" + path.Dir(trimDotSlash(m.raw)), base: path.Base(m.raw)}
	m.log = l
	res.logs = append(res.logs, l)
	if g, ok := parseGlog(l.base); ok && !c.random && g.severity != "INFO" {
		// The member's bytes come once in this pass: a WARNING, ERROR or
		// FATAL file (small) is hashed now, for comparing with its
		// process's INFO file. INFO files are hashed only where such a
		// file was found (dedupeGlog), to spare a bundle without any the
		// cost.
		h, err := hashGlog(pe.r, false, &p.hashLeft)
		l.hashes = &h
		if err != nil {
			return err
		}
	}
	return nil
}

// resolveLinks skips the links of an archive: their bytes are another
// member's, read under that member's name.
func (p *Plan) resolveLinks(c *container, res *result) {
	byName := map[string]*member{}
	for _, m := range c.members {
		if m.link == "" {
			byName[path.Clean(trimDotSlash(m.raw))] = m
		}
	}
	for _, m := range c.members {
		if m.link == "" {
			continue
		}
		target := m.link
		if !m.hard && !path.IsAbs(target) {
			target = path.Join(path.Dir(trimDotSlash(m.raw)), target)
		}
		t := byName[path.Clean(trimDotSlash(target))]
		switch {
		case t == nil && m.hard:
			res.skip(m.name, fmt.Sprintf("a hard link to %s, which is not in the archive", safeName(m.link)))
		case t == nil:
			res.skip(m.name, fmt.Sprintf("a symbolic link to %s, which is not in the archive", safeName(m.link)))
		case m.hard:
			res.skip(m.name, fmt.Sprintf("the same file as %s (hard link)", t.name))
		default:
			res.skip(m.name, fmt.Sprintf("the same file as %s (symbolic link)", t.name))
		}
	}
}

// group puts logs into series (see series.go) and series into groups.
func (p *Plan) group(logs []*Log) {
	type skey struct {
		dir, key string
	}
	series := map[skey][]*Log{}
	type ordered struct {
		l     *Log
		order string
	}
	orders := map[*Log]string{}
	var singles [][]*Log
	var keys []skey
	for _, l := range logs {
		if l.stream != nil {
			singles = append(singles, []*Log{l})
			continue
		}
		key, order, ok := seriesKey(l.base)
		if !ok {
			singles = append(singles, []*Log{l})
			continue
		}
		k := skey{l.dir, key}
		if _, seen := series[k]; !seen {
			keys = append(keys, k)
		}
		series[k] = append(series[k], l)
		orders[l] = order
	}
	var groups [][]*Log
	for _, k := range keys {
		s := series[k]
		sort.SliceStable(s, func(i, j int) bool {
			if orders[s[i]] != orders[s[j]] {
				return orders[s[i]] < orders[s[j]]
			}
			return s[i].Name < s[j].Name
		})
		// In an archive read front to back, a group can only go forward:
		// a series stored out of time order is read by more than one.
		var run []*Log
		for _, l := range s {
			if len(run) > 0 && l.c != nil && !l.c.random && l.m.index < run[len(run)-1].m.index {
				groups = append(groups, run)
				run = nil
			}
			run = append(run, l)
		}
		groups = append(groups, run)
	}
	groups = append(groups, singles...)
	for _, g := range groups {
		gr := &Group{Logs: g}
		for _, l := range g {
			switch {
			case l.c == nil && l.e.size > 0:
				gr.size += l.e.size
			case l.c != nil && l.c.random:
				gr.size += l.m.size
			case l.c != nil:
				gr.size = max(gr.size, l.e.size)
			}
		}
		p.Groups = append(p.Groups, gr)
	}
	sort.SliceStable(p.Groups, func(i, j int) bool { return p.Groups[i].first() < p.Groups[j].first() })
}

func (g *Group) first() string {
	if len(g.Logs) == 0 {
		if g.lazy != nil {
			return g.lazy.name
		}
		return ""
	}
	return g.Logs[0].Name
}
