package yb

import (
	"strconv"
	"strings"

	"github.com/logsleuth/logsleuth/grammar/ybval"
)

// The Raft lines print three value shapes, almost always in their plain
// form. These read the plain forms without the grammar (participle costs
// most of the time of a Raft line) and hand anything else to ybval, so
// the result is the grammar's either way (raft_values_test.go checks).

// raftHT reads a hybrid time. ybval reads the plain forms without the
// grammar itself, range checks included.
func raftHT(s string) (ybval.HybridTime, error) { return ybval.ParseHybridTime(s) }

// raftOpID reads an op id. ybval reads the plain forms without the
// grammar itself.
func raftOpID(s string) (ybval.OpID, error) { return ybval.ParseOpID(s) }

// raftDelta reads a MonoDelta `S.mmms` (or `-S.mmms`) directly, any other
// rendering through ybval.
func raftDelta(s string) (ybval.Deadline, error) {
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	if w, rest, ok := cutUint(body); ok && len(rest) == 5 && rest[0] == '.' && rest[4] == 's' {
		if f, r2, ok := cutUint(rest[1:4]); ok && r2 == "" && w < 9223372036 {
			m := int64(w)*1000 + int64(f)
			if neg {
				m = -m
			}
			return ybval.Deadline{Millis: m}, nil
		}
	}
	return ybval.ParseDeadline(s)
}

// cutUint reads the leading decimal digits of s (at most 19, so it fits).
func cutUint(s string) (uint64, string, bool) {
	i := 0
	for i < len(s) && i < 19 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || (i < len(s) && s[i] >= '0' && s[i] <= '9') {
		return 0, s, false
	}
	n, err := strconv.ParseUint(s[:i], 10, 64)
	if err != nil {
		return 0, s, false
	}
	return n, s[i:], true
}
