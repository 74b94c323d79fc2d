package ybrules_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/internal/synth"
)

// A test build prints hybrid times as days and a wall clock; the same
// incident printed that way gives the findings, numbers and cited lines
// of its `{ physical: N }` rendering, with a dump short enough to be
// handed on whole and one read in parts.
func TestDaysFormGivesTheSameFindings(t *testing.T) {
	for _, entries := range []int{4, 9000} {
		var got [2]string
		for i, days := range []bool{false, true} {
			var b bytes.Buffer
			require.NoError(t, synth.Write(&b, synth.Options{System: "yb-dump", DumpEntries: entries, Seed: 3, Peers: 3, DaysForm: days}))
			if days {
				require.Contains(t, b.String(), "ht: { days: ")
				require.NotContains(t, b.String(), "physical")
			}
			got[i] = summarize(runKeeping(t, map[string]string{"dump.log": b.String()}, 0))
		}
		require.Contains(t, got[0], "yb/mvcc/ht-below-safe-time", "%d entries", entries)
		require.Equal(t, got[0], got[1], "%d entries", entries)
		require.False(t, strings.Contains(got[1], "cannot read"), got[1])
	}
}
