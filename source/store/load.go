package store

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// Loader turns log files into rows and ingests them.
//
// Each line becomes a row: its text, its line number, and a time that
// keeps the file's order in the store's: the line's own time where it
// prints one (read by the parsers' clocks, the year as they give it), else
// the time of the line before it, and never earlier than one nanosecond
// after the line before it, so no two rows of a file share a time. The
// lines of a multi-line record (a line that opens a record and the lines
// after it that do not) carry the record's first and last times, so that
// reading can fetch a whole record from any line of it.
type Loader struct {
	Store Store
	// Clocks returns, for a new file, one clock a system: a function
	// giving a line's own time, and false for a line that prints none.
	// fallback is the time Load was given for the file: a clock whose
	// log prints no year takes it from there until the log says one.
	Clocks func(fallback time.Time) []func(line []byte) (time.Time, bool)
	// OpensRecord reports whether a line opens a new record.
	OpensRecord func(line []byte) bool
	// BatchBytes is about how much text one Ingest carries (default 4 MiB).
	BatchBytes int
}

// MaxText is the longest line text a row keeps: VictoriaLogs skips a JSON
// line longer than its -insert.maxLineSizeBytes (256 KiB by default), so
// a longer line is cut, with room for the row's other fields.
const MaxText = 200 << 10

// maxRecordLines bounds a record held before it is sent: a longer one is
// sent in parts, each its own record.
const maxRecordLines = 8192

// LoadStats counts what Load sent.
type LoadStats struct {
	Rows        int64
	Bytes       int64
	Cut         int64 // lines cut at MaxText
	First, Last time.Time
	// Timed is false when no line printed a time: every row then has
	// the fallback time, a nanosecond apart.
	Timed bool
}

// Load reads r to its end and ingests its lines as rows of the stream with
// these labels. fallback is the time of rows before any line that prints
// one (the file's modification time, say).
func (l *Loader) Load(ctx context.Context, labels map[string]string, r io.Reader, fallback time.Time) (LoadStats, error) {
	var st LoadStats
	clocks := l.Clocks(fallback)
	batchBytes := l.BatchBytes
	if batchBytes <= 0 {
		batchBytes = 4 << 20
	}
	var (
		batch   []Row
		size    int
		rec     []Row  // the record being read
		recOwn  []bool // whether each of its rows printed its own time
		prev    time.Time
		hasPrev bool
		lineNo  int64
	)
	send := func(force bool) error {
		if len(batch) == 0 || (!force && size < batchBytes) {
			return nil
		}
		err := l.Store.Ingest(ctx, batch)
		batch, size = batch[:0], 0
		return err
	}
	// flushRecord gives the record's rows their times and queues them.
	flushRecord := func() error {
		if len(rec) == 0 {
			return nil
		}
		if !hasPrev {
			// The file's first rows: before its first own time, by one
			// nanosecond a row, or the fallback.
			base := fallback
			for i := range rec {
				if recOwn[i] {
					base = rec[i].Time.Add(-time.Duration(i) * time.Nanosecond)
					break
				}
			}
			prev, hasPrev = base.Add(-time.Nanosecond), true
		}
		for i := range rec {
			t := rec[i].Time
			if !recOwn[i] || !t.After(prev) {
				t = prev.Add(time.Nanosecond)
			}
			rec[i].Time, prev = t, t
		}
		if len(rec) > 1 {
			span := Range{rec[0].Time, rec[len(rec)-1].Time}
			for i := range rec {
				rec[i].Record = span
			}
		}
		for _, row := range rec {
			if st.Rows == 0 {
				st.First = row.Time
			}
			st.Last = row.Time
			st.Rows++
			st.Bytes += int64(len(row.Text))
			size += len(row.Text) + 64
			batch = append(batch, row)
		}
		rec, recOwn = rec[:0], recOwn[:0]
		return send(false)
	}
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		text, err := readLine(br)
		if len(text) == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return st, fmt.Errorf("read after line %d: %w", lineNo, err)
		}
		lineNo++
		if len(text) > MaxText {
			text = text[:MaxText]
			st.Cut++
		}
		if len(text) == 0 {
			// An empty line is not stored (a store keeps no empty
			// message); reading gives one back where a record's line
			// numbers skip.
			if err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				return st, fmt.Errorf("read after line %d: %w", lineNo, err)
			}
			continue
		}
		if l.OpensRecord(text) || len(rec) >= maxRecordLines {
			if err := flushRecord(); err != nil {
				return st, err
			}
		}
		row := Row{Text: string(bytes.ToValidUTF8(text, []byte("\uFFFD"))), Line: lineNo, Labels: labels}
		own := false
		for _, c := range clocks {
			if t, ok := c(text); ok {
				row.Time, own = t, true
				st.Timed = true
				break
			}
		}
		rec = append(rec, row)
		recOwn = append(recOwn, own)
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return st, fmt.Errorf("read after line %d: %w", lineNo, err)
		}
	}
	if err := flushRecord(); err != nil {
		return st, err
	}
	return st, send(true)
}

// readLine returns the next line without its end (and a CR before it),
// whatever its length; err is io.EOF after the last line.
func readLine(br *bufio.Reader) ([]byte, error) {
	var long []byte
	for {
		part, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if len(long) < MaxText+4 {
				long = append(long, part...)
			}
			continue
		}
		if long != nil {
			part = append(long, part...)
		}
		part = bytes.TrimSuffix(part, []byte("\n"))
		part = bytes.TrimSuffix(part, []byte("\r"))
		if err == nil && len(part) == 0 {
			return []byte{}, nil
		}
		return part, err
	}
}
