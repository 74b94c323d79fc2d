package esval

import "strings"

// checkpointKeys are the fields CheckpointOf reads (the legacy
// translogFileGeneration aside), in Checkpoint order.
var checkpointKeys = [...]string{"offset", "numOps", "generation", "minSeqNo", "maxSeqNo",
	"globalCheckpoint", "minTranslogGeneration", "trimmedAboveSeqNo"}

// fastCheckpoint reads the rendering every 6.x+ node prints,
// `Checkpoint{k=N, k=N, ...}` (decimal values, ", " between entries, no
// other spacing), without the grammar: a translog DEBUG line costs a
// participle parse otherwise. ok is false for anything else - the legacy
// wording, a duplicate or missing field, a quote, other spacing - which
// ParseCheckpoint then reads with the grammar. When ok is true, the result
// is what the grammar and CheckpointOf give (TestFastCheckpointMatchesGrammar
// and FuzzFastCheckpoint hold it to that).
func fastCheckpoint(s string) (c Checkpoint, ok bool) {
	body, ok := strings.CutPrefix(s, "Checkpoint{")
	if !ok {
		return c, false
	}
	body, ok = strings.CutSuffix(body, "}")
	if !ok || body == "" {
		return c, false
	}
	var vals [len(checkpointKeys)]int64
	var seen uint
	for {
		entry, rest, more := strings.Cut(body, ", ")
		key, val, ok := strings.Cut(entry, "=")
		if !ok || !isKeyWord(key) {
			return c, false
		}
		n, ok := decimal(val)
		if !ok {
			return c, false
		}
		for i, k := range checkpointKeys {
			if k == key {
				if seen&(1<<i) != 0 {
					return c, false
				}
				seen |= 1 << i
				vals[i] = n
			}
		}
		if key == "translogFileGeneration" {
			return c, false
		}
		if !more {
			break
		}
		body = rest
	}
	const required = 1<<0 | 1<<1 | 1<<2 | 1<<4 | 1<<5 // offset numOps generation maxSeqNo globalCheckpoint
	if seen&required != required {
		return c, false
	}
	c = Checkpoint{MinSeqNo: Unassigned, MaxSeqNo: Unassigned, GlobalCheckpoint: Unassigned,
		MinTranslogGeneration: -1, TrimmedAboveSeqNo: Unassigned}
	for i, dst := range []*int64{&c.Offset, &c.NumOps, &c.Generation, &c.MinSeqNo, &c.MaxSeqNo,
		&c.GlobalCheckpoint, &c.MinTranslogGeneration, &c.TrimmedAboveSeqNo} {
		if seen&(1<<i) != 0 {
			*dst = vals[i]
		}
	}
	if seen&(1<<6) == 0 {
		c.MinTranslogGeneration = c.Generation
	}
	return c, true
}

// isKeyWord accepts a Java field name.
func isKeyWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// decimal reads -?[0-9]{1,18}, which strconv.ParseInt reads the same.
func decimal(s string) (int64, bool) {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int64(s[i]-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}
