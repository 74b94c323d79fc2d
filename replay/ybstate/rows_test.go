package ybstate_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
	"github.com/logsleuth/logsleuth/replay/ybstate"
)

// The readable timelines of all tablets together keep at most MaxRows
// rows, and say how many they dropped; a row keeps its line's position.
func TestTimelineRowsBoundedOverAllTablets(t *testing.T) {
	var log strings.Builder
	log.WriteString(raftHeader)
	tablets := ybstate.MaxRows/2 + 10
	for i := 0; i < tablets; i++ {
		// Two rows each: the leadership and its NO_OP.
		fmt.Fprintf(&log, "I1007 16:39:00.100000 1 raft_consensus.cc:1] T t%d P a [term 2 LEADER]: Sending NO_OP at op 2.%d\n", i, i+1)
	}
	r := ybstate.NewRaft()
	_, _, err := parse.ScanFunc(strings.NewReader(log.String()), "t.log", []parse.System{yb.System}, parse.Options{}, func(e parse.Event) {
		r.Apply(e.(yb.Event))
	})
	require.NoError(t, err)
	kept := 0
	for _, tab := range r.Tablets() {
		tr := r.Tablet(tab)
		kept += len(tr.Rows())
		for _, row := range tr.Rows() {
			assert.Empty(t, row.From.Text())
			assert.NotZero(t, row.From.Pos.Line)
		}
	}
	assert.Equal(t, ybstate.MaxRows, kept)
	assert.Equal(t, 2*tablets-ybstate.MaxRows, r.DroppedRows())
	var b bytes.Buffer
	last := fmt.Sprintf("t%d", tablets-1)
	r.Timeline(&b, last, nil)
	assert.Contains(t, b.String(), "... and 2 more rows not kept (at most 5000 rows per tablet, 10000 over all tablets; 20 dropped in all)")
	require.NotNil(t, r.Tablet(last).Leadership("a", 2), "the rules' state is kept whatever the rows")
}
