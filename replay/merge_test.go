package replay

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
)

type ev struct{ parse.Meta }

func (*ev) Kind() string { return "test" }

func at(src string, line int, t time.Time) parse.Event {
	return &ev{parse.Meta{Pos: parse.Pos{Source: src, Line: line}, Time: t, Timed: !t.IsZero()}}
}

func names(evs []parse.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Info().Pos.String())
	}
	return out
}

func TestMergeOrdersByTimeThenSourceThenLine(t *testing.T) {
	base := time.Date(2023, 10, 7, 16, 0, 0, 0, time.UTC)
	s := func(n int) time.Time { return base.Add(time.Duration(n) * time.Second) }
	a := []parse.Event{at("a", 1, s(1)), at("a", 2, s(3)), at("a", 3, s(2)), at("a", 4, s(5))}
	b := []parse.Event{at("b", 1, time.Time{}), at("b", 2, s(2)), at("b", 3, s(3)), at("b", 4, s(4))}
	got := names(Merge([][]parse.Event{a, b}))
	// b:1 has no time: first. a:3's clock stepped back to 2s: it stays after
	// a:2 (line order within a source), so at 3s, where ties go to a.
	assert.Equal(t, []string{"b:1", "a:1", "b:2", "a:2", "a:3", "b:3", "b:4", "a:4"}, got)
}

// Stream must give exactly Merge's order, whatever the producers' timing.
func TestStreamMatchesMerge(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	base := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	for round := 0; round < 20; round++ {
		var streams [][]parse.Event
		for s := 0; s < 1+rng.IntN(5); s++ {
			var evs []parse.Event
			for i := 0; i < rng.IntN(3*batchSize); i++ {
				tm := time.Time{}
				if rng.IntN(10) > 0 {
					tm = base.Add(time.Duration(rng.IntN(1000)) * time.Millisecond)
				}
				evs = append(evs, at(fmt.Sprint(s), i+1, tm))
			}
			streams = append(streams, evs)
		}
		want := names(Merge(streams))
		producers := make([]Producer, len(streams))
		for i, evs := range streams {
			producers[i] = func(emit func(parse.Event)) {
				for _, e := range evs {
					emit(e)
				}
			}
		}
		var got []parse.Event
		Stream(producers, func(e parse.Event) { got = append(got, e) })
		require.Equal(t, want, names(got), "round %d", round)
	}
}

func TestStreamEmpty(t *testing.T) {
	n := 0
	Stream([]Producer{func(func(parse.Event)) {}, func(func(parse.Event)) {}}, func(parse.Event) { n++ })
	Stream(nil, func(parse.Event) { n++ })
	assert.Zero(t, n)
}

// One source's events come out as it wrote them, whatever their clocks
// say (a clock that steps back, lines with no time), across batch
// boundaries, as Merge gives them.
func TestStreamOneSource(t *testing.T) {
	base := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, n := range []int{0, 1, batchSize - 1, batchSize, batchSize + 1, 3*batchSize + 7} {
		var evs []parse.Event
		for i := 0; i < n; i++ {
			tm := base.Add(time.Duration(i%7) * time.Second) // steps back every 7 lines
			if i%5 == 0 {
				tm = time.Time{}
			}
			evs = append(evs, at("a", i+1, tm))
		}
		var got []parse.Event
		Stream([]Producer{func(emit func(parse.Event)) {
			for _, e := range evs {
				emit(e)
			}
		}}, func(e parse.Event) { got = append(got, e) })
		require.Equal(t, names(evs), names(got), "%d events", n)
		require.Equal(t, names(Merge([][]parse.Event{evs})), names(got), "%d events", n)
	}
}
