package ybstate

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"sync"
	"unsafe"
)

// A line kept for evidence is, for a node hosting many tablets, most of
// what the state holds: each tablet keeps the line that showed its leader
// or its lease. When the input can be read again (a plain file, read
// whole as it is on disk), the state keeps where the line is instead:
// which reader, its offset and length in the input, and a checksum of its
// text, in 16 bytes. A finding that cites the line reads it again
// (From.Text), and a line that no longer reads the same says so instead
// of quoting other text.

// A Rereader reads inputs again (source.Rereads is one). Its methods are
// called from any goroutine.
type Rereader interface {
	// Has reports whether the input named source can be read again by
	// offset (parse.Meta.Off).
	Has(source string) bool
	// ReadAt reads n bytes of source's input at offset off.
	ReadAt(source string, off int64, n int) ([]byte, error)
}

// rereaders holds every Rereader a state was given, so a kept place can
// name its reader in two bytes: index + 1.
var rereaders struct {
	sync.RWMutex
	list []Rereader
}

// A place (refText) starts with refMark, which no valid UTF-8 text does
// and packText never writes first; it is refLen bytes long: the mark, the
// reader (2 bytes), the offset (6), the length (3) and the text's CRC-32
// (4).
const (
	refMark = 0xfc
	refLen  = 16
	maxRef  = 1<<48 - 1 // the largest offset a place holds
	maxRefN = 1<<24 - 1 // the longest line
)

var refTable = crc32.MakeTable(crc32.Castagnoli)

// register adds r to rereaders and returns its number, or 0 when there is
// no room (the state then keeps texts).
func register(r Rereader) uint16 {
	rereaders.Lock()
	defer rereaders.Unlock()
	if len(rereaders.list) >= 1<<16-1 {
		return 0
	}
	rereaders.list = append(rereaders.list, r)
	return uint16(len(rereaders.list))
}

// reread is a state's Rereader and what it said of the sources asked.
type reread struct {
	r  Rereader
	id uint16
	// last and has cache the last source asked: a state's lines come in
	// runs of one source.
	last string
	has  bool
}

// can reports whether text, which starts at off (0-based) in source's
// input, can be kept by place: the input can be read again, and the text
// is longer than its place.
func (rr *reread) can(source string, off int64, text string) bool {
	if rr == nil || off < 0 || off > maxRef || len(text) > maxRefN || len(text) <= refLen {
		return false
	}
	if source != rr.last {
		rr.last, rr.has = source, rr.r.Has(source)
	}
	return rr.has
}

// place returns the place of text, which starts at off (0-based) in
// source's input, and true; or false when it cannot be kept by place.
func (rr *reread) place(source string, off int64, text string) (string, bool) {
	if !rr.can(source, off, text) {
		return "", false
	}
	var b [refLen]byte
	b[0] = refMark
	binary.BigEndian.PutUint16(b[1:3], rr.id)
	var o [8]byte
	binary.BigEndian.PutUint64(o[:], uint64(off))
	copy(b[3:9], o[2:])
	b[9], b[10], b[11] = byte(len(text)>>16), byte(len(text)>>8), byte(len(text))
	binary.BigEndian.PutUint32(b[12:16], textSum(text))
	return string(b[:]), true
}

// textSum is the CRC-32C of text. It reads text's bytes where they are:
// crc32.Checksum takes a []byte, and converting the string would copy
// every line kept by place (a Raft-heavy log's every term line) only to
// checksum it.
func textSum(text string) uint32 {
	return crc32.Checksum(unsafe.Slice(unsafe.StringData(text), len(text)), refTable)
}

// isPlace reports whether a kept text is a place.
func isPlace(p string) bool { return len(p) == refLen && p[0] == refMark }

// readPlace reads the line at place p of source again; a line that does
// not read as it did when kept is a note saying so.
func readPlace(source, p string) string {
	id := binary.BigEndian.Uint16([]byte(p[1:3]))
	var o [8]byte
	copy(o[2:], p[3:9])
	off := int64(binary.BigEndian.Uint64(o[:]))
	n := int(p[9])<<16 | int(p[10])<<8 | int(p[11])
	sum := binary.BigEndian.Uint32([]byte(p[12:16]))
	rereaders.RLock()
	var r Rereader
	if id > 0 && int(id) <= len(rereaders.list) {
		r = rereaders.list[id-1]
	}
	rereaders.RUnlock()
	if r == nil {
		return fmt.Sprintf("[line %d bytes at offset %d of %s: no reader to read it again]", n, off, source)
	}
	b, err := r.ReadAt(source, off, n)
	switch {
	case err != nil:
		return fmt.Sprintf("[line %d bytes at offset %d of %s could not be read again: %v]", n, off, source, err)
	case len(b) != n || crc32.Checksum(b, refTable) != sum:
		return fmt.Sprintf("[line %d bytes at offset %d of %s: the file changed after it was read]", n, off, source)
	}
	return string(b)
}

// SetRereader has the state keep the lines of r's inputs by place, and
// read them again for a finding; nil keeps texts. Call it before the
// first Apply.
func (s *State) SetRereader(r Rereader) { s.raft.SetRereader(r) }

// SetRereader is State.SetRereader for a Raft view alone.
func (r *Raft) SetRereader(rd Rereader) {
	if rd == nil {
		r.reread = nil
		return
	}
	if id := register(rd); id != 0 {
		r.reread = &reread{r: rd, id: id}
	}
}
