package source

import (
	"bufio"
	"bytes"
	"fmt"
	"hash/maphash"
	"io"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// glog writes every line to the file of its own severity and to each lower
// one (logging.cc: LogDestination::LogToAllLogfiles), so the INFO file of a
// process holds every line of its WARNING, ERROR and FATAL files. Reading
// those too would count each warning twice, as if from another source, and
// make rules see a peer step back in time. A severity file is skipped only
// when every one of its lines is, in fact, in the INFO files of the same
// program, host, user and pid; otherwise it is read whole (its lines may
// be all that is left of a rotated-away INFO file).

// dupSeed keys the line hashes: random per run, so a log cannot be crafted
// to collide (the verdict does not depend on the seed unless two lines
// collide, with odds of 2^-64 per pair).
var dupSeed = maphash.MakeSeed()

// glogHashes are the hashes of the lines of one glog file that a
// comparison needs: for an INFO file, its WARNING-and-above lines (with
// their continuation lines); for a severity file, every line after its
// header.
type glogHashes struct {
	hashes []uint64
	// over is set when the hashes would have passed the limit: the file
	// cannot be compared.
	over bool
}

// hashGlog reads r to its end and hashes the lines a comparison needs.
// left is the number of hashes still allowed across the run.
func hashGlog(r io.Reader, info bool, left *atomic.Int64) (glogHashes, error) {
	var out glogHashes
	br := bufio.NewReaderSize(r, 256<<10)
	var h maphash.Hash
	h.SetSeed(dupSeed)
	started := false // past the header: a line with a severity was seen
	keep := false    // the current message is one this file's hashes keep
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(line) > 0 {
			text := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
			if sev, ok := glogSeverity(text); ok {
				started = true
				keep = !info || sev != 'I'
			}
			if started && keep {
				if out.over || left.Add(-1) < 0 {
					out.over = true
				} else {
					h.Reset()
					h.Write(text)
					out.hashes = append(out.hashes, h.Sum64())
				}
			}
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

// glogSeverity reads the severity of a glog line: `Lmmdd hh:mm:ss`.
func glogSeverity(t []byte) (byte, bool) {
	if len(t) < 14 || t[5] != ' ' || t[8] != ':' || t[11] != ':' {
		return 0, false
	}
	switch t[0] {
	case 'I', 'W', 'E', 'F':
	default:
		return 0, false
	}
	for _, i := range []int{1, 2, 3, 4, 6, 7, 9, 10, 12, 13} {
		if t[i] < '0' || t[i] > '9' {
			return 0, false
		}
	}
	return t[0], true
}

// contained counts how many of sev's lines are in info, sorted (each line
// of info standing for one line of sev, as often as it occurs).
func contained(sorted []uint64, sev []uint64) int {
	used := map[uint64]int{}
	n := 0
	for _, h := range sev {
		i, found := slices.BinarySearch(sorted, h)
		if !found {
			continue
		}
		avail := 0
		for j := i; j < len(sorted) && sorted[j] == h; j++ {
			avail++
		}
		if used[h] < avail {
			used[h]++
			n++
		}
	}
	return n
}

// dedupeGlog drops the WARNING, ERROR and FATAL files whose every line is
// in the INFO files of the same process, listing each as skipped.
func (p *Plan) dedupeGlog(logs []*Log) []*Log {
	type pkey struct{ dir, base, pid string }
	type proc struct {
		info []*Log
		sev  []*Log
	}
	procs := map[pkey]*proc{}
	var keys []pkey
	for _, l := range logs {
		g, ok := parseGlog(l.base)
		if !ok || l.stream != nil {
			continue
		}
		k := pkey{l.dir, g.base, g.pid}
		pr := procs[k]
		if pr == nil {
			pr = &proc{}
			procs[k] = pr
			keys = append(keys, k)
		}
		if g.severity == "INFO" {
			pr.info = append(pr.info, l)
		} else {
			pr.sev = append(pr.sev, l)
		}
	}
	var need []*Log
	for _, k := range keys {
		pr := procs[k]
		if len(pr.info) == 0 || len(pr.sev) == 0 {
			continue
		}
		for _, l := range append(append([]*Log(nil), pr.info...), pr.sev...) {
			if l.hashes == nil {
				need = append(need, l)
			}
		}
	}
	p.hashAll(need)
	drop := map[*Log]bool{}
	for _, k := range keys {
		pr := procs[k]
		if len(pr.info) == 0 || len(pr.sev) == 0 {
			continue
		}
		var info []uint64
		over := false
		for _, l := range pr.info {
			info = append(info, l.hashes.hashes...)
			over = over || l.hashes.over
		}
		slices.Sort(info)
		names := pr.info[0].Name
		if len(pr.info) > 1 {
			names = fmt.Sprintf("%s and %d more INFO files", names, len(pr.info)-1)
		}
		for _, l := range pr.sev {
			if over || l.hashes.over {
				l.notes = append(l.notes, fmt.Sprintf("not compared with %s: more than %d glog lines to compare; read in full, so lines it shares with the INFO file count twice", names, p.opts.Limits.MaxHashes))
				continue
			}
			n, total := contained(info, l.hashes.hashes), len(l.hashes.hashes)
			switch {
			case n == total:
				drop[l] = true
				p.skipped = append(p.skipped, Skipped{l.Name, fmt.Sprintf("every line is also in %s (glog writes each line to its own severity's file and to every lower one)", names)})
			case n > 0:
				l.notes = append(l.notes, fmt.Sprintf("%d of its %d lines are also in %s, and count twice; the other %d are in no INFO file of this process, so it is read in full", n, total, names, total-n))
			}
		}
	}
	out := logs[:0]
	for _, l := range logs {
		l.hashes = nil
		if !drop[l] {
			out = append(out, l)
		}
	}
	return out
}

// hashAll hashes the glog files a comparison needs that the listing did
// not, a few at a time: the files of one archive read front to back are
// hashed in one pass over it. A file that cannot be read is left
// uncompared: reading it reports the error.
func (p *Plan) hashAll(logs []*Log) {
	var batches [][]*Log
	byContainer := map[*container]int{}
	for _, l := range logs {
		if l.c == nil || l.c.random {
			batches = append(batches, []*Log{l})
			continue
		}
		i, ok := byContainer[l.c]
		if !ok {
			i = len(batches)
			byContainer[l.c] = i
			batches = append(batches, nil)
		}
		batches[i] = append(batches[i], l)
	}
	for _, b := range batches {
		sort.Slice(b, func(i, j int) bool { return b[i].m != nil && b[j].m != nil && b[i].m.index < b[j].m.index })
	}
	work := make(chan []*Log)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for batch := range work {
				rd := p.reader(&Group{Logs: batch}, false)
				for {
					l, r, err := rd.Next()
					if err == io.EOF || err != nil && l == nil {
						break
					}
					h := glogHashes{over: true}
					if err == nil {
						g, _ := parseGlog(l.base)
						if hh, err := hashGlog(r, g.severity == "INFO", &p.hashLeft); err == nil {
							h = hh
						}
					}
					l.hashes = &h
				}
				rd.Close()
				for _, l := range batch {
					if l.hashes == nil {
						l.hashes = &glogHashes{over: true}
					}
				}
			}
		}()
	}
	for _, b := range batches {
		work <- b
	}
	close(work)
	wg.Wait()
}
