package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/logsleuth/logsleuth/internal/units"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeClock advances by step on every reading, so the bar redraws at
// every read in a test.
func fakeClock(step time.Duration) func() time.Time {
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(step); return t }
}

func runWithStderrTTY(t *testing.T, tty bool, env map[string]string, stdin string, args ...string) run {
	t.Helper()
	var out, errOut bytes.Buffer
	ios := &IOStreams{
		In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut, ErrTTY: tty,
		Getenv: func(k string) string { return env[k] },
		FS:     osFS{}, Now: fakeClock(time.Second),
	}
	return run{Main(args, ios), out.String(), errOut.String()}
}

func TestProgress_tty(t *testing.T) {
	r := runWithStderrTTY(t, true, nil, "", "analyze", sample)
	assert.Equal(t, exitFindings, r.code)
	size := fileSize(t, sample)
	assert.Contains(t, r.stderr, "\r\x1b[Kreading [==============================] 100%  "+units.Bytes(size)+" of "+units.Bytes(size)+"  ")
	assert.True(t, strings.HasSuffix(r.stderr, "\r\x1b[K"), "the bar is erased at the end: %q", r.stderr)
	assert.NotContains(t, r.stdout, "reading", "the bar never goes to stdout")
}

func TestProgress_ttyStdin(t *testing.T) {
	r := runWithStderrTTY(t, true, nil, readSample(t), "analyze")
	assert.Equal(t, exitFindings, r.code)
	assert.Regexp(t, `\r\x1b\[Kreading [0-9.]+ (B|KiB)  [0-9.]+ (B|KiB)/s`, r.stderr, "size unknown: bytes and rate only")
	assert.NotContains(t, r.stderr, "%")
}

func TestProgress_nontty(t *testing.T) {
	r := runWithStderrTTY(t, false, nil, "", "analyze", sample)
	assert.Equal(t, exitFindings, r.code)
	assert.Empty(t, r.stderr)
}

func TestProgress_ttyInCI(t *testing.T) {
	for _, env := range []map[string]string{{"CI": "true"}, {"TERM": "dumb"}} {
		r := runWithStderrTTY(t, true, env, "", "analyze", sample)
		assert.Empty(t, r.stderr, "%v", env)
	}
}

func TestProgressBarShape(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, now: fakeClock(time.Second), total: 4 << 20, redraw: progressEvery}
	p.start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p.add(1 << 20)
	assert.Equal(t, "\r\x1b[Kreading [=======                       ]  25%  1.0 MiB of 4.0 MiB  1.0 MiB/s", b.String())
	var nilBar *progress
	nilBar.finish() // a nil bar is a no-op
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	require.NoError(t, err)
	return info.Size()
}
