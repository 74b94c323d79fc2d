package yb

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A line with no glog clock is foreign (parse.Verdict.Foreign, so the
// worker asks the Knows tests of it) unless it is a line a block is made
// of: a numbered dump entry or an indented line, which the decoder most
// often claims and whose Knows answer would be wasted on every entry of a
// long dump.
func TestForeignVerdict(t *testing.T) {
	for line, want := range map[string]bool{
		"2023-10-07 16:00:08.582 UTC [2033] LOG:  duration: 0.5 ms":                        true,
		"[2023-10-04T10:00:00,000][TRACE][o.e.i.s.IndexShard       ] [node_t0] x":          true,
		"Some other program's line":                                                        true,
		"12. Replicated { ht: { physical: 1696696743032008 } op_id: 15.686817 }":           false,
		"  max_safe_time_returned_with_lease_={ safe_time: { physical: 1 } source: kNow }": false,
		"    @     0x7f0b5c2d1e3f  yb::tablet::MvccManager::AddPending()":                  false,
		"\tat org.elasticsearch.index.shard.IndexShard.recover(IndexShard.java:1)":         false,
		"I1007 16:00:00.000000 41020 log.cc:1108] T a P b: Rolled over":                    false,
	} {
		assert.Equal(t, want, classify([]byte(line)).Foreign, line)
	}
}
