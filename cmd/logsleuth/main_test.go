package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sample = "../../testdata/yb/mvcc-ht-too-low.log"

type run struct {
	code   int
	stdout string
	stderr string
}

// logsleuth runs the command in-process, as a pipe (not a terminal) with
// an empty environment unless env says otherwise.
func logsleuth(t *testing.T, stdin string, env map[string]string, args ...string) run {
	t.Helper()
	return logsleuthFS(t, osFS{}, stdin, env, args...)
}

func logsleuthFS(t *testing.T, fsys FileSystem, stdin string, env map[string]string, args ...string) run {
	t.Helper()
	var out, errOut bytes.Buffer
	ios := &IOStreams{
		In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut,
		Getenv: func(k string) string { return env[k] },
		FS:     fsys,
	}
	code := Main(args, ios)
	return run{code, out.String(), errOut.String()}
}

func readSample(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(sample)
	require.NoError(t, err)
	return string(b)
}

func TestAnalyzeFile(t *testing.T) {
	r := logsleuth(t, "", nil, "analyze", sample)
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Contains(t, r.stdout, "error   yb/mvcc/ht-below-safe-time  (confirmed)")
	assert.Contains(t, r.stdout, "op 17.686821 at ht 1696696747406942 is 77902 us below the safe time 1696696747484844.4095 already served under lease")
	assert.Contains(t, r.stdout, "error   yb/lease/overlap  (derived)")
	assert.Contains(t, r.stdout, sample+":39  New operation's hybrid time too low")
	assert.Contains(t, r.stdout, "2 findings (2 errors) in 1 source, 71 lines, 2 events, 0 unclaimed, 0 diagnostics")
	assert.Empty(t, r.stderr)
}

func TestBareFileMeansAnalyze(t *testing.T) {
	a := logsleuth(t, "", nil, "analyze", sample)
	b := logsleuth(t, "", nil, sample)
	assert.Equal(t, a, b)
}

func TestStdin(t *testing.T) {
	for _, args := range [][]string{{"analyze"}, {"analyze", "-"}} {
		r := logsleuth(t, readSample(t), nil, args...)
		assert.Equal(t, exitFindings, r.code)
		assert.Contains(t, r.stdout, "-:39  New operation's hybrid time too low")
	}
}

func TestDirectoryAndGzip(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "node-b"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "node-a"), 0o755))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(readSample(t)))
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "node-b", "yb-tserver.INFO.gz"), gz.Bytes(), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "node-a", "notes.txt"), []byte("nothing to see\n"), 0o644))

	r := logsleuth(t, "", nil, "analyze", "--format", "json", dir)
	require.Equal(t, exitFindings, r.code, r.stderr)
	var rep struct {
		Findings []struct {
			Rule     string `json:"rule"`
			Evidence []struct {
				Source string `json:"source"`
				Line   int    `json:"line"`
			} `json:"evidence"`
		} `json:"findings"`
		Stats struct {
			Sources []struct {
				Source string `json:"source"`
				Lines  int    `json:"lines"`
			} `json:"sources"`
			Unclaimed int `json:"unclaimed"`
			Skipped   []struct {
				Name   string `json:"name"`
				Reason string `json:"reason"`
			} `json:"skipped"`
		} `json:"stats"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	// A walked file with no line of a known system is listed, not read.
	require.Len(t, rep.Stats.Sources, 1)
	assert.Equal(t, filepath.Join(dir, "node-b", "yb-tserver.INFO.gz"), rep.Stats.Sources[0].Source)
	assert.Equal(t, 71, rep.Stats.Sources[0].Lines)
	assert.Equal(t, 0, rep.Stats.Unclaimed)
	require.Len(t, rep.Stats.Skipped, 1)
	assert.Equal(t, filepath.Join(dir, "node-a", "notes.txt"), rep.Stats.Skipped[0].Name)
	assert.Equal(t, "no line of a known system's log in its first 64.0 KiB", rep.Stats.Skipped[0].Reason)
	assert.Contains(t, r.stderr, "logsleuth: skipped "+filepath.Join(dir, "node-a", "notes.txt")+": no line of a known system's log")
	require.Len(t, rep.Findings, 2)
	assert.Equal(t, 39, rep.Findings[0].Evidence[0].Line)
}

func TestJSONShapeAndDeterminism(t *testing.T) {
	a := logsleuth(t, "", nil, "analyze", "--format", "json", sample)
	b := logsleuth(t, "", nil, "analyze", "--format", "json", sample)
	assert.Equal(t, a.stdout, b.stdout)
	var rep map[string]any
	require.NoError(t, json.Unmarshal([]byte(a.stdout), &rep))
	fs := rep["findings"].([]any)
	f := fs[1].(map[string]any)
	assert.Equal(t, "yb/mvcc/ht-below-safe-time", f["rule"])
	assert.Equal(t, "error", f["severity"])
	assert.Equal(t, "confirmed", f["origin"])
	assert.Equal(t, map[string]any{"system": "yb", "tablet": "35ef051e15e047b199c820302dc42998", "peer": "daf8ed30f5e54b3a9911994285a554ef"}, f["subject"])
	facts := f["facts"].(map[string]any)
	assert.Equal(t, "77902", facts["below_us"])
	assert.Equal(t, "-319090687", facts["raw_diff"])
	assert.Equal(t, "max_safe_time_returned_with_lease_", facts["bound"])
	assert.NotEmpty(t, f["state"])
	stats := rep["stats"].(map[string]any)
	assert.EqualValues(t, 71, stats["lines"])
	assert.EqualValues(t, 0, stats["unclaimed"])
	assert.Equal(t, []any{}, stats["diagnostics"])
}

func TestFailOn(t *testing.T) {
	for _, tc := range []struct {
		failOn string
		want   int
	}{{"error", exitFindings}, {"warning", exitFindings}, {"note", exitFindings}, {"none", exitClean}} {
		r := logsleuth(t, "", nil, "analyze", "--fail-on", tc.failOn, sample)
		assert.Equal(t, tc.want, r.code, tc.failOn)
	}
	// A note alone fails only --fail-on note.
	note := "W0724 05:48:43.433447 28593 mvcc.cc:214] T t P p: Received propagated safe time { physical: 10 } less than the old value: { physical: 20 }. This could happen on followers when a new leader is elected.\n"
	assert.Equal(t, exitClean, logsleuth(t, note, nil, "analyze").code)
	assert.Equal(t, exitClean, logsleuth(t, note, nil, "analyze", "--fail-on", "warning").code)
	assert.Equal(t, exitFindings, logsleuth(t, note, nil, "analyze", "--fail-on", "note").code)
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"analyze", "--format", "yaml", sample},
		{"analyze", "--fail-on", "fatal", sample},
		{"analyze", "--no-such-flag"},
		{"analyze", "--color", "sometimes"},
		{"analyze", "--year", "-3"},
	} {
		r := logsleuth(t, "", nil, args...)
		assert.Equal(t, exitUsage, r.code, "%v", args)
		assert.Contains(t, r.stderr, "logsleuth: ", "%v", args)
		assert.Empty(t, r.stdout, "%v", args)
	}
}

func TestMissingInputStillAnalysesTheRest(t *testing.T) {
	r := logsleuth(t, "", nil, "analyze", "does-not-exist.log", sample)
	assert.Equal(t, exitUnreadable, r.code)
	assert.Contains(t, r.stderr, "logsleuth: does-not-exist.log: no such file or directory")
	assert.Contains(t, r.stdout, "yb/mvcc/ht-below-safe-time")
}

// deniedFS refuses to open one file, as an unreadable file would.
type deniedFS struct {
	osFS
	name string
}

func (d deniedFS) Open(name string) (io.ReadCloser, error) {
	if name == d.name {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.osFS.Open(name)
}

func (d deniedFS) OpenRegular(name string) (io.ReadCloser, error) {
	if name == d.name {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.osFS.OpenRegular(name)
}

func TestUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "a-secret.log")
	require.NoError(t, os.WriteFile(secret, []byte("x\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.log"), []byte(readSample(t)), 0o600))
	r := logsleuthFS(t, deniedFS{name: secret}, "", nil, "analyze", dir)
	assert.Equal(t, exitUnreadable, r.code)
	assert.Contains(t, r.stderr, secret+": permission denied")
	assert.Contains(t, r.stdout, "yb/mvcc/ht-below-safe-time")
}

func TestTruncatedGzip(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(readSample(t)))
	require.NoError(t, zw.Close())
	path := filepath.Join(t.TempDir(), "cut.log.gz")
	require.NoError(t, os.WriteFile(path, gz.Bytes()[:gz.Len()/2], 0o600))
	r := logsleuth(t, "", nil, "analyze", path)
	assert.Equal(t, exitUnreadable, r.code)
	assert.Contains(t, r.stderr, path+": read after line ")
	assert.Contains(t, r.stderr, "unexpected EOF")
}

func TestBadBytes(t *testing.T) {
	sampleText := readSample(t)
	var in strings.Builder
	in.WriteString("\x00\x01\x02binary\x00junk\n")
	in.WriteString("I1007 16:39:07.000000 1 foo.cc:1] not utf8 \xff\xfe here\n")
	in.WriteString(strings.Repeat("x", 50<<20) + "\n") // a 50 MB line: its first MiB is kept
	in.WriteString(sampleText)
	r := logsleuth(t, in.String(), nil, "analyze")
	assert.Equal(t, exitFindings, r.code)
	assert.Contains(t, r.stderr, "-:1: 1 line(s) hold binary data (NUL bytes), first at line 1; skipped")
	assert.Contains(t, r.stderr, "-:2: 1 line(s) are not valid UTF-8")
	assert.Contains(t, r.stderr, "-:3: line longer than 1 MiB; only its first 1 MiB were read")
	// The FATAL block after the bad lines is still read, at its new lines.
	assert.Contains(t, r.stdout, "-:42  New operation's hybrid time too low")
}

func TestDumpCutInTheMiddle(t *testing.T) {
	lines := strings.Split(readSample(t), "\n")
	// Cut inside entry 20, mid-value, as an excerpt would.
	cut := strings.Join(lines[:25], "\n") + "\n" + lines[25][:40] + "\n"
	r := logsleuth(t, cut, nil, "analyze", "--format", "json")
	// The FATAL that printed the dump is still reported, though its
	// assertion was cut.
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Contains(t, r.stdout, "yb/mvcc/invariant-violation")
	assert.Contains(t, r.stderr, "-:26: MVCC dump entry 20 is cut short; dropped")
}

func TestColor(t *testing.T) {
	evil := "F1007 16:39:07.497722 954679 mvcc.cc:395] T t P p: Op sequence failure: 1.6 followed by 1.6 \x1b]0;pwned\x07\x1b[2J\x1b[31mred\n"
	plain := logsleuth(t, evil, nil, "analyze")
	assert.NotContains(t, plain.stdout, "\x1b")
	always := logsleuth(t, evil, nil, "analyze", "--color", "always")
	assert.Contains(t, always.stdout, "\x1b[", "styled output")
	assert.NotContains(t, always.stdout, "\x1b]0;pwned", "log text's escape sequences never reach the terminal")
	assert.Contains(t, always.stdout, `\x1b]0;pwned\x07`, "they are shown, inert")
	assert.NotContains(t, always.stdout, "\x1b[2J")
	assert.Contains(t, always.stdout, "red")
	forced := logsleuth(t, evil, map[string]string{"CLICOLOR_FORCE": "1"}, "analyze")
	assert.Contains(t, forced.stdout, "\x1b[")
	noColor := logsleuth(t, evil, map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, "analyze")
	assert.NotContains(t, noColor.stdout, "\x1b")
}

func TestState(t *testing.T) {
	r := logsleuth(t, "", nil, "state", sample)
	assert.Equal(t, exitClean, r.code)
	assert.Contains(t, r.stdout, "T 35ef051e15e047b199c820302dc42998 P daf8ed30f5e54b3a9911994285a554ef\n")
	assert.Contains(t, r.stdout, "  propagated safe time: 1696696747484844.4095 ("+sample+":34)\n")
	assert.Contains(t, r.stdout, "  ht lease: daf8ed30f5e54b3a9911994285a554ef to 1696696748602112 (term 15, "+sample+":34)\n")
	none := logsleuth(t, "", nil, "state", "--tablet", "nope", sample)
	assert.Contains(t, none.stdout, "tablet nope: no Raft lines")
	assert.NotContains(t, none.stdout, "daf8ed30")
}

func TestExitCodeTable(t *testing.T) {
	assert.Equal(t, exitClean, exitCode(nil))
	assert.Equal(t, exitUsage, exitCode(usagef("x")))
	assert.Equal(t, exitFindings, exitCode(&outcomeError{outcome{findingsAtFailOn: true}}))
	assert.Equal(t, exitUnreadable, exitCode(&outcomeError{outcome{findingsAtFailOn: true, unreadable: true}}))
	assert.Equal(t, exitUnreadable, exitCode(&outcomeError{outcome{findingsAtFailOn: true, unrecognised: true}}), "2 outranks 1")
	assert.Equal(t, exitUnreadable, exitCode(&outcomeError{outcome{unrecognised: true}}))
	assert.Equal(t, exitUnreadable, exitCode(errors.New("write report: broken pipe")))
}

// With several inputs, the report says which peer each file speaks for,
// and the seed's cross-peer root cause is found.
func TestSeveralPeersLogs(t *testing.T) {
	dir := "../../testdata/yb/raft/seed-early-revocation"
	r := logsleuth(t, "", nil, "analyze", dir)
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Regexp(t, `sources:\n  `+regexp.QuoteMeta(dir)+`/ts-1.log  [0-9]+ of [0-9]+ lines recognised  peer 1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b\n`, r.stdout)
	assert.Contains(t, r.stdout, "error   yb/lease/early-revocation  (derived)")
	assert.Contains(t, r.stdout, "error   yb/lease/overlap  (derived)")
	// The same logs named in another order give the same report.
	files, err := filepath.Glob(dir + "/*.log")
	require.NoError(t, err)
	rev := append([]string{"analyze"}, files[2], files[0], files[1])
	assert.Equal(t, r.stdout, logsleuth(t, "", nil, rev...).stdout)
}

func TestHTMLReport(t *testing.T) {
	r := logsleuth(t, "", nil, "analyze", "--format", "html", sample)
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.True(t, strings.HasPrefix(r.stdout, "<!DOCTYPE html>"))
	assert.Contains(t, r.stdout, `id="timeline-data"`)
	assert.Contains(t, r.stdout, "yb/mvcc/ht-below-safe-time")

	out := filepath.Join(t.TempDir(), "out", "incident.html")
	r = logsleuth(t, "", nil, "analyze", "-o", "html="+out, sample)
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Empty(t, r.stdout, "with -o alone, stdout gets no report")
	page, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(page, []byte("<!DOCTYPE html>")))
	// The same command again (the page's footer holds the command line).
	r = logsleuth(t, "", nil, "analyze", "-o", "html="+out, sample)
	again, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, string(page), string(again), "the page is byte-identical run to run")
}

// A leader's line about the replica it adds speaks for the leader.
func TestSpeakerIsThePrefixPeer(t *testing.T) {
	r := logsleuth(t, "", nil, "analyze", "../../testdata/yb/config/race")
	assert.Regexp(t, `/leader-a.log  [0-9]+ of [0-9]+ lines recognised  peer 3f1c0a9b5e7d4c2a8b6e0f1d2c3b4a59\n`, r.stdout)
	assert.Regexp(t, `/master.log  [0-9]+ of [0-9]+ lines recognised  no peer or node named\n`, r.stdout)
	assert.Contains(t, r.stdout, "error   yb/config/orphan-replica")
}

func TestGzipBombIsCapped(t *testing.T) {
	old := limits
	limits.MaxBytes = 1 << 20
	defer func() { limits = old }()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(bytes.Repeat([]byte("I1007 16:39:07.000000 1 x.cc:1] padding\n"), 100_000)) // 4 MB
	require.NoError(t, zw.Close())
	dir := t.TempDir()
	bomb := filepath.Join(dir, "bomb.log.gz")
	require.NoError(t, os.WriteFile(bomb, gz.Bytes(), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "z.log"), []byte(readSample(t)), 0o600))
	r := logsleuth(t, "", nil, "analyze", dir)
	assert.Equal(t, exitUnreadable, r.code)
	assert.Contains(t, r.stderr, bomb+": read after line ")
	assert.Contains(t, r.stderr, "decompresses to more than 1.0 MiB; the rest is not read")
	assert.Contains(t, r.stdout, "yb/mvcc/ht-below-safe-time", "the other input is still analysed")
}

func TestSymlinkLoopAndUnlistableDirectory(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "a", "b", "loop")))
	require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "a", "dangling")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a", "b", "t.log"), []byte(readSample(t)), 0o600))
	locked := filepath.Join(dir, "locked")
	require.NoError(t, os.MkdirAll(locked, 0o755))
	r := logsleuthFS(t, deniedDirFS{dir: locked}, "", nil, "analyze", dir)
	assert.Equal(t, exitUnreadable, r.code)
	assert.Contains(t, r.stderr, filepath.Join(dir, "a", "dangling")+": no such file or directory")
	assert.Contains(t, r.stderr, locked+": permission denied")
	assert.Contains(t, r.stdout, "yb/mvcc/ht-below-safe-time")
	assert.Contains(t, r.stdout, "in 1 source,", "the link loop is not followed")
}

// deniedDirFS refuses to list one directory, as an unreadable one would.
type deniedDirFS struct {
	osFS
	dir string
}

func (d deniedDirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == d.dir {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.osFS.ReadDir(name)
}

func TestEmptyInputAndCRLF(t *testing.T) {
	// An empty input is never a silent pass: the run says it read nothing.
	r := logsleuth(t, "", nil, "analyze")
	assert.Equal(t, exitUnreadable, r.code)
	assert.Equal(t, "0 findings in 1 source, 0 lines, 0 events, 0 unclaimed, 1 diagnostic\n", r.stdout)
	assert.Contains(t, r.stderr, "logsleuth: -: the input holds no lines at all: nothing was analysed\n")
	crlf := strings.ReplaceAll(readSample(t), "\n", "\r\n")
	r = logsleuth(t, crlf, nil, "analyze")
	assert.Equal(t, exitFindings, r.code)
	assert.Contains(t, r.stdout, "2 findings (2 errors) in 1 source, 71 lines, 2 events, 0 unclaimed, 0 diagnostics")
}

func TestCompletionAndRepeatedStdin(t *testing.T) {
	r := logsleuth(t, "", nil, "completion", "bogus")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `unknown shell "bogus"`)
	r = logsleuth(t, "", nil, "completion", "bash")
	assert.Equal(t, exitClean, r.code)
	assert.Contains(t, r.stdout, "bash completion")
	r = logsleuth(t, readSample(t), nil, "analyze", "-", "-")
	assert.Contains(t, r.stdout, "in 1 source, 71 lines", "standard input is read once")
}
