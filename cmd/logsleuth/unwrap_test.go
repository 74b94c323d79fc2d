package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A collector's envelope around a log must not change what is found in
// it: every sample log is wrapped the way each collector writes it
// (following the collectors' documented formats), and the findings must
// be the plain file's, with the evidence at the wrapped file's own lines.

// wrapper writes a plain log's lines wrapped; num[i] is the wrapped
// line number that plain line i+1 starts at.
type wrapper struct {
	name string
	wrap func(lines []string) (out []string, num []int)
	// trims says the collector trims each line of white space (logcli's
	// default output): the findings are those of the trimmed lines.
	trims bool
	// cites says the envelope names the file and line of each line (grep
	// -rn): the evidence cites those, not the listing's lines.
	cites bool
	// reversed says the listing is newest first. Put back in time order,
	// its lines are read last first: the findings are the same, but where
	// a rule chooses between lines that show the same fact by their line
	// numbers, the choice may fall on another such line.
	reversed bool
}

// collected is the collector's clock for line i: it runs forward from the
// sample's date, a second and a bit a line (logcli's default output
// prints whole seconds).
func collected(i int) time.Time {
	return time.Date(2023, 10, 7, 16, 39, 0, 123456789, time.UTC).Add(time.Duration(i) * 1001 * time.Millisecond)
}

// each wraps line by line, one wrapped line per plain line.
func each(f func(i int, line string) string) func([]string) ([]string, []int) {
	return func(lines []string) ([]string, []int) {
		out := make([]string, len(lines))
		num := make([]int, len(lines))
		for i, l := range lines {
			out[i], num[i] = f(i, l), i+1
		}
		return out, num
	}
}

// parts cuts a line into pieces of at most n bytes, on character
// boundaries.
func parts(line string, n int) []string {
	var out []string
	for len(line) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		out = append(out, line[:cut])
		line = line[cut:]
	}
	return append(out, line)
}

// split wraps each line in one or more records, the first parts marked
// as partial.
func split(n int, rec func(i int, part string, last bool) string) func([]string) ([]string, []int) {
	return func(lines []string) ([]string, []int) {
		var out []string
		num := make([]int, len(lines))
		for i, l := range lines {
			num[i] = len(out) + 1
			ps := parts(l, n)
			for j, p := range ps {
				out = append(out, rec(i, p, j == len(ps)-1))
			}
		}
		return out, num
	}
}

// newestFirst lists the wrapped lines in reverse, as logcli does without
// --forward.
func newestFirst(w func([]string) ([]string, []int)) func([]string) ([]string, []int) {
	return func(lines []string) ([]string, []int) {
		out, num := w(lines)
		n := len(out)
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
		for i := range num {
			num[i] = n + 1 - num[i]
		}
		return out, num
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// interleaved puts a record of the container's other stream after every
// third record of w's, between the parts of a split line too: a
// container writing to both stdout and stderr, as the runtime
// interleaves them line by line.
func interleaved(w func([]string) ([]string, []int), other func(j int) string) func([]string) ([]string, []int) {
	return func(lines []string) ([]string, []int) {
		in, num := w(lines)
		var out []string
		for j, l := range in {
			out = append(out, l)
			if j%3 == 2 {
				out = append(out, other(j))
			}
		}
		for i, n := range num {
			num[i] = n + (n-1)/3
		}
		return out, num
	}
}

func cri(stream string) func(i int, p string, last bool) string {
	return func(i int, p string, last bool) string {
		tag := "P"
		if last {
			tag = "F"
		}
		return collected(i).Format(time.RFC3339Nano) + " " + stream + " " + tag + " " + p
	}
}

func docker(stream string) func(i int, p string, last bool) string {
	return func(i int, p string, last bool) string {
		if last {
			p += "\n"
		}
		return fmt.Sprintf(`{"log":%s,"stream":%q,"time":%q}`, jsonString(p), stream, collected(i).Format(time.RFC3339Nano))
	}
}

var wrappers = []wrapper{
	{name: "kubectl-timestamps", wrap: each(func(i int, l string) string {
		return collected(i).Format(time.RFC3339Nano) + " " + l
	})},
	{name: "kubectl-prefix", wrap: each(func(i int, l string) string { return "[pod/yb-tserver-0/yb-tserver] " + l })},
	{name: "kubectl-prefix-timestamps", wrap: each(func(i int, l string) string {
		return "[pod/yb-tserver-0/yb-tserver] " + collected(i).Format(time.RFC3339Nano) + " " + l
	})},
	// CRI: `<time> <stream> <P|F> <text>`; long lines in 40-byte parts.
	{name: "cri", wrap: split(40, cri("stderr"))},
	// The container writes to stdout too: its lines fall between the
	// log's, between the parts of a partial line as well.
	{name: "cri-stdout-between", wrap: interleaved(split(40, cri("stderr")), func(j int) string {
		return collected(j).Format(time.RFC3339Nano) + " stdout F healthz: ok"
	})},
	// docker json-file: Go's encoder (\u003c for <, \t, \\), the line's
	// newline in its last record only (docker splits at 16 KiB; here at
	// 50 bytes).
	{name: "docker-json", wrap: split(50, docker("stdout"))},
	{name: "docker-json-stderr-between", wrap: interleaved(split(50, docker("stdout")), func(j int) string {
		return docker("stderr")(j, "WARNING: An illegal reflective access operation has occurred", true)
	})},
	{name: "loki-jsonl-forward", wrap: each(lokiJSONL)},
	{name: "loki-jsonl", wrap: newestFirst(each(lokiJSONL)), reversed: true},
	// logcli -o default: RFC 3339 in seconds, padded labels, the line
	// trimmed of white space (strings.TrimSpace in logcli).
	{name: "loki-default", wrap: newestFirst(each(func(i int, l string) string {
		return collected(i).Format(time.RFC3339) + ` {app="yb-tserver", pod="yb-tserver-0"}  ` + strings.TrimSpace(l)
	})), trims: true, reversed: true},
	// The same, every line in one second (a busy log): the collector's
	// times tie, so the lines' own order must tell it is newest first.
	{name: "loki-default-one-second", wrap: newestFirst(each(func(i int, l string) string {
		return collected(0).Format(time.RFC3339) + ` {app="yb-tserver", pod="yb-tserver-0"}  ` + strings.TrimSpace(l)
	})), trims: true, reversed: true},
	// journalctl -o json: MESSAGE a string, or bytes when it holds a
	// control character.
	{name: "journal-json", wrap: each(func(i int, l string) string {
		msg := jsonString(l)
		if strings.ContainsAny(l, "\t\x1b") {
			var bs []string
			for _, b := range []byte(l) {
				bs = append(bs, fmt.Sprint(b))
			}
			msg = "[" + strings.Join(bs, ",") + "]"
		}
		return fmt.Sprintf(`{"__CURSOR":"s=ab;i=%x","__REALTIME_TIMESTAMP":"%d","_HOSTNAME":"node-1","SYSLOG_IDENTIFIER":"yb-tserver","MESSAGE":%s}`, i, collected(i).UnixMicro(), msg)
	})},
	{name: "journal-short", wrap: func(lines []string) ([]string, []int) {
		out, num := each(func(i int, l string) string {
			return collected(i).Format(time.Stamp) + " node-1 yb-tserver[5100]: " + l
		})(lines)
		return append([]string{"-- Logs begin at Sat 2023-10-07 16:00:00 UTC. --"}, out...), shift(num, 1)
	}},
	{name: "journal-short-iso", wrap: each(func(i int, l string) string {
		return collected(i).Format("2006-01-02T15:04:05-0700") + " node-1 yb-tserver[5100]: " + l
	})},
	{name: "github-actions", wrap: each(func(i int, l string) string {
		return collected(i).Format("2006-01-02T15:04:05.0000000Z") + " " + l
	})},
	{name: "grep-n", wrap: each(func(i int, l string) string { return fmt.Sprintf("%d:%s", i+1, l) })},
	{name: "grep-rn", wrap: each(func(i int, l string) string { return fmt.Sprintf("logs/node-1/%s:%d:%s", grepName, i+1, l) }), cites: true},
	// rg -n --heading: the file's name above its numbered lines.
	{name: "rg-heading", wrap: func(lines []string) ([]string, []int) {
		out, num := each(func(i int, l string) string { return fmt.Sprintf("%d:%s", i+1, l) })(lines)
		return append([]string{"logs/node-1/" + grepName}, out...), shift(num, 1)
	}, cites: true},
	// Kibana Discover's CSV export, newest first as Discover sorts: a
	// header row, the time in Kibana's display format.
	{name: "kibana-csv", wrap: func(lines []string) ([]string, []int) {
		out, num := newestFirst(each(func(i int, l string) string {
			return kibanaValue(collected(i).Format("Jan 2, 2006 @ 15:04:05.000")) + ",yb-1," + kibanaValue(kibanaFormula(l))
		}))(lines)
		return append([]string{`"@timestamp","host.name",message`}, out...), shift(num, 1)
	}, reversed: true},
	// The same with each multi-line record one document: its indented
	// and blank lines inside the quoted message of the row before.
	{name: "kibana-csv-multiline", wrap: kibanaRows, reversed: true},
	{name: "grep-n-cri", wrap: each(func(i int, l string) string {
		return fmt.Sprintf("%d:%s stderr F %s", i+1, collected(i).Format(time.RFC3339Nano), l)
	})},
	{name: "quoted", wrap: each(func(i int, l string) string { return strings.TrimRight("> "+l, " ") })},
	{name: "quoted-twice", wrap: each(func(i int, l string) string { return "> > " + l })},
	{name: "cat-n", wrap: each(func(i int, l string) string { return fmt.Sprintf("%6d\t%s", i+1, l) })},
}

// grepName is the file a grep-rn wrapper names: set to the plain file's
// name while it wraps it.
var grepName string

// kibanaValue quotes a value the way Kibana's CSV export does: when it
// holds anything but letters and digits, its quotes doubled.
func kibanaValue(v string) string {
	if regexp.MustCompile(`^[a-zA-Z0-9]*$`).MatchString(v) {
		return v
	}
	return `"` + strings.ReplaceAll(v, `"`, `""`) + `"`
}

// kibanaRows writes a Kibana CSV export newest first, a line that is
// indented or blank going on in the message of the document before.
func kibanaRows(lines []string) ([]string, []int) {
	var starts []int
	for i, l := range lines {
		if i == 0 || l != "" && l[0] != ' ' && l[0] != '\t' {
			starts = append(starts, i)
		}
	}
	out := []string{`"@timestamp","host.name",message`}
	num := make([]int, len(lines))
	for k := len(starts) - 1; k >= 0; k-- {
		end := len(lines)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		doc := lines[starts[k]:end]
		lead := kibanaValue(collected(starts[k]).Format("Jan 2, 2006 @ 15:04:05.000")) + ",yb-1,"
		if len(doc) == 1 {
			num[starts[k]] = len(out) + 1
			out = append(out, lead+kibanaValue(kibanaFormula(doc[0])))
			continue
		}
		for j, l := range doc {
			row := strings.ReplaceAll(l, `"`, `""`)
			if j == 0 {
				row = strings.ReplaceAll(kibanaFormula(l), `"`, `""`)
				row = lead + `"` + row
			}
			if j == len(doc)-1 {
				row += `"`
			}
			num[starts[k]+j] = len(out) + 1
			out = append(out, row)
		}
	}
	return out, num
}

// kibanaFormula puts a `'` before a value a spreadsheet would read as a
// formula, as Kibana's export does by default.
func kibanaFormula(v string) string {
	if v != "" && strings.ContainsRune("=+-@", rune(v[0])) {
		return "'" + v
	}
	return v
}

func lokiJSONL(i int, l string) string {
	b, _ := json.Marshal(map[string]any{
		"labels":    map[string]string{"app": "yb-tserver", "pod": "yb-tserver-0"},
		"line":      l,
		"timestamp": collected(i),
	})
	return string(b)
}

func shift(num []int, by int) []int {
	for i := range num {
		num[i] += by
	}
	return num
}

// sampleGroups returns the sample logs, each group read in one run: a
// scenario directory's logs together, a lone log alone.
func sampleGroups(t *testing.T) [][]string {
	var groups [][]string
	byDir := map[string][]string{}
	for _, root := range []string{"../../testdata/yb", "../../testdata/es"} {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".log") {
				return err
			}
			if filepath.Dir(p) == root {
				groups = append(groups, []string{p})
			} else {
				byDir[filepath.Dir(p)] = append(byDir[filepath.Dir(p)], p)
			}
			return nil
		})
		require.NoError(t, err)
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		groups = append(groups, byDir[d])
	}
	require.NotEmpty(t, groups)
	return groups
}

// findings runs analyze and returns its findings with each evidence line
// as the plain file's: source by base name, line through back.
func findings(t *testing.T, args []string, back map[string]map[int]int, anchors bool) (string, int) {
	t.Helper()
	r := logsleuth(t, "", nil, append([]string{"analyze", "--format", "json"}, args...)...)
	var out struct {
		Findings []map[string]any `json:"findings"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stderr)
	var norm []string
	for _, f := range out.Findings {
		ev, _ := f["evidence"].([]any)
		for _, e := range ev {
			m := e.(map[string]any)
			src := filepath.Base(m["source"].(string))
			line := int(m["line"].(float64))
			if back != nil {
				mapped, ok := back[src][line]
				require.True(t, ok, "evidence at %s:%d is not the start of a wrapped line", src, line)
				line = mapped
			}
			m["source"], m["line"] = src, line
		}
		if anchors {
			f = map[string]any{"rule": f["rule"], "severity": f["severity"], "origin": f["origin"], "subject": f["subject"], "evidence": ev[:1]}
		}
		b, err := json.Marshal(f)
		require.NoError(t, err)
		// Messages, facts and the replayed state cite lines too.
		norm = append(norm, citeRE.ReplaceAllStringFunc(string(b), func(c string) string {
			m := citeRE.FindStringSubmatch(c)
			src := filepath.Base(m[1])
			line, _ := strconv.Atoi(m[2])
			if back != nil {
				line = back[src][line]
			}
			return fmt.Sprintf("%s:%d", src, line)
		}))
	}
	sort.Strings(norm)
	return strings.Join(norm, "\n"), r.code
}

// trimmedFindings are the anchors of the findings in the logs of g with
// each line trimmed of white space.
func trimmedFindings(t *testing.T, g []string) (string, int) {
	dir := t.TempDir()
	var paths []string
	for _, p := range g {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		lines := strings.Split(string(b), "\n")
		for i := range lines {
			lines[i] = strings.TrimSpace(lines[i])
		}
		out := filepath.Join(dir, filepath.Base(p))
		require.NoError(t, os.WriteFile(out, []byte(strings.Join(lines, "\n")), 0o644))
		paths = append(paths, out)
	}
	return findings(t, paths, nil, true)
}

// citeRE finds a `source:line` citation in a finding.
var citeRE = regexp.MustCompile(`([^\s("]+\.log):(\d+)`)

func TestEnvelopesGiveThePlainFindings(t *testing.T) {
	groups := sampleGroups(t)
	found := 0
	for _, g := range groups {
		plain, code := findings(t, g, nil, false)
		anchors, _ := findings(t, g, nil, true)
		if plain != "" {
			found++
		}
		trimmed, trimmedCode := "", 0
		for _, w := range wrappers {
			t.Run(filepath.Base(filepath.Dir(g[0]))+"/"+filepath.Base(g[0])+"/"+w.name, func(t *testing.T) {
				dir := t.TempDir()
				back := map[string]map[int]int{}
				for _, p := range g {
					b, err := os.ReadFile(p)
					require.NoError(t, err)
					lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
					grepName = filepath.Base(p)
					out, num := w.wrap(lines)
					m := map[int]int{}
					for i, n := range num {
						if w.cites {
							n = i + 1
						}
						m[n] = i + 1
					}
					back[filepath.Base(p)] = m
					require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(p)), []byte(strings.Join(out, "\n")+"\n"), 0o644))
				}
				// The directory is walked: each wrapped file must pass as
				// a log of its system.
				got, gotCode := findings(t, []string{dir}, back, w.reversed)
				want, wantCode := plain, code
				switch {
				case w.trims:
					if trimmed == "" {
						trimmed, trimmedCode = trimmedFindings(t, g)
					}
					want, wantCode = trimmed, trimmedCode
				case w.reversed:
					want = anchors
				}
				assert.Equal(t, want, got)
				assert.Equal(t, wantCode, gotCode)
			})
		}
	}
	assert.Greater(t, found, 5, "the samples hold findings to compare")
}

// A docker json-file record cut in the middle is a diagnostic naming its
// file and line; the records around it are read and the findings stand.
func TestBrokenRecordIsADiagnostic(t *testing.T) {
	b, err := os.ReadFile(sample)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var out []string
	for _, w := range wrappers {
		if w.name == "docker-json" {
			out, _ = w.wrap(lines)
		}
	}
	require.NotEmpty(t, out)
	out = append(out[:10], append([]string{`{"log":"I1007 16:39:07.4977`}, out[10:]...)...)
	path := filepath.Join(t.TempDir(), "yb-tserver.json.log")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644))
	r := logsleuth(t, "", nil, "analyze", path)
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Contains(t, r.stderr, path+":11: not a readable docker json-file record: the record ends inside a value; skipped")
	assert.Contains(t, r.stdout, "error   yb/mvcc/ht-below-safe-time  (confirmed)")
	assert.Contains(t, r.stdout, "2 findings (2 errors) in 1 source")
}

// A grep -rn or rg --heading listing over a scenario's logs is read as
// those logs: each file's lines apart, cited at the file and line the
// listing names, merged by time across the files as if given apart.
func TestGrepListingOfSeveralFiles(t *testing.T) {
	n := 0
	for _, g := range sampleGroups(t) {
		if len(g) < 2 {
			continue
		}
		n++
		plain, code := findings(t, g, nil, false)
		// grep -rn names the file on every line; rg -n --heading names it
		// above the file's lines, a blank line between files.
		for _, heading := range []bool{false, true} {
			var out []string
			for k, p := range g {
				b, err := os.ReadFile(p)
				require.NoError(t, err)
				if heading {
					if k > 0 {
						out = append(out, "")
					}
					out = append(out, p)
				}
				for i, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
					sep := ":"
					if i%3 == 1 {
						sep = "-" // a context line
					}
					if heading {
						out = append(out, fmt.Sprintf("%d%s%s", i+1, sep, l))
					} else {
						out = append(out, fmt.Sprintf("%s%s%d%s%s", p, sep, i+1, sep, l))
					}
				}
				if !heading {
					out = append(out, "--")
				}
			}
			listing := filepath.Join(t.TempDir(), "grep.out")
			require.NoError(t, os.WriteFile(listing, []byte(strings.Join(out, "\n")+"\n"), 0o644))
			got, gotCode := findings(t, []string{listing}, nil, false)
			assert.Equal(t, plain, got, "%s, heading %v", g[0], heading)
			assert.Equal(t, code, gotCode, "%s, heading %v", g[0], heading)
		}
	}
	assert.Greater(t, n, 5)
}

// A Loki listing of a scenario's streams (one per node's log, the lines
// interleaved as Loki returns them by time) is read stream by stream,
// oldest first or newest first, and finds what the logs themselves do.
func TestLokiListingOfSeveralStreams(t *testing.T) {
	n := 0
	for _, g := range sampleGroups(t) {
		if len(g) < 2 {
			continue
		}
		n++
		want, code := findings(t, g, nil, true)
		var files [][]string
		for _, p := range g {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			files = append(files, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"))
		}
		// Round robin over the streams, the collector's clock running
		// forward: a listing in time order.
		type at struct{ file, line int }
		var order []at
		for j := 0; ; j++ {
			more := false
			for f := range files {
				if j < len(files[f]) {
					order = append(order, at{f, j})
					more = true
				}
			}
			if !more {
				break
			}
		}
		for _, reversed := range []bool{false, true} {
			var out []string
			back := map[string]map[int]int{}
			for k, a := range order {
				base := filepath.Base(g[a.file])
				b, _ := json.Marshal(map[string]any{
					"labels":    map[string]string{"app": "db", "filename": base},
					"line":      files[a.file][a.line],
					"timestamp": collected(k),
				})
				out = append(out, string(b))
				src := fmt.Sprintf(`loki.jsonl{"app":"db","filename":%q}`, base)
				if back[src] == nil {
					back[src] = map[int]int{}
				}
				num := k + 1
				if reversed {
					num = len(order) - k
				}
				back[src][num] = a.line + 1
			}
			if reversed {
				for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
					out[i], out[j] = out[j], out[i]
				}
			}
			listing := filepath.Join(t.TempDir(), "loki.jsonl")
			require.NoError(t, os.WriteFile(listing, []byte(strings.Join(out, "\n")+"\n"), 0o644))
			got, gotCode := findings(t, []string{listing}, back, true)
			// The sources are the streams, named by their labels.
			got = streamRE.ReplaceAllString(got, `"source":"$1"`)
			assert.Equal(t, want, got, "%s reversed=%v", g[0], reversed)
			assert.Equal(t, code, gotCode)
		}
	}
	assert.Greater(t, n, 5)
}

var streamRE = regexp.MustCompile(`"source":"loki\.jsonl\{\\"app\\":\\"db\\",\\"filename\\":\\"([^\\]+)\\"\}"`)

// An archive member in an envelope (a CRI node file in a support
// bundle) is taken for a log and unwrapped like a file.
func TestWrappedArchiveMember(t *testing.T) {
	b, err := os.ReadFile(sample)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var cri []string
	for i, l := range lines {
		cri = append(cri, collected(i).Format(time.RFC3339Nano)+" stderr F "+l)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	body := []byte(strings.Join(cri, "\n") + "\n")
	require.NoError(t, tw.WriteHeader(&tar.Header{Name: "var/log/pods/yb_yb-tserver-0/yb-tserver/mvcc-ht-too-low.log", Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}))
	_, err = tw.Write(body)
	require.NoError(t, err)
	require.NoError(t, tw.Close())
	require.NoError(t, zw.Close())
	path := filepath.Join(t.TempDir(), "bundle.tgz")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))

	want, code := findings(t, []string{sample}, nil, false)
	back := map[string]map[int]int{"mvcc-ht-too-low.log": {}}
	for i := range lines {
		back["mvcc-ht-too-low.log"][i+1] = i + 1
	}
	got, gotCode := findings(t, []string{path}, back, false)
	assert.Equal(t, want, got)
	assert.Equal(t, code, gotCode)
}

// Standard input is unwrapped too.
func TestWrappedStdin(t *testing.T) {
	line := "2023-10-07T16:39:00.100000123Z stderr F I1007 16:39:00.100000  5100 raft_consensus.cc:1234] T 35ef P daf8 [term 3 FOLLOWER]: Advancing to term 4\n"
	r := logsleuth(t, line, nil, "analyze", "--format", "json", "-")
	var out struct {
		Stats struct {
			Events  int `json:"events"`
			Sources []struct {
				Envelope string `json:"envelope"`
				Claimed  int    `json:"claimed"`
			} `json:"sources"`
		} `json:"stats"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stderr)
	assert.Equal(t, 1, out.Stats.Events)
	require.Len(t, out.Stats.Sources, 1)
	assert.Equal(t, "CRI (kubelet node log)", out.Stats.Sources[0].Envelope)
	assert.Equal(t, 1, out.Stats.Sources[0].Claimed)
}
