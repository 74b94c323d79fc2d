package yb

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
)

func TestKnows(t *testing.T) {
	for line, want := range map[string]bool{
		"I1007 12:00:00.123456  4242 log.cc:1090] T t P p: Max segment size reached": true,
		"F20230706 14:29:04 ../../src/yb/tablet/mvcc.cc:395] details":                true,
		"  1> W0706 14:29:03.859643 101982 env.cc:1] indented, runner prefix":        true,
		"F1399 99:99:99.999999 1 raft_consensus.cc:395] a stamp that is no time":     true,
		"Log file created at: 2023/07/06 14:00:00":                                   true,
		"    @     0x7f938a340444  yb::LogFatalHandlerSink::send()":                  true,
		"*** Check failure stack trace: ***":                                         true,
		"T 7e9 P 3a1 [term 3 LEADER]: anything after a replica prefix":               true,
		"405. AddPending { provided_ht: <invalid> final_ht: { physical: 1 } }":       true,
		"  !!! ht <= max_safe_time_returned_with_lease_.safe_time=1":                 true,
		"  last_replicated_={ physical: 1696696743035532 }":                          true,
		"Check failed: !kv_pair.key().empty()":                                       true,
		// Raft's words without envelope or prefix, read by no reader.
		"Term 4 pre-election: Requesting vote from peer 7eb56e72d25d4305969db301d31904d7":              true,
		"Not starting pre-election -- already leader":                                                  true,
		"[2023-10-04T10:00:00,000][INFO ][o.e.c.s.MasterService] [n1] elected-as-master, Check failed": false,
		`{"@timestamp":"2023-10-04T10:00:00.000Z","message":"Check failed: x"}`:                        false,
		"hello world": false,
		"":            false,
	} {
		assert.Equal(t, want, knows([]byte(line)), "%q", line)
	}
}

// Every line the decoder claims outside a block is one Knows knows, over
// every YugabyteDB text in testdata and ../shared (a line that continues
// a message is known only by what came before it); and no line of an
// Elasticsearch log in its own layout is.
func TestKnowsEveryClaimedLine(t *testing.T) {
	checked := 0
	for _, p := range ybTexts(t) {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		d := newDecoder(p, parse.Options{Year: 2023})
		var out parse.Sink
		for i, line := range bytes.Split(data, []byte("\n")) {
			line = bytes.TrimSuffix(line, []byte("\r"))
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			fresh := d.block == nil
			if d.Line(parse.Line{Pos: parse.Pos{Source: p, Line: i + 1}, Text: line}, &out) && fresh {
				checked++
				require.True(t, knows(line), "%s:%d claimed but not known: %s", p, i+1, line)
			}
		}
	}
	assert.Greater(t, checked, 500)
	es, _ := filepath.Glob("../../../shared/corpus/es/*.log")
	require.NotEmpty(t, es)
	for _, p := range es {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		for _, line := range bytes.Split(data, []byte("\n")) {
			if bytes.HasPrefix(line, []byte("[20")) || bytes.HasPrefix(line, []byte("{\"")) {
				require.False(t, knows(line), "%s: %s", p, line)
			}
		}
	}
}
