package yb

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
)

// collectedLine is a line and the time a collector stamped on it.
type collectedLine struct {
	text      string
	collected string // RFC 3339, or ""
}

// decodeLines runs the decoder over lines the way Scan does and returns
// what it gave, the year and where the year came from.
func decodeLines(t *testing.T, opts parse.Options, lines []collectedLine) (parse.Sink, int, string) {
	t.Helper()
	d := newDecoder("t.log", opts)
	var out parse.Sink
	for i, l := range lines {
		pl := parse.Line{Pos: parse.Pos{Source: "t.log", Line: i + 1}, Text: []byte(l.text)}
		if l.collected != "" {
			c, err := time.Parse(time.RFC3339Nano, l.collected)
			require.NoError(t, err)
			pl.Collected = c
		}
		d.Line(pl, &out)
	}
	d.End(&out)
	y, from := d.Year()
	return out, y, from
}

func times(evs []parse.Event) []string {
	var ts []string
	for _, e := range evs {
		m := e.Info()
		ts = append(ts, fmt.Sprintf("%d %s %v", m.Pos.Line, m.Time.Format("2006-01-02T15:04:05"), m.Timed))
	}
	return ts
}

func diagTexts(ds []parse.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String() + "\n")
	}
	return b.String()
}

const (
	advance2 = "I0706 14:29:03.822054 1 raft_consensus.cc:3504] T t1 P p1 [term 1 FOLLOWER]: Advancing to term 2"
	advance3 = "I0706 14:29:04.000000 1 raft_consensus.cc:3504] T t1 P p1 [term 2 FOLLOWER]: Advancing to term 3"
	other    = "I0706 14:29:05.000000 1 log.cc:1] T t1 P p1: Max segment size reached"
)

// A container stream: no header, no --year; the collector's time gives
// the year, to the events read before it too.
func TestYearFromCollector(t *testing.T) {
	out, y, from := decodeLines(t, parse.Options{}, []collectedLine{
		{advance2, ""},
		{advance3, ""},
		{other, "2023-07-06T14:29:05.100Z"},
	})
	assert.Equal(t, []string{"1 2023-07-06T14:29:03 true", "2 2023-07-06T14:29:04 true"}, times(out.Events))
	assert.Empty(t, out.Diags)
	assert.Equal(t, 2023, y)
	assert.Equal(t, parse.YearFromCollector, from)
}

// A December stamp collected in January is the year before; the stamps
// after it cross New Year.
func TestYearFromCollectorAtNewYear(t *testing.T) {
	out, y, from := decodeLines(t, parse.Options{}, []collectedLine{
		{"I1231 23:59:59.900000 1 raft_consensus.cc:3504] T t1 P p1 [term 1 FOLLOWER]: Advancing to term 2", "2024-01-01T00:00:00.200Z"},
		{"I0101 00:00:01.000000 1 raft_consensus.cc:3504] T t1 P p1 [term 2 FOLLOWER]: Advancing to term 3", "2024-01-01T00:00:01.200Z"},
	})
	assert.Equal(t, []string{"1 2023-12-31T23:59:59 true", "2 2024-01-01T00:00:01 true"}, times(out.Events))
	assert.Equal(t, 2023, y)
	assert.Equal(t, parse.YearFromCollector, from)
	// And the other way: a January stamp collected on New Year's Eve
	// (the node's clock ran ahead) is the year after.
	out, y, _ = decodeLines(t, parse.Options{}, []collectedLine{
		{"I0101 00:00:01.000000 1 raft_consensus.cc:3504] T t1 P p1 [term 1 FOLLOWER]: Advancing to term 2", "2023-12-31T23:59:58Z"},
	})
	assert.Equal(t, []string{"1 2024-01-01T00:00:01 true"}, times(out.Events))
	assert.Equal(t, 2024, y)
}

// Without a collector, a hybrid time printed in the same source gives
// the year (its physical part is µs since the epoch), to the events
// before it too; a test value like { physical: 1 } says nothing.
func TestYearFromHybridTime(t *testing.T) {
	out, y, from := decodeLines(t, parse.Options{}, []collectedLine{
		{"I1007 16:39:01.000000 1 raft_consensus.cc:3504] T t1 P p1 [term 16 FOLLOWER]: Advancing to term 17", ""},
		{"I1007 16:39:02.000000 1 replica_state.cc:1300] T t1 P p1 [term 17 LEADER]: Revoked old leader p2 ht lease: { physical: 1 }", ""},
		{"F1007 16:39:07.497722 1 mvcc.cc:395] T t1 P p1: New operation's hybrid time too low: { physical: 1696696747406942 }, op id: 17.686821", ""},
		{"  max_safe_time_returned_with_lease_={ safe_time: { physical: 1696696747484844 logical: 4095 } source: kNextInQueue }", ""},
	})
	assert.Equal(t, []string{"1 2023-10-07T16:39:01 true", "2 2023-10-07T16:39:02 true", "3 2023-10-07T16:39:07 true"}, times(out.Events))
	assert.Empty(t, out.Diags)
	assert.Equal(t, 2023, y)
	assert.Equal(t, parse.YearFromHybridTime, from)
}

// --year wins over the collector and the hybrid times; the header wins
// over both.
func TestYearFlagAndHeaderWin(t *testing.T) {
	lines := []collectedLine{
		{advance2, "2024-07-06T14:29:03Z"},
		{"F0706 14:29:07.497722 1 mvcc.cc:395] T t1 P p1: New operation's hybrid time too low: { physical: 1696696747406942 }", ""},
		{"  max_safe_time_returned_with_lease_={ safe_time: { physical: 1696696747484844 logical: 4095 } source: kNextInQueue }", ""},
	}
	out, y, from := decodeLines(t, parse.Options{Year: 2019}, lines)
	assert.Equal(t, []string{"1 2019-07-06T14:29:03 true", "2 2019-07-06T14:29:07 true"}, times(out.Events))
	assert.Equal(t, 2019, y)
	assert.Equal(t, parse.YearFromFlag, from)

	out, y, from = decodeLines(t, parse.Options{}, append([]collectedLine{{"Log file created at: 2021/07/06 14:00:00", ""}}, lines...))
	assert.Equal(t, []string{"2 2021-07-06T14:29:03 true", "3 2021-07-06T14:29:07 true"}, times(out.Events))
	assert.Equal(t, 2021, y)
	assert.Equal(t, parse.YearFromHeader, from)
}

// With nothing to take the year from, the events wait a bounded number
// of lines, then go on with the assumed year and one diagnostic; the
// rest of the source is not held.
func TestYearAssumedAfterWait(t *testing.T) {
	lines := []collectedLine{{advance2, ""}}
	for i := 0; i < holdLines+10; i++ {
		lines = append(lines, collectedLine{other, ""})
	}
	lines = append(lines, collectedLine{advance3, "2023-07-06T14:29:04Z"})
	d := newDecoder("t.log", parse.Options{})
	var out parse.Sink
	for i, l := range lines {
		pl := parse.Line{Pos: parse.Pos{Source: "t.log", Line: i + 1}, Text: []byte(l.text)}
		if l.collected != "" {
			pl.Collected, _ = time.Parse(time.RFC3339, l.collected)
		}
		d.Line(pl, &out)
		if i == holdLines+1 {
			require.Len(t, out.Events, 1, "the wait is over by line %d", i+1)
		}
	}
	d.End(&out)
	assert.Equal(t, []string{"1 2000-07-06T14:29:03 true", fmt.Sprintf("%d 2000-07-06T14:29:04 true", len(lines))}, times(out.Events))
	assert.Equal(t, "t.log:1: glog timestamps carry no year and the log has no `Log file created at:` header; year 2000 assumed (use --year to set it)\n", diagTexts(out.Diags))
	y, from := d.Year()
	assert.Equal(t, 2000, y)
	assert.Equal(t, parse.YearAssumed, from)

	// A short source says so at its end.
	out, y, from = decodeLines(t, parse.Options{}, []collectedLine{{advance2, ""}})
	assert.Len(t, out.Events, 1)
	assert.Len(t, out.Diags, 1)
	assert.Equal(t, 2000, y)
	assert.Equal(t, parse.YearAssumed, from)
}

// A FATAL-details line's full date gives the year to the glog lines
// read before it.
func TestYearFromDetails(t *testing.T) {
	out, y, from := decodeLines(t, parse.Options{}, []collectedLine{
		{advance2, ""},
		{"F20230706 14:29:09 ../../src/yb/consensus/raft_consensus.cc:1403] T t1 P p1: Check failed: x", ""},
	})
	assert.Equal(t, []string{"1 2023-07-06T14:29:03 true", "2 2023-07-06T14:29:09 true"}, times(out.Events))
	assert.Equal(t, 2023, y)
	assert.Equal(t, parse.YearFromDetails, from)
	// A source that printed no glog time says nothing.
	_, y, from = decodeLines(t, parse.Options{}, []collectedLine{{"nothing", ""}})
	assert.Equal(t, 0, y)
	assert.Equal(t, "", from)
}

var _ parse.YearTeller = (*decoder)(nil)

// Scan states in each source's stats the year its glog times were given
// and where it came from, as the decoder settled it.
func TestScanStatesTheYear(t *testing.T) {
	for _, c := range []struct {
		name, log string
		opts      parse.Options
		year      int
		from      string
	}{
		{"header", "Log file created at: 2021/07/06 14:29:00\n" + advance2 + "\n", parse.Options{}, 2021, parse.YearFromHeader},
		{"flag", "Log file created at: 2021/07/06 14:29:00\n" + advance2 + "\n", parse.Options{Year: 2019}, 2019, parse.YearFromFlag},
		{"collector", "2022-07-06T14:29:03.9Z " + advance2 + "\n", parse.Options{}, 2022, parse.YearFromCollector},
		{"assumed", advance2 + "\n" + advance3 + "\n", parse.Options{}, 2000, parse.YearAssumed},
		{"no glog time", "not a log line\n", parse.Options{}, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, _, err := parse.ScanFunc(strings.NewReader(c.log), "t.log", []parse.System{System}, c.opts, func(parse.Event) {})
			require.NoError(t, err)
			assert.Equal(t, c.year, st.Year)
			assert.Equal(t, c.from, st.YearFrom)
		})
	}
}

// A block begun before the year was known and handed on after it was
// found is moved to that year like the events that waited: here the
// first one-line dump entry gives the year (its hybrid time is in days)
// once the line the Skip test takes has ended its block, while the next
// entry has already begun one, a dump long enough to be handed on in two
// parts.
func TestYearMovesTheOpenBlock(t *testing.T) {
	var log strings.Builder
	log.WriteString("W0401 15:39:59.516744 28663 mvcc.cc:182] 405. AddPending { provided_ht: <invalid> final_ht: { days: 18353 time: 15:39:58.902044 } }\n")
	log.WriteString("I0401 15:39:59.516750 28663 tablet_service.cc:99] Processing a write\n")
	for i := 0; i < DumpWindow+10; i++ {
		fmt.Fprintf(&log, "W0401 15:39:59.516784 28663 mvcc.cc:182] %d. Aborted { ht: { days: 18353 time: 15:39:58.902044 } }\n", 407+i)
	}
	for _, sys := range []parse.System{System, noSkip} {
		res, err := parse.Scan(strings.NewReader(log.String()), "t.log", []parse.System{sys}, parse.Options{})
		require.NoError(t, err)
		require.Len(t, res.Events, 3)
		for _, e := range res.Events {
			m := e.Info()
			assert.Equal(t, time.UTC, m.Time.Location(), "line %d", m.Pos.Line)
			assert.Equal(t, 2020, m.Time.Year(), "line %d", m.Pos.Line)
		}
	}
	sameWithoutSkip(t, "t.log", []byte(log.String()))
}
