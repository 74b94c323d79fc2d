package synth

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSameSeedSameBytes(t *testing.T) {
	var a, b bytes.Buffer
	require.NoError(t, Write(&a, Realistic("yb", 1<<20, 3)))
	require.NoError(t, Write(&b, Realistic("yb", 1<<20, 3)))
	assert.Equal(t, a.Bytes(), b.Bytes())
}

// TestRaftShare checks the density knob: the share of lines that the
// Raft and lease readers take is the share asked for. The election
// lines are told by their file and line: the noise holds other
// replica_state.cc lines.
func TestRaftShare(t *testing.T) {
	for _, share := range []float64{0.06, 0.5} {
		o := Realistic("yb", 4<<20, 1)
		o.RaftShare = share
		var b bytes.Buffer
		require.NoError(t, Write(&b, o))
		lines, raft := 0, 0
		for _, l := range strings.Split(b.String(), "\n") {
			if len(l) == 0 || l[0] != 'I' && l[0] != 'W' && l[0] != 'F' {
				continue
			}
			lines++
			for _, file := range []string{"raft_consensus.cc:622]", "raft_consensus.cc:3504]", "raft_consensus.cc:2499]", "raft_consensus.cc:2600]",
				"raft_consensus.cc:1080]", "raft_consensus.cc:1120]", "replica_state.cc:1290]", "raft_consensus.cc:3497]", "consensus_meta.cc:298]",
				"replica_state.cc:1250]"} {
				if strings.Contains(l, file) {
					raft++
					break
				}
			}
		}
		assert.InDelta(t, share, float64(raft)/float64(lines), 0.01, "share %v", share)
	}
}

func TestDumpEntries(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Write(&b, Options{System: "yb-dump", DumpEntries: 1000, Seed: 1, Peers: 3}))
	s := b.String()
	assert.Contains(t, s, "Recent 1000 MVCC operations:\n1. AddLeaderPending")
	assert.Contains(t, s, "\n1000. LastReplicatedHybridTime")
	assert.Contains(t, s, "hybrid time too low")
}

func TestTabletsOneLineEach(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Write(&b, Options{System: "yb-tablets", Tablets: 500, Seed: 1, Peers: 3}))
	assert.Equal(t, 500, strings.Count(b.String(), "Sending NO_OP"))
	assert.Equal(t, 505, strings.Count(b.String(), "\n"))
}

// TestNoiseMix checks the noise table: every kind writes lines in its own
// glog envelope, the same for the same seed, and every kind with a weight
// shows in a realistic log, in about its share of the noise.
func TestNoiseMix(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Write(&b, Realistic("yb", 8<<20, 2)))
	log := b.String()
	noise, count := 0, map[string]int{}
	total := 0
	for _, k := range YBNoise() {
		total += k.Weight
	}
	for _, k := range YBNoise() {
		lines := k.Lines(3, 9)
		assert.Equal(t, lines, k.Lines(3, 9), k.Name)
		first, _, _ := strings.Cut(string(lines), "\n")
		assert.Contains(t, first, " "+k.File+":", k.Name)
		assert.Equal(t, k.Sev, first[0], k.Name)
		if k.Weight == 0 {
			continue
		}
		// The kind's envelope and the opening words of its message.
		tag := k.File + ":" + strconv.Itoa(k.Line) + "] "
		count[k.Name] = strings.Count(log, tag)
		noise += count[k.Name]
	}
	for _, k := range YBNoise() {
		if k.Weight == 0 {
			continue
		}
		share := float64(count[k.Name]) / float64(noise)
		assert.InDelta(t, float64(k.Weight)/float64(total), share, 0.01, k.Name)
	}
}

// The JSON layouts hold the pattern layout's records: one valid JSON
// object per line, with its time, level, node and message.
func TestESLayouts(t *testing.T) {
	o := Realistic("es", 256<<10, 5)
	var plain bytes.Buffer
	require.NoError(t, Write(&plain, o))
	lines := strings.Split(strings.TrimSuffix(plain.String(), "\n"), "\n")
	for _, layout := range []string{"ecs", "esjson"} {
		o.ESLayout = layout
		var b bytes.Buffer
		require.NoError(t, Write(&b, o))
		recs := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		// The size counts bytes, so the JSON log holds fewer records.
		require.Greater(t, len(recs), 100, layout)
		require.LessOrEqual(t, len(recs), len(lines), layout)
		for i, r := range recs {
			var m map[string]string
			require.NoError(t, json.Unmarshal([]byte(r), &m), "%s record %d: %s", layout, i+1, r)
			l := lines[i]
			level, node := m["level"], m["node.name"]
			if layout == "ecs" {
				level, node = m["log.level"], m["elasticsearch.node.name"]
				require.NotEmpty(t, m["log.logger"], r)
				require.Equal(t, l[1:11]+"T"+l[12:20]+"."+l[21:24]+"Z", m["@timestamp"], r)
			} else {
				require.Equal(t, l[1:24]+"Z", m["timestamp"], r)
			}
			require.True(t, strings.HasPrefix(l[25:], "["+level), "%s record %d: level %q in %s", layout, i+1, level, l)
			require.True(t, strings.HasSuffix(l, "] ["+node+"] "+m["message"]), "%s record %d: %s against %s", layout, i+1, r, l)
		}
	}
	o.ESLayout = "xml"
	require.Error(t, Write(&bytes.Buffer{}, o))
}
