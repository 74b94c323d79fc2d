package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/internal/synth"
)

// The log-store tests run a real VictoriaLogs: the binary named by
// LOGSLEUTH_VLOGS_BIN, else victoria-logs on PATH or in GOPATH/bin, else
// one built with go install. They skip only when none can be had, and
// fail instead when LOGSLEUTH_REQUIRE_VLOGS is set (CI).

const vlogsModule = "github.com/VictoriaMetrics/VictoriaLogs/app/victoria-logs@v1.52.2"

func vlogsBinary(t *testing.T) string {
	t.Helper()
	skip := func(format string, args ...any) string {
		msg := fmt.Sprintf(format, args...)
		if os.Getenv("LOGSLEUTH_REQUIRE_VLOGS") != "" {
			t.Fatalf("LOGSLEUTH_REQUIRE_VLOGS is set but %s", msg)
		}
		t.Skipf("no VictoriaLogs binary: %s (set LOGSLEUTH_VLOGS_BIN, or let `go install %s` run)", msg, vlogsModule)
		return ""
	}
	if p := os.Getenv("LOGSLEUTH_VLOGS_BIN"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return skip("LOGSLEUTH_VLOGS_BIN=%s: %v", p, err)
		}
		return p
	}
	if p, err := exec.LookPath("victoria-logs"); err == nil {
		return p
	}
	gopath, _ := exec.Command("go", "env", "GOPATH").Output()
	if p := filepath.Join(strings.TrimSpace(string(gopath)), "bin", "victoria-logs"); fileExists(p) {
		return p
	}
	dir := filepath.Join(os.TempDir(), "logsleuth-vlogs-bin")
	cmd := exec.Command("go", "install", vlogsModule)
	cmd.Env = append(os.Environ(), "GOBIN="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return skip("go install %s: %v\n%s", vlogsModule, err, out)
	}
	return filepath.Join(dir, "victoria-logs")
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startVlogs starts one VictoriaLogs process with extra flags, waits for
// its health check and stops it when the test ends; it returns its
// address.
func startVlogs(t *testing.T, bin string, extra ...string) string {
	t.Helper()
	port := freePort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	args := append([]string{"-storageDataPath=" + t.TempDir(), "-httpListenAddr=" + addr, "-retentionPeriod=100y", "-loggerLevel=ERROR"}, extra...)
	cmd := exec.Command(bin, args...)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("victoria-logs %s:\n%s", addr, logs.String())
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return addr
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("victoria-logs on %s did not become healthy: %v\n%s", addr, err, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sourceRef is a source and line named in a finding's message: a stream,
// or a path (an archive's member, archive!member).
var sourceRef = regexp.MustCompile(`(?:\{file="([^"]+)",host="[^"]*"\}|[^ (]*[/!]([^/! (:]+)):(\d)`)

// comparable is what must be the same from files and from the store: a
// finding's rule, subject, message and evidence lines and texts. The
// sources are named differently (paths, streams): a message citing one
// keeps only the file's name.
func comparable(t *testing.T, jsonOut string) []string {
	t.Helper()
	var rep struct {
		Findings []struct {
			Rule     string          `json:"rule"`
			Subject  json.RawMessage `json:"subject"`
			Message  string          `json:"message"`
			Evidence []struct {
				Line int    `json:"line"`
				Text string `json:"text"`
			} `json:"evidence"`
		} `json:"findings"`
	}
	require.NoError(t, json.Unmarshal([]byte(jsonOut), &rep), jsonOut)
	var out []string
	for _, f := range rep.Findings {
		var ev []string
		for _, e := range f.Evidence {
			ev = append(ev, fmt.Sprintf("%d %s", e.Line, e.Text))
		}
		msg := sourceRef.ReplaceAllString(f.Message, "$1$2:$3")
		out = append(out, fmt.Sprintf("%s %s %s\n  %s", f.Rule, f.Subject, msg, strings.Join(ev, "\n  ")))
	}
	sort.Strings(out)
	return out
}

type storeCase struct {
	name  string
	paths []string
	query string
	since string
	until string
}

func TestLogStoreSameFindingsAsFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("starts VictoriaLogs servers")
	}
	bin := vlogsBinary(t)

	synthDir := t.TempDir()
	var buf bytes.Buffer
	require.NoError(t, synth.Write(&buf, synth.Options{System: "yb", Size: 2 << 20, Seed: 3, Peers: 3, Incidents: 2}))
	synthLog := filepath.Join(synthDir, "synth-tserver.log")
	require.NoError(t, os.WriteFile(synthLog, buf.Bytes(), 0o644))
	fleet := filepath.Join(synthDir, "fleet")
	nodes := splitNodes(t, buf.Bytes(), fleet)
	require.Len(t, nodes, 3, "the generated log speaks for three tservers")

	cases := []storeCase{
		{name: "mvcc", paths: []string{"../../testdata/yb/mvcc-ht-too-low.log"}, query: `{file="mvcc-ht-too-low.log"}`},
		{name: "raft", paths: []string{"../../testdata/yb/raft/seed-early-revocation/"}, query: `{file=~"ts-[123].log"}`},
		{name: "es", paths: []string{"../../testdata/es/safe-commit-not-safe.log"}, query: `{file="safe-commit-not-safe.log"}`},
		{name: "config", paths: []string{"../../testdata/yb/config/race/"}, query: `{file in ("leader-a.log","master.log","new-replica-d.log")}`},
		{name: "synth", paths: []string{synthLog}, query: `{file="synth-tserver.log"}`},
		{name: "window", paths: []string{synthLog}, query: `host:~"yb-.*" file:="synth-tserver.log"`,
			since: "2023-10-07T16:00:05Z", until: "2023-10-07T16:00:09Z"},
		{name: "fleet", paths: nodes, query: `host:~"ts-.*"`},
		{name: "fleet-window", paths: nodes, query: `{host=~"ts-.*",file="yb-tserver.INFO"}`,
			since: "2023-10-07T16:00:03Z", until: "2023-10-07T16:00:12Z"},
	}
	shipped := []string{
		"../../testdata/yb/mvcc-ht-too-low.log", "../../testdata/yb/raft/seed-early-revocation/",
		"../../testdata/es/safe-commit-not-safe.log", "../../testdata/yb/config/race/", synthLog, fleet,
	}

	single := startVlogs(t, bin)
	s1 := startVlogs(t, bin)
	s2 := startVlogs(t, bin)
	front := startVlogs(t, bin, "-storageNode="+s1+","+s2)

	for _, setup := range []struct {
		name, addr string
		storage    []string
	}{{"single", single, nil}, {"cluster", front, []string{s1, s2}}} {
		t.Run(setup.name, func(t *testing.T) {
			url := "vlogs://" + setup.addr
			r := logsleuth(t, "", nil, append([]string{"ship", "--to", url}, shipped...)...)
			require.Equal(t, exitClean, r.code, "ship: %s%s", r.stdout, r.stderr)
			assert.Contains(t, r.stdout, `{file="mvcc-ht-too-low.log",host="yb-tserver-2"}  71 rows`)
			for _, s := range setup.storage {
				// The front node spread the streams over its storage
				// nodes, so reading them back is a query across both.
				assert.Positive(t, storedRows(t, s), "storage node %s holds rows", s)
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					window := []string{}
					if c.since != "" {
						window = append(window, "--since", c.since, "--until", c.until)
					}
					files := logsleuth(t, "", nil, append(append([]string{"analyze", "--format", "json"}, window...), c.paths...)...)
					require.NotEqual(t, exitUnreadable, files.code, files.stderr)
					want := comparable(t, files.stdout)
					require.NotEmpty(t, want, "the files hold findings")
					st := logsleuth(t, "", nil, append([]string{"analyze", "--format", "json", url, "--query", c.query}, window...)...)
					require.Equal(t, files.code, st.code, st.stderr)
					assert.Equal(t, want, comparable(t, st.stdout))
					assert.Contains(t, st.stderr, "rows received")
				})
			}
		})
	}

	t.Run("nothing", func(t *testing.T) {
		r := logsleuth(t, "", nil, "analyze", "vlogs://"+single, "--query", `{host="no-such-host"}`)
		assert.Equal(t, exitUnreadable, r.code)
		assert.Contains(t, r.stderr, "no rows match the query: ({host=\"no-such-host\"})")
	})
	t.Run("bad-query", func(t *testing.T) {
		r := logsleuth(t, "", nil, "analyze", "vlogs://"+single, "--query", `{host=`)
		assert.Equal(t, exitUnreadable, r.code)
		assert.Contains(t, r.stderr, "query ({host=)")
	})
	t.Run("unreachable", func(t *testing.T) {
		url := fmt.Sprintf("vlogs://127.0.0.1:%d", freePort(t))
		r := logsleuth(t, "", nil, "analyze", url, "--query", `{host="ts-1"}`)
		assert.Equal(t, exitUnreadable, r.code)
		assert.Contains(t, r.stderr, "logsleuth: "+url+": query ({host=\"ts-1\"}) (*")
		assert.Contains(t, r.stderr, "connection refused")
		r = logsleuth(t, "", nil, "ship", "--to", url, "../../testdata/yb/mvcc-ht-too-low.log")
		assert.Equal(t, exitUnreadable, r.code)
		assert.Contains(t, r.stderr, "logsleuth: "+url+": ")
		assert.Contains(t, r.stderr, "connection refused")
		assert.Empty(t, r.stdout)
	})
}

// storedRows counts the rows a VictoriaLogs node holds.
func storedRows(t *testing.T, addr string) int {
	t.Helper()
	resp, err := http.PostForm("http://"+addr+"/select/logsql/query", map[string][]string{"query": {"* | count() rows"}})
	require.NoError(t, err)
	defer resp.Body.Close()
	var out struct {
		Rows string `json:"rows"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	n, err := strconv.Atoi(out.Rows)
	require.NoError(t, err)
	return n
}

// splitNodes writes the generated log's lines as one glog file per
// tserver, ts-N/yb-tserver.INFO under dir, each with the header naming its
// machine: each peer writes with a thread id of its own, and a line
// without a glog prefix goes with the line before. It returns the files,
// in the order the peers first write.
func splitNodes(t *testing.T, log []byte, dir string) []string {
	t.Helper()
	lines := strings.SplitAfter(string(log), "\n")
	var header []string
	for len(lines) > 0 && !glogLine.MatchString(lines[0]) {
		header, lines = append(header, lines[0]), lines[1:]
	}
	require.NotEmpty(t, header)
	byThread := map[string]*strings.Builder{}
	var order []string
	var cur *strings.Builder
	for _, l := range lines {
		if m := glogLine.FindStringSubmatch(l); m != nil {
			if byThread[m[1]] == nil {
				byThread[m[1]] = &strings.Builder{}
				order = append(order, m[1])
			}
			cur = byThread[m[1]]
		}
		if cur != nil {
			cur.WriteString(l)
		}
	}
	var out []string
	for i, th := range order {
		host := fmt.Sprintf("ts-%d", i+1)
		var b strings.Builder
		for _, h := range header {
			if strings.HasPrefix(h, "Running on machine: ") {
				h = "Running on machine: " + host + "\n"
			}
			b.WriteString(h)
		}
		b.WriteString(byThread[th].String())
		p := filepath.Join(dir, host, "yb-tserver.INFO")
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(b.String()), 0o644))
		out = append(out, p)
	}
	return out
}

// glogLine is a glog line's prefix, its thread id captured.
var glogLine = regexp.MustCompile(`^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +(\d+) `)

// A store keeping rows for a week drops an incident from 2023 as it takes
// it, and answers with success: ship must say so.
func TestShipDetectsDroppedRows(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a VictoriaLogs server")
	}
	bin := vlogsBinary(t)
	addr := startVlogs(t, bin, "-retentionPeriod=7d")
	r := logsleuth(t, "", nil, "ship", "--to", "vlogs://"+addr, "--wait", "3s", "../../testdata/yb/mvcc-ht-too-low.log")
	assert.Equal(t, exitUnreadable, r.code, r.stdout)
	assert.Contains(t, r.stderr, "the store shows 0 of the 71 rows sent")
	assert.Contains(t, r.stderr, "-retentionPeriod=100y")
}

// ship reads a bundle as analyze does: an archive's members, each node's
// glog INFO file once (not its link, nor the WARNING file that repeats it)
// and no file that is not a log; and the findings read back from the store
// are those of the bundle read from disk, whether it was shipped from a
// file or from standard input.
func TestShipBundle(t *testing.T) {
	if testing.Short() {
		t.Skip("starts VictoriaLogs servers")
	}
	bin := vlogsBinary(t)
	var files []bundleFile
	for i := 1; i <= 3; i++ {
		n := string(rune('0' + i))
		b, err := os.ReadFile(filepath.Join(seedDir, "ts-"+n+".log"))
		require.NoError(t, err)
		logs := "node-" + n + "/yb-data/tserver/logs/"
		info := "yb-tserver.yb-" + n + ".yugabyte.log.INFO.20231007-163000.510" + n
		warn := "yb-tserver.yb-" + n + ".yugabyte.log.WARNING.20231007-163001.510" + n
		files = append(files,
			bundleFile{name: logs + info, data: b},
			bundleFile{name: logs + "yb-tserver.INFO", link: info},
			bundleFile{name: logs + warn, data: warningsOf(b, "WEF")},
		)
	}
	for _, p := range []string{"../../testdata/yb/mvcc-ht-too-low.log", "../../testdata/es/safe-commit-not-safe.log"} {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		files = append(files, bundleFile{name: "more/" + filepath.Base(p) + ".gz", data: gzipOf(t, b)})
	}
	files = append(files,
		bundleFile{name: "conf.json", data: []byte(`{"master": "yb-1:7100"}` + "\n")},
		bundleFile{name: "NOTES.md", data: []byte("# Incident\n\nThe tserver died.\n")},
	)
	tgz := gzipOf(t, tarOf(t, files))
	bundle := filepath.Join(t.TempDir(), "bundle.tgz")
	require.NoError(t, os.WriteFile(bundle, tgz, 0o644))

	disk := logsleuth(t, "", nil, "analyze", "--format", "json", bundle)
	require.Equal(t, exitFindings, disk.code, disk.stderr)
	want := comparable(t, disk.stdout)
	require.GreaterOrEqual(t, len(want), 8, "the bundle holds the founding incidents' findings")

	for _, c := range []struct {
		name, stdin string
		arg, prefix string
	}{{"file", "", bundle, bundle + "!"}, {"stdin", string(tgz), "-", "-!"}} {
		t.Run(c.name, func(t *testing.T) {
			url := "vlogs://" + startVlogs(t, bin)
			r := logsleuth(t, c.stdin, nil, "ship", "--to", url, c.arg)
			require.Equal(t, exitClean, r.code, "ship: %s%s", r.stdout, r.stderr)
			for i := 1; i <= 3; i++ {
				n := string(rune('0' + i))
				assert.Contains(t, r.stdout, c.prefix+"node-"+n+"/yb-data/tserver/logs/yb-tserver.yb-"+n+".yugabyte.log.INFO.20231007-163000.510"+n+
					`  {file="yb-tserver.yb-`+n+`.yugabyte.log.INFO.20231007-163000.510`+n+`",host="yb-tserver-`+n+`"}`)
				assert.Contains(t, r.stderr, "skipped "+c.prefix+"node-"+n+"/yb-data/tserver/logs/yb-tserver.yb-"+n+".yugabyte.log.WARNING.20231007-163001.510"+n+": every line is also in")
				assert.Contains(t, r.stderr, "skipped "+c.prefix+"node-"+n+"/yb-data/tserver/logs/yb-tserver.INFO: the same file as")
			}
			assert.Contains(t, r.stdout, c.prefix+`more/mvcc-ht-too-low.log.gz  {file="mvcc-ht-too-low.log.gz",host="yb-tserver-2"}  71 rows`)
			assert.Contains(t, r.stdout, c.prefix+`more/safe-commit-not-safe.log.gz  {file="safe-commit-not-safe.log.gz",host="more"}`)
			assert.Contains(t, r.stderr, "skipped "+c.prefix+"conf.json: ")
			assert.Contains(t, r.stderr, "skipped "+c.prefix+"NOTES.md: ")
			assert.Equal(t, 5, strings.Count(r.stdout, " rows, "), "five logs shipped, and no other:\n%s", r.stdout)

			st := logsleuth(t, "", nil, "analyze", "--format", "json", url)
			require.Equal(t, exitFindings, st.code, st.stderr)
			assert.Equal(t, want, comparable(t, st.stdout))
		})
	}
}
