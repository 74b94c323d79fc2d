package yb

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/internal/synth"
	"github.com/logsleuth/logsleuth/parse"
)

// noiseEvents names the noise kinds (internal/synth, taken from the
// YugabyteDB sources) that a reader makes an event of, and the event: the
// rest of a tserver's lines must yield no event and no diagnostic.
var noiseEvents = map[string]string{
	"raft-become-follower":      "yb.role-change",
	"raft-preelection-start":    "yb.election-start",
	"raft-preelection-won":      "yb.election-result",
	"raft-preelection-lost":     "yb.election-result",
	"raft-prevote-granted":      "yb.vote",
	"raft-vote-denied-alive":    "yb.vote",
	"raft-reject-earlier-term":  "yb.update-rejected",
	"raft-report-fail-detected": "yb.election-start",
	// Warnings of memory pressure, which the alarm table reads.
	"raft-prepare-failed": "yb.alarm",
	"raft-append-failed":  "yb.alarm",
}

// TestNoiseKinds runs every kind of the generator's table through a scan
// (Classify on the workers, then the decoder) and through the decoder
// alone, reading every line: the event kinds give one event a line, of
// their kind, the others none, and neither gives a diagnostic.
func TestNoiseKinds(t *testing.T) {
	kinds := synth.YBNoise()
	require.GreaterOrEqual(t, len(kinds), 40)
	seen := map[string]bool{}
	for _, k := range kinds {
		require.False(t, seen[k.Name], "kind %s twice", k.Name)
		seen[k.Name] = true
		want, isEvent := noiseEvents[k.Name]
		require.Equal(t, isEvent, k.Event, "%s: the table and this test disagree on whether it is an event", k.Name)
		const n = 40
		in := k.Lines(n, 11)
		for _, sys := range []parse.System{System, noSkip} {
			res, err := parse.Scan(bytes.NewReader(in), "noise.log", []parse.System{sys}, parse.Options{Year: 2023})
			require.NoError(t, err)
			assert.Empty(t, res.Diags, "%s: diagnostics", k.Name)
			if !isEvent {
				assert.Empty(t, res.Events, "%s: no reader wants this line", k.Name)
				continue
			}
			require.Len(t, res.Events, n, k.Name)
			for _, ev := range res.Events {
				assert.Equal(t, want, ev.Kind(), k.Name)
			}
		}
		sameWithoutSkip(t, k.Name, in)
	}
	for name := range noiseEvents {
		assert.True(t, seen[name], "event kind %s is not in the table", name)
	}
}

// TestNoiseEventsRead pins what the decoder reads of the event kinds
// that are in the noise table: the replica, term and the facts of each.
func TestNoiseEventsRead(t *testing.T) {
	for _, k := range synth.YBNoise() {
		if !k.Event {
			continue
		}
		res, err := parse.Scan(bytes.NewReader(k.Lines(1, 5)), "noise.log", []parse.System{System}, parse.Options{Year: 2023})
		require.NoError(t, err)
		require.Len(t, res.Events, 1, k.Name)
		ev := res.Events[0]
		rep := ev.(interface{ Rep() *Replica }).Rep()
		assert.Len(t, rep.Tablet, 32, k.Name)
		assert.Len(t, rep.Peer, 32, k.Name)
		assert.GreaterOrEqual(t, rep.Term, int64(2), k.Name)
		if _, ok := ev.(*Alarm); ok {
			continue
		}
		switch e := ev.(type) {
		case *RoleChange:
			assert.Equal(t, BecomeFollower, e.What, k.Name)
		case *ElectionStart:
			assert.Equal(t, k.Name == "raft-preelection-start", e.Pre, k.Name)
		case *ElectionResult:
			assert.True(t, e.Pre, k.Name)
			assert.Equal(t, k.Name == "raft-preelection-won", e.Won, k.Name)
			assert.Equal(t, rep.Term+1, e.Term, k.Name)
		case *Vote:
			assert.True(t, e.Pre, k.Name)
			assert.Len(t, e.Candidate, 32, k.Name)
			assert.Equal(t, k.Name == "raft-prevote-granted", e.Granted, k.Name)
		case *UpdateRejected:
			assert.True(t, e.EarlierTerm, k.Name)
			assert.Equal(t, rep.Term-1, e.Term, k.Name)
			assert.Equal(t, rep.Term, e.Current, k.Name)
		default:
			t.Errorf("%s: unexpected %T", k.Name, ev)
		}
	}
}

// BenchmarkNoiseKinds measures a scan (classify on the workers, the
// decoder on the kept lines) of each kind alone, 4 MiB of it: the kinds
// from the consensus files whose words send them to the decoder show as
// the slow ones.
func BenchmarkNoiseKinds(b *testing.B) {
	for _, k := range synth.YBNoise() {
		one := k.Lines(64, 3)
		reps := max(1, (4<<20)/len(one))
		in := bytes.Repeat(one, reps)
		lines := 64 * reps
		b.Run(k.Name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parse.Scan(bytes.NewReader(in), "noise.log", []parse.System{System}, parse.Options{Year: 2023}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*lines), "ns/line")
		})
	}
}

// BenchmarkNoiseMix is a scan of 32 MiB of the generator's realistic
// log, the noise mix with 6% Raft lines.
func BenchmarkNoiseMix(b *testing.B) {
	var buf bytes.Buffer
	if err := synth.Write(&buf, synth.Realistic("yb", 32<<20, 7)); err != nil {
		b.Fatal(err)
	}
	in := buf.Bytes()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parse.Scan(bytes.NewReader(in), "noise.log", []parse.System{System}, parse.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
