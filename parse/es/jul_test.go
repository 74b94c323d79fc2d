package es

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
)

// TestJULRecordsFromTheJDK reads back the java.util.logging headers the
// JDKs themselves printed (gen/JulRecords.java, one locale per language
// and every locale with its own digits, under CLDR and the JRE's own
// locale data): the default SimpleFormatter header and JDK 6's medium
// date and time. Every one must give its instant and its level.
func TestJULRecordsFromTheJDK(t *testing.T) {
	data, err := os.ReadFile("testdata/jdk/jul_records.tsv")
	require.NoError(t, err)
	rows, ambiguous := 0, 0
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		f := strings.Split(line, "\t")
		require.Len(t, f, 5, line)
		form, locale, at, header, level := f[0], f[1], f[2], f[3], f[4]
		want, err := time.Parse(time.RFC3339, at)
		require.NoError(t, err)
		source := "com.carrotsearch.randomizedtesting.RandomizedRunner$QueueUncaughtExceptionsHandler uncaughtException"
		if form == "medium" {
			source = "org.elasticsearch.index.shard.IndexShard updateGlobalCheckpointOnReplica"
		}
		if strings.Contains(locale, "-u-ca-japanese") {
			// JDK 6 printed the Japanese imperial calendar's era and
			// year (`H30.01.14`): a pattern with an era is not read.
			continue
		}
		got, src, ok := julHeader(header + " " + source)
		if !assert.True(t, ok, "%s %s: header %q not read", form, locale, header) {
			continue
		}
		switch {
		case got.Equal(want):
		case got.Equal(want.Truncate(time.Minute)) && form == "medium":
			// The locale's medium time prints no seconds (mk).
		case form == "medium" && swapped(got, want):
			// A numeric date reads day and month in the order the
			// first pattern that fits says: `02/09/2018` is either.
			ambiguous++
		default:
			// A name two locales give different meanings reads as
			// most locales mean it.
			assert.True(t, ambiguousIn(header), "%s %s: %q read as %s, want %s", form, locale, header, got, want)
			ambiguous++
		}
		assert.Equal(t, strings.Fields(source)[0], src)
		assert.True(t, knows([]byte(header+" "+source)), "%s %s: Knows", form, locale)
		if level != "" {
			lvl, msg, ok := julLevel(level + ": Uncaught exception in thread: x")
			assert.True(t, ok, "%s: level %q", locale, level)
			assert.Equal(t, level, lvl)
			assert.Equal(t, "Uncaught exception in thread: x", msg)
		}
		rows++
	}
	assert.Greater(t, rows, 1000, "the JDKs print more headers than this")
	assert.Less(t, ambiguous, rows/50, "few headers hold a name other locales read otherwise")
}

func swapped(a, b time.Time) bool {
	return a.Year() == b.Year() && int(a.Month()) == b.Day() && a.Day() == int(b.Month()) && a.Hour() == b.Hour()
}

func ambiguousIn(header string) bool {
	h := strings.ToLower(header)
	for _, a := range julData().ambiguous {
		if strings.Contains(h, a) {
			return true
		}
	}
	return false
}

// A record read whole: its header's time goes to the exception under it,
// the thread its level line names is the exception's node, in the
// localized level names the JDK prints.
func TestJULRecord(t *testing.T) {
	for _, c := range []struct{ header, level string }{
		{"Jan 14, 2018 4:24:47 PM", "WARNING"},
		{"janv. 14, 2018 4:24:47 PM", "AVERTISSEMENT"},
		{"Jan. 14, 2018 4:24:47 NM.", "WARNING"},
		{"gen 14, 2018 4:24:47 PM", "AVVERTENZA"},
		{"14.01.2018 16:24:47", "WARNUNG"},
		{"1月 14, 2018 4:24:47 下午", "警告"},
	} {
		log := "  2> " + c.header + " com.carrotsearch.randomizedtesting.RandomizedRunner$QueueUncaughtExceptionsHandler uncaughtException\n" +
			"  2> " + c.level + ": Uncaught exception in thread: Thread[elasticsearch[node_t4][write][T#2],5,TGRP-FollowIT]\n" +
			"  2> java.lang.AssertionError: engine must be closed after failEngine\n" +
			"  2> \tat org.elasticsearch.index.engine.Engine.failEngine(Engine.java:1183)\n"
		res := scan(t, log)
		assert.Equal(t, 4, res.Stats.Claimed, c.header)
		require.Len(t, res.Events, 1, c.header)
		e, ok := res.Events[0].(*Exception)
		require.True(t, ok)
		assert.Equal(t, "node_t4", e.Node, c.header)
		assert.Equal(t, time.Date(2018, 1, 14, 16, 24, 47, 0, time.UTC), e.Time, c.header)
		assert.True(t, e.Timed)
		a := e.Alarm()
		assert.Equal(t, "java.lang.AssertionError", a.Raised)
		assert.Equal(t, "engine must be closed after failEngine", a.Message)
		assert.Equal(t, "org.elasticsearch.index.engine.Engine", a.Where)
		var _ parse.Alarm = e
	}
}
