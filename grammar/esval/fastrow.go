package esval

// A cluster-state dump prints a routing row per shard copy and a node row
// per node, on every cluster-state update a TRACE log shows, and the
// participle grammars read one in tens of microseconds. fastSeq and
// fastNodeRow are hand-written readers of the same two grammars (the
// summary and node grammars of grammar.go): they build the tree the
// grammar builds (without positions) from the same tokens, or report
// false for any text they do not read exactly as it would (an empty
// element, an unclosed bracket, a comma where a flag should be), which
// the grammar then reads and reports on. TestFastRowsMatchGrammar and
// the fuzz targets FuzzFastSeq and FuzzFastNodeRow hold them to it.

// fastSeq reads s as the summary grammar's Seq.
func fastSeq(s string) (*Seq, bool) {
	r := rowReader{s: s}
	seq, ok := r.seq()
	if !ok || r.i != len(s) {
		return nil, false
	}
	return seq, true
}

// rowReader walks a routing row; i is the next byte to read.
type rowReader struct {
	s string
	i int
}

// seq reads Elem (',' Elem)*.
func (r *rowReader) seq() (*Seq, bool) {
	seq := &Seq{}
	for {
		e, ok := r.elem()
		if !ok {
			return nil, false
		}
		seq.Elems = append(seq.Elems, e)
		if r.i >= len(r.s) || r.s[r.i] != ',' {
			return seq, true
		}
		r.i++
	}
}

// elem reads Part+: text runs and bracket groups up to a ',' or ']' or
// the end.
func (r *rowReader) elem() (*Elem, bool) {
	e := &Elem{}
	for r.i < len(r.s) {
		switch r.s[r.i] {
		case ',', ']':
			return e, len(e.Parts) > 0
		case '[':
			r.i++
			p := &Part{Open: true}
			if r.i < len(r.s) && r.s[r.i] != ']' {
				inner, ok := r.seq()
				if !ok {
					return nil, false
				}
				p.Inner = inner
			}
			if r.i >= len(r.s) || r.s[r.i] != ']' {
				return nil, false
			}
			r.i++
			e.Parts = append(e.Parts, p)
		default:
			j := r.i
			for j < len(r.s) && r.s[j] != '[' && r.s[j] != ']' && r.s[j] != ',' {
				j++
			}
			text := r.s[r.i:j]
			r.i = j
			e.Parts = append(e.Parts, &Part{Text: &text})
		}
	}
	return e, len(e.Parts) > 0
}

// fastNodeRow reads s as the node grammar's NodeRow: Brace+ (',' Text)*.
func fastNodeRow(s string) (*NodeRow, bool) {
	row := &NodeRow{}
	i := 0
	for i < len(s) && s[i] == '{' {
		b, j, ok := fastBrace(s, i)
		if !ok {
			return nil, false
		}
		row.Fields = append(row.Fields, b)
		i = j
	}
	if len(row.Fields) == 0 {
		return nil, false
	}
	for i < len(s) {
		if s[i] != ',' {
			return nil, false
		}
		j := i + 1
		for j < len(s) && s[j] != '{' && s[j] != '}' && s[j] != ',' {
			j++
		}
		if j == i+1 {
			return nil, false
		}
		row.Flags = append(row.Flags, s[i+1:j])
		i = j
	}
	return row, true
}

// fastBrace reads the brace that opens at s[i]: text runs, each comma as
// a part of its own, and nested braces. j is where it ends.
func fastBrace(s string, i int) (*Brace, int, bool) {
	b := &Brace{}
	i++
	for i < len(s) {
		switch s[i] {
		case '}':
			return b, i + 1, true
		case '{':
			nested, j, ok := fastBrace(s, i)
			if !ok {
				return nil, 0, false
			}
			b.Parts = append(b.Parts, &BracePart{Nested: nested})
			i = j
		case ',':
			comma := ","
			b.Parts = append(b.Parts, &BracePart{Text: &comma})
			i++
		default:
			j := i
			for j < len(s) && s[j] != '{' && s[j] != '}' && s[j] != ',' {
				j++
			}
			text := s[i:j]
			b.Parts = append(b.Parts, &BracePart{Text: &text})
			i = j
		}
	}
	return nil, 0, false
}
