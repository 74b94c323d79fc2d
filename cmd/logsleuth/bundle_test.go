package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/ulikunitz/xz"
)

const seedDir = "../../testdata/yb/raft/seed-early-revocation"

// bundleFile is one member of a test bundle.
type bundleFile struct {
	name string
	data []byte
	link string // a symbolic link's target
}

// seedBundle lays the seed scenario's three peers' logs out as a support
// bundle does: one directory per node.
func seedBundle(t *testing.T) []bundleFile {
	t.Helper()
	var out []bundleFile
	for i := 1; i <= 3; i++ {
		b, err := os.ReadFile(filepath.Join(seedDir, "ts-"+string(rune('0'+i))+".log"))
		require.NoError(t, err)
		out = append(out, bundleFile{name: "node-" + string(rune('0'+i)) + "/logs/ts-" + string(rune('0'+i)) + ".log", data: b})
	}
	return out
}

func writeDir(t *testing.T, dir string, files []bundleFile) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if f.link != "" {
			require.NoError(t, os.Symlink(f.link, p))
			continue
		}
		require.NoError(t, os.WriteFile(p, f.data, 0o644))
	}
}

func tarOf(t *testing.T, files []bundleFile) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		if f.link != "" {
			require.NoError(t, tw.WriteHeader(&tar.Header{Name: "./" + f.name, Typeflag: tar.TypeSymlink, Linkname: f.link, Mode: 0o777}))
			continue
		}
		require.NoError(t, tw.WriteHeader(&tar.Header{Name: "./" + f.name, Typeflag: tar.TypeReg, Size: int64(len(f.data)), Mode: 0o644}))
		_, err := tw.Write(f.data)
		require.NoError(t, err)
	}
	require.NoError(t, tw.Close())
	return buf.Bytes()
}

func zipOf(t *testing.T, files []bundleFile, method uint16) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.name, Method: method})
		require.NoError(t, err)
		_, err = w.Write(f.data)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func gzipOf(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write(b)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func zstdOf(t *testing.T, b []byte) []byte {
	zw, err := zstd.NewWriter(nil)
	require.NoError(t, err)
	return zw.EncodeAll(b, nil)
}

func xzOf(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	zw, err := xz.NewWriter(&buf)
	require.NoError(t, err)
	_, err = zw.Write(b)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// report is the part of the JSON report the bundle tests compare.
type report struct {
	Findings json.RawMessage `json:"findings"`
	Stats    struct {
		Sources []struct {
			Source string `json:"source"`
			Lines  int    `json:"lines"`
		} `json:"sources"`
		Skipped []struct {
			Name   string `json:"name"`
			Reason string `json:"reason"`
		} `json:"skipped"`
		Unreadable []string `json:"unreadable"`
	} `json:"stats"`
}

func analyzeJSON(t *testing.T, stdin string, args ...string) (run, report) {
	t.Helper()
	r := logsleuth(t, stdin, nil, append([]string{"analyze", "--format", "json"}, args...)...)
	var rep report
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stderr)
	return r, rep
}

// evidence lists each finding's rule and evidence positions.
func evidence(t *testing.T, rep report) []string {
	var fs []struct {
		Rule     string `json:"rule"`
		Evidence []struct {
			Source string `json:"source"`
			Line   int    `json:"line"`
		} `json:"evidence"`
	}
	require.NoError(t, json.Unmarshal(rep.Findings, &fs))
	var out []string
	for _, f := range fs {
		s := f.Rule
		for _, e := range f.Evidence {
			s += " " + e.Source + ":" + itoa(e.Line)
		}
		out = append(out, s)
	}
	return out
}

func itoa(n int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + jsonNum(n)) }

func jsonNum(n int) string { b, _ := json.Marshal(n); return string(b) }

// The seed scenario read from every archive format gives the plain files'
// findings, byte for byte but for the source names, each member its own
// source named archive!member.
func TestArchivesGiveThePlainFilesFindings(t *testing.T) {
	files := seedBundle(t)
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	writeDir(t, plain, files)
	_, want := analyzeJSON(t, "", plain)
	wantEv := evidence(t, want)
	require.Len(t, wantEv, 4)
	require.Contains(t, wantEv[0], plain+"/node-1/logs/ts-1.log:21")

	tarb := tarOf(t, files)
	bz2, err := os.ReadFile("testdata/bundles/seed.tar.bz2")
	require.NoError(t, err)
	// Rotated members compressed inside the archive, and an archive inside
	// an archive.
	var gzMembers []bundleFile
	for _, f := range files {
		gzMembers = append(gzMembers, bundleFile{name: f.name + ".gz", data: gzipOf(t, f.data)})
	}
	archives := map[string][]byte{
		"bundle.tar":            tarb,
		"bundle.tar.gz":         gzipOf(t, tarb),
		"bundle.tgz":            gzipOf(t, tarb),
		"bundle.tar.zst":        zstdOf(t, tarb),
		"bundle.tar.xz":         xzOf(t, tarb),
		"bundle.tar.bz2":        bz2,
		"bundle.zip":            zipOf(t, files, zip.Deflate),
		"stored.zip":            zipOf(t, files, zip.Store),
		"named-wrong.log":       gzipOf(t, tarb),
		"rotated.tar.gz":        gzipOf(t, tarOf(t, gzMembers)),
		"nested.zip":            zipOf(t, []bundleFile{{name: "inner/bundle.tar.gz", data: gzipOf(t, tarb)}}, zip.Deflate),
		"nested-stored.tar":     tarOf(t, []bundleFile{{name: "inner.zip", data: zipOf(t, files, zip.Store)}}),
		"nested-compressed.tgz": gzipOf(t, tarOf(t, []bundleFile{{name: "inner.zip", data: zipOf(t, files, zip.Deflate)}})),
	}
	names := make([]string, 0, len(archives))
	for n := range archives {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			p := filepath.Join(dir, n)
			require.NoError(t, os.WriteFile(p, archives[n], 0o644))
			r, got := analyzeJSON(t, "", p)
			assert.Equal(t, exitFindings, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			// The same findings, with member-qualified sources.
			prefix := p + "!"
			if strings.HasPrefix(n, "nested") {
				inner := map[string]string{"nested.zip": "inner/bundle.tar.gz!", "nested-stored.tar": "inner.zip!", "nested-compressed.tgz": "inner.zip!"}[n]
				prefix += inner
			}
			norm := func(s string) string {
				s = strings.ReplaceAll(s, prefix, plain+"/")
				if strings.HasPrefix(n, "rotated") {
					// The fingerprint keeps the source's base name,
					// which here ends in .gz.
					s = regexp.MustCompile(`(ts-\d\.log)\.gz`).ReplaceAllString(s, "$1")
					s = regexp.MustCompile(`"fingerprint": "[0-9a-f]+"`).ReplaceAllString(s, `"fingerprint": ""`)
				}
				return s
			}
			wantFindings := string(want.Findings)
			if strings.HasPrefix(n, "rotated") {
				wantFindings = regexp.MustCompile(`"fingerprint": "[0-9a-f]+"`).ReplaceAllString(wantFindings, `"fingerprint": ""`)
			}
			assert.Equal(t, wantFindings, norm(string(got.Findings)))
			gotEv := evidence(t, got)
			require.Len(t, gotEv, 4)
			assert.Contains(t, gotEv[0], prefix+"node-1/logs/ts-1.log")
			require.Len(t, got.Stats.Sources, 3, "each member its own source")
			assert.True(t, strings.HasPrefix(got.Stats.Sources[0].Source, prefix+"node-1/logs/ts-1.log"))
		})
	}
	t.Run("stdin", func(t *testing.T) {
		r, got := analyzeJSON(t, string(archives["bundle.tar.gz"]))
		assert.Equal(t, exitFindings, r.code, r.stderr)
		assert.Equal(t, string(want.Findings), strings.ReplaceAll(string(got.Findings), "-!", plain+"/"))
	})
}

// glogHeader is the header glog writes at the top of every file.
const glogHeader = "Log file created at: 2023/10/07 16:30:00\nRunning on machine: yb-1\nApplication fingerprint: version 2.19.3.0 build 96\nRunning duration (h:mm:ss): 0:00:00\nLog line format: [IWEF]mmdd hh:mm:ss.uuuuuu threadid file:line] msg\n"

// warningsOf is the WARNING file glog writes beside an INFO file: its
// header, and every line of WARNING or above with its continuation lines.
func warningsOf(info []byte, sevs string) []byte {
	var b strings.Builder
	b.WriteString(glogHeader)
	keep := false
	for _, l := range strings.SplitAfter(string(info), "\n") {
		if l == "" {
			continue
		}
		if len(l) > 5 && strings.ContainsRune("IWEF", rune(l[0])) && l[1] >= '0' && l[1] <= '9' {
			keep = strings.ContainsRune(sevs, rune(l[0]))
		} else if strings.HasPrefix(l, "Log file") || strings.HasPrefix(l, "Running") || strings.HasPrefix(l, "Application") || strings.HasPrefix(l, "Log line") {
			continue
		}
		if keep {
			b.WriteString(l)
		}
	}
	return []byte(b.String())
}

// A yugabyted-style bundle: per node the glog INFO file, the yb-tserver.INFO
// link to it, WARNING and ERROR files repeating its lines, and files that
// are not logs. It gives exactly the plain logs' findings, and lists every
// file it did not read.
func TestYugabyteBundle(t *testing.T) {
	dir := t.TempDir()
	var files []bundleFile
	for i := 1; i <= 3; i++ {
		n := string(rune('0' + i))
		b, err := os.ReadFile(filepath.Join(seedDir, "ts-"+n+".log"))
		require.NoError(t, err)
		logs := "node-" + n + "/yb-data/tserver/logs/"
		info := "yb-tserver.yb-" + n + ".yugabyte.log.INFO.20231007-163000.510" + n
		warn := "yb-tserver.yb-" + n + ".yugabyte.log.WARNING.20231007-163001.510" + n
		errf := "yb-tserver.yb-" + n + ".yugabyte.log.ERROR.20231007-163002.510" + n
		files = append(files,
			bundleFile{name: logs + info, data: b},
			bundleFile{name: logs + "yb-tserver.INFO", link: info},
			bundleFile{name: logs + warn, data: warningsOf(b, "WEF")},
			bundleFile{name: logs + "yb-tserver.WARNING", link: warn},
			bundleFile{name: logs + errf, data: warningsOf(b, "EF")},
		)
	}
	text0 := readSample(t)
	var rep bytes.Buffer
	r := logsleuth(t, "", nil, "analyze", "--format", "json", sample)
	rep.WriteString(r.stdout)
	md := logsleuth(t, "", nil, "analyze", "--format", "markdown", sample).stdout
	sarif := logsleuth(t, "", nil, "analyze", "--format", "sarif", sample).stdout
	text := logsleuth(t, "", nil, "analyze", sample).stdout
	junit := logsleuth(t, "", nil, "analyze", "--format", "junit", sample).stdout
	html := logsleuth(t, "", nil, "analyze", "--format", "html", sample).stdout
	junk := []bundleFile{
		{name: "conf.json", data: []byte(`{"tserver_flags": ["--enable_ysql=true"], "master": "yb-1:7100"}` + "\n")},
		{name: "cluster/nodes.json", data: []byte("{\n  \"nodes\": [\n    {\"message\": \"F1007 16:39:07.497722 954679 mvcc.cc:395] T 35ef P daf8: New operation's hybrid time too low: { physical: 1696696747406942 }\"}\n  ]\n}\n")},
		{name: "node-1/gc.log", data: []byte("[2023-10-07T16:39:05.123+0000][12345][gc,init] Version: 17.0.2+8 (release)\n[2023-10-07T16:39:05.124+0000][12345][gc     ] Using G1\n")},
		{name: "bin/yb-admin", data: append([]byte("\x7fELF\x02\x01\x01\x00\x00\x00"), bytes.Repeat([]byte{0, 1, 2, 3}, 100)...)},
		{name: "reports/old.json", data: rep.Bytes()},
		{name: "reports/old.md", data: []byte(md)},
		{name: "reports/old.sarif", data: []byte(sarif)},
		{name: "reports/old.txt", data: []byte(text)},
		{name: "reports/old.xml", data: []byte(junit)},
		{name: "reports/old.html", data: []byte(html)},
		{name: "NOTES.md", data: []byte("# Incident 19447\n\nThe tserver died with:\n\n```\n" + text0[strings.Index(text0, "F1007"):strings.Index(text0, "F1007")+300] + "\n```\n")},
		{name: "empty.log", data: nil},
	}
	files = append(files, junk...)
	bundle := filepath.Join(dir, "bundle")
	writeDir(t, bundle, files)

	plain := filepath.Join(dir, "plain")
	writeDir(t, plain, seedBundle(t))
	_, want := analyzeJSON(t, "", plain)
	require.Len(t, evidence(t, want), 4)

	check := func(t *testing.T, r run, got report, prefix string) {
		t.Helper()
		assert.Equal(t, exitFindings, r.code, r.stderr)
		gotEv := evidence(t, got)
		assert.Len(t, gotEv, 4, "exactly the plain logs' findings: %v", gotEv)
		var wantRules, gotRules []string
		for _, e := range evidence(t, want) {
			wantRules = append(wantRules, strings.Fields(e)[0])
		}
		for _, e := range gotEv {
			gotRules = append(gotRules, strings.Fields(e)[0])
		}
		assert.Equal(t, wantRules, gotRules)
		assert.Len(t, got.Stats.Sources, 3, "one source per node's INFO file")
		skipped := map[string]string{}
		for _, s := range got.Stats.Skipped {
			skipped[strings.TrimPrefix(s.Name, prefix)] = s.Reason
		}
		reasons := map[string]string{
			"conf.json":          "no line of a known system's log",
			"cluster/nodes.json": "a JSON document, not a log",
			"node-1/gc.log":      "no line of a known system's log",
			"bin/yb-admin":       "an ELF executable, not a log",
			"reports/old.json":   "logsleuth's json report, not a log",
			"reports/old.md":     "logsleuth's markdown report, not a log",
			"reports/old.sarif":  "logsleuth's sarif report, not a log",
			"reports/old.txt":    "logsleuth's text report, not a log",
			"reports/old.xml":    "logsleuth's junit report, not a log",
			"reports/old.html":   "logsleuth's html report, not a log",
			"NOTES.md":           "notes in markdown, not a log",
			"empty.log":          "empty",
		}
		for i := 1; i <= 3; i++ {
			n := string(rune('0' + i))
			logs := "node-" + n + "/yb-data/tserver/logs/"
			reasons[logs+"yb-tserver.INFO"] = "the same file as " + prefix + logs + "yb-tserver.yb-" + n + ".yugabyte.log.INFO.20231007-163000.510" + n + " (symbolic link)"
			reasons[logs+"yb-tserver.WARNING"] = "(symbolic link)"
			reasons[logs+"yb-tserver.yb-"+n+".yugabyte.log.WARNING.20231007-163001.510"+n] = "every line is also in " + prefix + logs + "yb-tserver.yb-" + n + ".yugabyte.log.INFO.20231007-163000.510" + n
			reasons[logs+"yb-tserver.yb-"+n+".yugabyte.log.ERROR.20231007-163002.510"+n] = "every line is also in"
		}
		for name, reason := range reasons {
			assert.Contains(t, skipped[name], reason, name)
		}
		assert.Len(t, skipped, len(reasons))
	}
	t.Run("directory", func(t *testing.T) {
		r, got := analyzeJSON(t, "", bundle)
		check(t, r, got, bundle+"/")
	})
	t.Run("tar.gz", func(t *testing.T) {
		p := filepath.Join(dir, "bundle.tar.gz")
		require.NoError(t, os.WriteFile(p, gzipOf(t, tarOf(t, files)), 0o644))
		r, got := analyzeJSON(t, "", p)
		check(t, r, got, p+"!")
	})
	t.Run("zip", func(t *testing.T) {
		var noLinks []bundleFile
		for _, f := range files {
			if f.link == "" {
				noLinks = append(noLinks, f)
			}
		}
		p := filepath.Join(dir, "bundle.zip")
		require.NoError(t, os.WriteFile(p, zipOf(t, noLinks, zip.Deflate), 0o644))
		r, got := analyzeJSON(t, "", p)
		assert.Len(t, evidence(t, got), 4)
		assert.Len(t, got.Stats.Sources, 3, r.stderr)
	})
	// Named on the command line, a report or a binary is still not read;
	// other files are.
	t.Run("explicit", func(t *testing.T) {
		r := logsleuth(t, "", nil, "analyze", filepath.Join(bundle, "reports/old.json"), filepath.Join(bundle, "NOTES.md"))
		assert.Contains(t, r.stderr, "skipped "+filepath.Join(bundle, "reports/old.json")+": logsleuth's json report, not a log")
		assert.Contains(t, r.stdout, "in 1 source,", "the notes, named, are read")
		r = logsleuth(t, "", nil, "analyze", filepath.Join(bundle, "bin/yb-admin"), sample)
		assert.Equal(t, exitUnreadable, r.code)
		assert.Contains(t, r.stderr, "bin/yb-admin: an ELF executable, not a log, nor an archive or compression logsleuth reads")
		assert.Contains(t, r.stdout, "yb/mvcc/ht-below-safe-time")
	})
}

// A WARNING file with a line its INFO file lacks is read, and says so.
func TestWarningFileWithOwnLinesIsRead(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(seedDir, "ts-1.log"))
	require.NoError(t, err)
	extra := "W1007 16:39:09.000000  5100 raft_consensus.cc:1500] T 7c1e0a5b3f9d4e2a8b6c5d4e3f2a1b0c P 1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b: only here\n"
	writeDir(t, dir, []bundleFile{
		{name: "yb-tserver.h.u.log.INFO.20231007-163000.5100", data: b},
		{name: "yb-tserver.h.u.log.WARNING.20231007-163001.5100", data: append(warningsOf(b, "WEF"), extra...)},
	})
	r, got := analyzeJSON(t, "", dir)
	assert.Len(t, got.Stats.Sources, 2, r.stderr)
	w := strings.Count(string(warningsOf(b, "WEF")), "\n") - 5
	assert.Contains(t, r.stderr, fmt.Sprintf("%d of its %d lines are also in %s, and count twice; the other 1 are in no INFO file", w, w+1, filepath.Join(dir, "yb-tserver.h.u.log.INFO.20231007-163000.5100")))
}

// Walks open regular files only: a link to a device or a FIFO in a walked
// directory is listed and never opened (reading /dev/zero would never
// end); named on the command line, a FIFO still streams.
func TestWalkSkipsDevicesAndFIFOs(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.log"), []byte(readSample(t)), 0o644))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero.log")))
	fifo := filepath.Join(dir, "pipe.log")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	r := logsleuth(t, "", nil, "analyze", dir)
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Contains(t, r.stderr, "skipped "+filepath.Join(dir, "zero.log")+": a symbolic link to a character device, not a regular file; not opened")
	assert.Contains(t, r.stderr, "skipped "+fifo+": a FIFO, not a regular file; not opened")
	assert.Contains(t, r.stdout, "in 1 source,")

	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			f.WriteString(readSample(t))
			f.Close()
		}
	}()
	r = logsleuth(t, "", nil, "analyze", fifo)
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Contains(t, r.stdout, fifo+":39  New operation's hybrid time too low")
}

// The same file reached twice, by a hard link, by two names, by two walks,
// is read once.
func TestSameFileReadOnce(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "sub", "a.log")
	require.NoError(t, os.MkdirAll(filepath.Dir(a), 0o755))
	require.NoError(t, os.WriteFile(a, []byte(readSample(t)), 0o644))
	require.NoError(t, os.Link(a, filepath.Join(dir, "sub", "b.log")))
	r := logsleuth(t, "", nil, "analyze", dir, filepath.Join(dir, "sub"), a, filepath.Join(dir, "sub")+"/./a.log")
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Contains(t, r.stdout, "2 findings (2 errors) in 1 source, 71 lines")
	assert.Equal(t, 1, strings.Count(r.stderr, "skipped "+filepath.Join(dir, "sub", "b.log")+": the same file as "+a+" (hard link)\n"), r.stderr)
	assert.Contains(t, r.stderr, "skipped "+filepath.Join(dir, "sub")+"/./a.log: the same file as "+a+" (named more than once)")
}

// A report path that is an input, or inside an input directory, is a usage
// error before anything is written: the input is left as it was.
func TestReportNeverOverwritesAnInput(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.log")
	orig := readSample(t)
	require.NoError(t, os.WriteFile(victim, []byte(orig), 0o644))
	link := filepath.Join(dir, "link.json")
	require.NoError(t, os.Symlink(victim, link))
	bundle := filepath.Join(dir, "bundle")
	require.NoError(t, os.MkdirAll(bundle, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bundle, "t.log"), []byte(orig), 0o644))
	for _, tc := range []struct {
		args  []string
		input string
	}{
		{[]string{"-o", "json=" + victim, victim}, victim},
		{[]string{"-o", "markdown=" + link, victim}, victim},
		{[]string{"-o", "sarif=" + filepath.Join(bundle, "r.sarif"), bundle}, bundle},
		{[]string{"-o", "json=" + filepath.Join(bundle, "new", "r.json"), bundle}, bundle},
	} {
		r := logsleuth(t, "", nil, append([]string{"analyze"}, tc.args...)...)
		assert.Equal(t, exitUsage, r.code, "%v: %s", tc.args, r.stderr)
		assert.Contains(t, r.stderr, tc.input, tc.args)
		b, err := os.ReadFile(victim)
		require.NoError(t, err)
		assert.Equal(t, orig, string(b), "the input is untouched")
	}
	_, err := os.Stat(filepath.Join(bundle, "r.sarif"))
	assert.True(t, os.IsNotExist(err), "no report file was created")
	_, err = os.Stat(filepath.Join(bundle, "new"))
	assert.True(t, os.IsNotExist(err), "no report directory was created")
}

// A truncated archive: the members before the cut are analysed, and the
// error names the archive and the member.
func TestTruncatedArchive(t *testing.T) {
	files := seedBundle(t)
	tgz := gzipOf(t, tarOf(t, files))
	p := filepath.Join(t.TempDir(), "cut.tar.gz")
	require.NoError(t, os.WriteFile(p, tgz[:len(tgz)*2/3], 0o644))
	r, got := analyzeJSON(t, "", p)
	assert.Equal(t, exitUnreadable, r.code)
	assert.Contains(t, r.stderr, p+"!node-")
	assert.Contains(t, r.stderr, "unexpected EOF")
	assert.NotEmpty(t, got.Stats.Sources, "the members before the cut are read")
	assert.Equal(t, p+"!node-1/logs/ts-1.log", got.Stats.Sources[0].Source)
	assert.Equal(t, 53, got.Stats.Sources[0].Lines)
}

// gzip with bytes after its last complete member: everything is read, and
// what was ignored is said, not an unexpected EOF.
func TestGzipTrailingGarbage(t *testing.T) {
	gz := gzipOf(t, []byte(readSample(t)))
	dir := t.TempDir()
	p := filepath.Join(dir, "padded.log.gz")
	require.NoError(t, os.WriteFile(p, append(gz, make([]byte, 1000)...), 0o644))
	r := logsleuth(t, "", nil, "analyze", p)
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Contains(t, r.stderr, p+":71: 1000 bytes after the last complete gzip member (of 1) ignored")
	// Two members and garbage: both members are read.
	two := append(gzipOf(t, []byte(readSample(t)[:100])), gzipOf(t, []byte(readSample(t)[100:]))...)
	require.NoError(t, os.WriteFile(p, append(two, "garbage"...), 0o644))
	r = logsleuth(t, "", nil, "analyze", p)
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Contains(t, r.stderr, "7 bytes after the last complete gzip member (of 2) ignored")
	assert.Contains(t, r.stdout, "71 lines")
}

// A glob the shell left unexpanded is expanded; one that matches nothing
// is an error naming it.
func TestQuotedGlob(t *testing.T) {
	r := logsleuth(t, "", nil, "analyze", seedDir+"/ts-*.log")
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Contains(t, r.stdout, "in 3 sources,")
	r = logsleuth(t, "", nil, "analyze", seedDir+"/nope-*.log")
	assert.Equal(t, exitUnreadable, r.code)
	assert.Contains(t, r.stderr, "nope-*.log: no file matches the pattern")
}

// An archive bomb stops at the caps, with a message, and the members read
// before are analysed.
func TestArchiveCaps(t *testing.T) {
	old := limits
	defer func() { limits = old }()
	files := seedBundle(t)
	big := bundleFile{name: "node-9/logs/z.log", data: bytes.Repeat([]byte("I1007 16:39:07.000000 1 x.cc:1] padding\n"), 100_000)}
	p := filepath.Join(t.TempDir(), "bomb.tar.gz")
	require.NoError(t, os.WriteFile(p, gzipOf(t, tarOf(t, append(files, big))), 0o644))
	limits.MaxBytes = 1 << 20
	r := logsleuth(t, "", nil, "analyze", p)
	assert.Equal(t, exitUnreadable, r.code)
	assert.Contains(t, r.stderr, "decompresses to more than 1.0 MiB; the rest is not read")
	assert.Contains(t, r.stdout, "yb/lease/early-revocation", "the members before are analysed")

	limits = old
	limits.MaxMembers = 2
	r = logsleuth(t, "", nil, "analyze", p)
	assert.Equal(t, exitUnreadable, r.code)
	assert.Contains(t, r.stderr, p+": more than 2 members; the rest are not read")

	limits = old
	limits.MaxDepth = 2
	nested := filepath.Join(t.TempDir(), "n.tar.gz")
	require.NoError(t, os.WriteFile(nested, gzipOf(t, tarOf(t, []bundleFile{{name: "in.tar.gz", data: gzipOf(t, tarOf(t, files))}})), 0o644))
	r = logsleuth(t, "", nil, "analyze", nested)
	assert.Equal(t, exitUnreadable, r.code)
	assert.Contains(t, r.stderr, nested+"!in.tar.gz: nested more than 2 archive or compression layers deep; not read")
}

// Standard input holding an archive larger than can be kept is read once,
// in archive order, and says so.
func TestLargeArchiveOnStdin(t *testing.T) {
	old := limits
	defer func() { limits = old }()
	limits.MaxSpool = 1 << 10
	files := seedBundle(t)
	r := logsleuth(t, string(gzipOf(t, tarOf(t, files))), nil, "analyze")
	assert.Contains(t, r.stderr, "an archive larger than 1.0 KiB on a stream: its members are read in archive order")
	assert.Contains(t, r.stdout, "-!node-1/logs/ts-1.log:21")
	assert.Contains(t, r.stdout, "in 3 sources,")
}

// Member names are shown with their control characters escaped.
func TestHostileMemberNames(t *testing.T) {
	b, err := os.ReadFile(sample)
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "evil.tar")
	require.NoError(t, os.WriteFile(p, tarOf(t, []bundleFile{{name: "../../etc/\x1b[2Jx\nlog", data: b}}), 0o644))
	r := logsleuth(t, "", nil, "analyze", p)
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Contains(t, r.stdout, p+`!../../etc/\x1b[2Jx\x0alog:39`)
	assert.NotContains(t, r.stdout, "\x1b")
}
