package es

import (
	"bytes"

	"github.com/logsleuth/logsleuth/parse"
)

// System.Classify runs fastShape on the reader's workers and notes
// (parse.Verdict.Note) where the hot shape's fields are, so the decoder's
// goroutine, which every line of an input passes through, reads only the
// time and the numbers: the byte tests of the envelope and the message,
// the bracket searches and the allocation id's check are done off it.
//
// A note holds the shape's kind and the lengths of its text fields; every
// literal between them is fixed by the shape, and a number is read again
// where the literal before it ends (numAt finds its end). A line whose
// fields do not fit the note's widths gets none and is read in full.
// fromNote checks every offset it derives against the line, so a note
// never makes the decoder read out of bounds, and TestNoteAgreesWithShape
// and FuzzFastPath hold it to fastShape's reading.

// classify is System.Classify. No line is skipped (a line the decoder
// declines still sets the time a following dump row or stack takes). A
// hot shape's line, which the decoder makes an event of and replay keeps
// the text of, gets its string packed in the worker's text blocks
// (Verdict.Pack): a copy, as the decoder's own blocks would cost, but
// made off the decoder's goroutine, where an op line's copy was an
// eighth of a TRACE log's time. Every line gets a note: a hot shape's
// fields, a line fastDecline takes (declineShape's reading, so the
// phrase search is done), or fastNo, a line neither fast path takes,
// which the decoder then reads on the general path straight away.
func classify(b []byte) parse.Verdict {
	var f fastMsg
	if env, ok := fastShape(b, &f); ok {
		return parse.Verdict{Note: noteOf(b, &env, &f), Pack: true}
	}
	if at, l1, owned, ok := declineShape(b); ok {
		return parse.Verdict{Note: declineNote(at, l1, owned)}
	}
	if v, ok := classifyJSON(b); ok {
		return v
	}
	return parse.Verdict{Note: uint64(fastNo), Foreign: foreignLine(b)}
}

// foreignLine reports whether b opens neither a log4j pattern record nor
// a JSON one, nor a line of a stack trace (indented, or a cause), which
// the decoder claims inside an exception: another program's line, most
// often, or a bare excerpt (Verdict.Foreign).
func foreignLine(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	switch b[0] {
	case '[', '{', ' ', '\t':
		return false
	}
	return !bytes.HasPrefix(b, []byte("Caused by: ")) && !bytes.HasPrefix(b, []byte("Suppressed: "))
}

// declineNote notes what declineShape read, or returns 0 when it does not
// fit.
func declineNote(at, l1 int, owned bool) uint64 {
	if at >= 1<<8 || l1-26 >= 1<<8 {
		return 0
	}
	n := uint64(fastDecl) | uint64(at)<<nAt | uint64(l1-26)<<nLevel
	if owned {
		n |= 1 << nOwned
	}
	return n
}

// The note's fields: offset and width in bits. The envelope's come first,
// then the message's, whose meaning depends on the kind.
const (
	nKind   = 0  // fastKind, 3 bits (never 0 in a note)
	nP      = 3  // env.p, 5 bits
	nLogger = 8  // env.node0 - env.p - 33, 6 bits
	nGlued  = 14 // env.glued, 1 bit
	nNode   = 15 // node length, 8 bits
	nIndex  = 23 // index length, 8 bits
	nMsg    = 31 // the message's fields from here on

	// fastOp7: the word (0 index, 1 index-done, 2 delete), then the
	// lengths of the doc id, the allocation id, the origin and the
	// failure.
	nWord   = nMsg      // 2 bits
	nID     = nMsg + 2  // 8 bits
	nAlloc  = nMsg + 10 // 7 bits
	nOrigin = nMsg + 17 // 5 bits
	nFail   = nMsg + 22 // 8 bits
	// fastOp6: the lengths of the type and the doc id.
	nType = nMsg     // 8 bits
	nDoc  = nMsg + 8 // 8 bits
	// fastLCP: the allocation id's length (nText); fastReplicaGCP: the
	// reason's.
	nText = nMsg // 8 bits
)

// A fastDecl note: where the line starts after its prefixes, and the
// length of its level field (from the level's bracket to the one that
// closes it), and what patternStart said.
const (
	nAt    = 3  // 8 bits
	nLevel = 11 // 8 bits
	nOwned = 19 // 1 bit
)

// field returns the width bits of n at off.
func field(n uint64, off, width uint) int { return int(n >> off & (1<<width - 1)) }

// noteOf encodes what fastShape read of b, or returns 0 when a length
// does not fit.
func noteOf(b []byte, env *fastEnvelope, f *fastMsg) uint64 {
	var n uint64
	ok := true
	put := func(v int, off, width uint) {
		if v < 0 || v >= 1<<width {
			ok = false
			return
		}
		n |= uint64(v) << off
	}
	put(int(f.kind), nKind, 3)
	put(env.p, nP, 5)
	put(env.node0-env.p-33, nLogger, 6)
	if env.glued {
		n |= 1 << nGlued
	}
	put(env.node1-env.node0, nNode, 8)
	put(env.index1-env.index0, nIndex, 8)
	switch f.kind {
	case fastOp7:
		word := 0
		switch {
		case f.done:
			word = 1
		case f.op == "delete":
			word = 2
		}
		put(word, nWord, 2)
		put(f.id1-f.id0, nID, 8)
		put(f.a1-f.a0, nAlloc, 7)
		put(f.o1-f.o0, nOrigin, 5)
		if f.done {
			put(f.f1-f.f0, nFail, 8)
		}
	case fastOp6:
		put(f.id1-f.id0, nType, 8)
		put(f.doc1-f.doc0, nDoc, 8)
	case fastLCP:
		put(f.a1-f.a0, nText, 8)
	case fastReplicaGCP:
		put(f.r1-f.r0, nText, 8)
	}
	if !ok {
		return 0
	}
	return n
}

// Where a message's fields start, after the literal before each.
const (
	lenAllocation = len("] allocation-id [[id=")
	lenOpTerm     = len("] operationPrimaryTerm [")
	lenLCP        = len("updated local checkpoint of [")
	lenPrimaryGCP = len("updated global checkpoint to [")
	lenReplicaGCP = len("updated global checkpoint from [")
	lenReplicaTo  = len("] to [")
	lenDueTo      = len("] due to [")
	lenOp6Seq     = len("] (seq# [")
)

// fromNote fills env and f as fastShape would from b, whose note n is,
// and reports whether it could: false for a note whose offsets do not fit
// b (the caller then reads b in full).
func fromNote(n uint64, b []byte, env *fastEnvelope, f *fastMsg) bool {
	end := len(b)
	env.p = field(n, nP, 5)
	if env.p+33 > end {
		return false
	}
	env.node0 = env.p + 33 + field(n, nLogger, 6)
	env.node1 = env.node0 + field(n, nNode, 8)
	// `] [` before the index, or `][` glued.
	i := env.node1 + 3
	env.glued = n>>nGlued&1 != 0
	if env.glued {
		i--
	}
	env.index0 = i
	env.index1 = i + field(n, nIndex, 8)
	if env.index1+2 > end {
		return false
	}
	sh, i := numAt(b, env.index1+2)
	if i < 0 {
		return false
	}
	env.shard, env.msg = int(sh), i+2
	i = env.msg
	f.kind = fastKind(field(n, nKind, 3))
	switch f.kind {
	case fastOp7:
		env.indexShard = true
		switch field(n, nWord, 2) {
		case 0:
			f.op, i = "index", i+len(litIndex)
		case 1:
			f.op, f.done, i = "index", true, i+len(litIndexDone)
		default:
			f.op, i = "delete", i+len(litDelete)
		}
		f.id0 = i
		f.id1 = i + field(n, nID, 8)
		// `]`, then ` seq# [`.
		if f.id1+1+len(litSeq) > end {
			return false
		}
		if f.seq, i = numAt(b, f.id1+1+len(litSeq)); i < 0 {
			return false
		}
		f.a0 = i + lenAllocation
		f.a1 = f.a0 + field(n, nAlloc, 7)
		if f.a1+len(litPrimaryTerm) > end {
			return false
		}
		if f.term, i = numAt(b, f.a1+len(litPrimaryTerm)); i < 0 || i+lenOpTerm > end {
			return false
		}
		if f.opt, i = numAt(b, i+lenOpTerm); i < 0 {
			return false
		}
		f.o0 = i + len(litOrigin)
		f.o1 = f.o0 + field(n, nOrigin, 5)
		i = f.o1 + 1
		if f.done {
			if i+len(litResultSeq) > end {
				return false
			}
			if f.seq, i = numAt(b, i+len(litResultSeq)); i < 0 || i+len(litResultTerm) > end {
				return false
			}
			if f.term, i = numAt(b, i+len(litResultTerm)); i < 0 {
				return false
			}
			f.f0 = i + len(litFailure)
			f.f1 = f.f0 + field(n, nFail, 8)
			i = f.f1 + 1
		}
	case fastOp6:
		env.indexShard = true
		f.id0 = i + len(litIndex)
		f.id1 = f.id0 + field(n, nType, 8)
		f.doc0 = f.id1 + 2
		f.doc1 = f.doc0 + field(n, nDoc, 8)
		if f.doc1+lenOp6Seq > end {
			return false
		}
		if f.seq, i = numAt(b, f.doc1+lenOp6Seq); i < 0 {
			return false
		}
		i += 2 // `])`
	case fastLCP:
		env.tracker = true
		f.a0 = i + lenLCP
		f.a1 = f.a0 + field(n, nText, 8)
		if f.a1+len(litFrom) > end {
			return false
		}
		if f.from, i = numAt(b, f.a1+len(litFrom)); i < 0 || i+len(litTo) > end {
			return false
		}
		if f.to, i = numAt(b, i+len(litTo)); i < 0 {
			return false
		}
		i++
	case fastPrimaryGCP:
		env.tracker = true
		if i+lenPrimaryGCP > end {
			return false
		}
		if f.to, i = numAt(b, i+lenPrimaryGCP); i < 0 {
			return false
		}
		i++
	case fastReplicaGCP:
		env.tracker = true
		if i+lenReplicaGCP > end {
			return false
		}
		if f.from, i = numAt(b, i+lenReplicaGCP); i < 0 || i+lenReplicaTo > end {
			return false
		}
		if f.to, i = numAt(b, i+lenReplicaTo); i < 0 {
			return false
		}
		f.r0 = i + lenDueTo
		f.r1 = f.r0 + field(n, nText, 8)
		i = f.r1 + 1
	default:
		return false
	}
	// The shape ends with the line: a note that does not is not this
	// line's.
	return i == end
}
