package source

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const glogLine = "I1007 16:39:05.123456  5100 raft_consensus.cc:1] T t P p: line\n"

func isGlog(head []byte) bool { return bytes.Contains(head, []byte("raft_consensus.cc")) }

func tarBytes(t testing.TB, files map[string]string) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sortStrings(names)
	for _, n := range names {
		require.NoError(t, tw.WriteHeader(&tar.Header{Name: n, Typeflag: tar.TypeReg, Size: int64(len(files[n])), Mode: 0o644}))
		tw.Write([]byte(files[n]))
	}
	require.NoError(t, tw.Close())
	return buf.Bytes()
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// readAll plans inputs and reads every group, returning each log's name
// and text, and the plan.
func readAll(t testing.TB, opts Options, paths ...string) (map[string]string, *Plan) {
	p := Expand(opts, paths).Plan()
	out := map[string]string{}
	for _, g := range p.Groups {
		rd := p.Open(g)
		for {
			l, r, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				if l == nil {
					break
				}
				continue
			}
			b, _ := io.ReadAll(r)
			out[l.Name] = string(b)
		}
		rd.Close()
	}
	return out, p
}

func TestSeriesAreGroupedInTimeOrder(t *testing.T) {
	files := map[string]string{
		"n1/yb-tserver.h.u.log.INFO.20231007-170000.200": glogLine,
		"n1/yb-tserver.h.u.log.INFO.20231007-160000.100": glogLine,
		"n1/es-2023-10-07-2.log":                         "[2023-10-07T16:39:05,123][INFO ][o.e.n.Node] [n1] x\n",
		"n1/es-2023-10-07-10.log":                        "[2023-10-07T16:39:05,123][INFO ][o.e.n.Node] [n1] x\n",
		"n1/es.log":                                      "[2023-10-07T16:39:05,123][INFO ][o.e.n.Node] [n1] x\n",
		"n1/other.log.1":                                 glogLine,
		"n2/yb-tserver.h.u.log.INFO.20231007-160000.100": glogLine,
	}
	tb := gz(tarBytes(t, files))
	fsys := memFS{"b.tgz": tb}
	p := Expand(Options{FS: fsys, IsLog: func([]byte) bool { return true }}, []string{"b.tgz"}).Plan()
	require.Empty(t, p.Errors())
	var got []string
	for _, g := range p.Groups {
		var names []string
		for _, l := range g.Logs {
			names = append(names, strings.TrimPrefix(l.Name, "b.tgz!"))
		}
		got = append(got, strings.Join(names, " "))
	}
	// The tar holds -10 before -2 (name order), so the log4j series, read
	// front to back, takes two groups: -2 alone, then -10 and the current
	// file. A name that is no known series is a group of its own.
	assert.Equal(t, []string{
		"n1/es-2023-10-07-10.log n1/es.log",
		"n1/es-2023-10-07-2.log",
		"n1/other.log.1",
		"n1/yb-tserver.h.u.log.INFO.20231007-160000.100 n1/yb-tserver.h.u.log.INFO.20231007-170000.200",
		"n2/yb-tserver.h.u.log.INFO.20231007-160000.100",
	}, got)
}

// In a compressed tar stored out of time order, a series is read by more
// than one group, each going forward only.
func TestSeriesOutOfArchiveOrderSplits(t *testing.T) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, n := range []string{"x.h.u.log.INFO.20231007-170000.2", "x.h.u.log.INFO.20231007-160000.1"} {
		tw.WriteHeader(&tar.Header{Name: n, Typeflag: tar.TypeReg, Size: int64(len(glogLine)), Mode: 0o644})
		tw.Write([]byte(glogLine))
	}
	tw.Close()
	out, p := readAll(t, Options{FS: memFS{"a.tgz": gz(buf.Bytes())}, IsLog: isGlog}, "a.tgz")
	assert.Len(t, p.Groups, 2)
	assert.Len(t, out, 2)
}

func TestZipAndNames(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create(`node\logs\t.log`)
	w.Write([]byte(glogLine))
	w, _ = zw.Create("conf.yaml")
	w.Write([]byte("a: 1\n"))
	zw.Close()
	out, p := readAll(t, Options{FS: memFS{"d.zip": buf.Bytes()}, IsLog: isGlog}, "d.zip")
	assert.Equal(t, map[string]string{"d.zip!node/logs/t.log": glogLine}, out)
	assert.Equal(t, []Skipped{{"d.zip!conf.yaml", "no line of a known system's log in its first 64.0 KiB"}}, p.Skipped())
}

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{
		"node-1/logs/x.log": "node-1/logs/x.log",
		"./node-1/x":        "node-1/x",
		"a\x1b[31mb":        `a\x1b[31mb`,
		"a\nb":              `a\x0ab`,
		"bad\xffutf8":       `bad\xffutf8`,
		"rtl\u202eoverride": `rtl\u202eoverride`,
		"../../etc/passwd":  "../../etc/passwd",
		"/abs/path":         "/abs/path",
	} {
		assert.Equal(t, "a.tar!"+want, memberName("a.tar", in), "%q", in)
	}
}

func TestSniff(t *testing.T) {
	assert.Equal(t, fmtGzip, sniff(gz([]byte("x"))))
	assert.Equal(t, fmtTar, sniff(tarBytes(t, map[string]string{"a": "b"})))
	assert.Equal(t, fmtText, sniff([]byte("BZh9 is not bzip2 without its block magic")))
	assert.Equal(t, fmtText, sniff([]byte(glogLine)))
	assert.Equal(t, "a 7z archive", unsupported([]byte("7z\xbc\xaf\x27\x1c\x00\x04")))
}

func TestDocumentsAndReports(t *testing.T) {
	assert.Equal(t, "a JSON document", document([]byte("{\n  \"a\": 1\n}\n")))
	assert.Equal(t, "", document([]byte(`{"type": "server", "timestamp": "x"}`+"\n")))
	assert.Equal(t, "", document([]byte("[2023-10-07T16:39:05.123+0000][12345][gc] Using G1\n")))
	assert.Equal(t, "a JSON document", document([]byte("[\n  {\"a\": 1}\n]\n")))
	assert.Equal(t, "notes in markdown", document([]byte("# Notes\n\nsaw a FATAL\n")))
	assert.Equal(t, "logsleuth's text report", ownReport([]byte("0 findings in 1 source, 2 lines, 0 events, 2 unclaimed, 0 diagnostics\n")))
	assert.Equal(t, "logsleuth's text report", ownReport([]byte("\x1b[1;91merror  \x1b[0m \x1b[1myb/mvcc/ht-below-safe-time\x1b[0m  \x1b[2m(confirmed)\x1b[0m\n")))
	assert.Equal(t, "", ownReport([]byte(glogLine)))
}

// FuzzArchive reads arbitrary bytes as an input: nothing panics, every
// pass stays within the caps, and reading ends.
func FuzzArchive(f *testing.F) {
	f.Add(tarBytes(f, map[string]string{"a/x.log": glogLine, "a/y.txt": "z\n"}))
	f.Add(gz(tarBytes(f, map[string]string{"a.log.gz": string(gz([]byte(glogLine)))})))
	f.Add(gz([]byte(glogLine)))
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create("n/x.log")
	w.Write([]byte(glogLine))
	w, _ = zw.Create("in.tar")
	w.Write(tarBytes(f, map[string]string{"m.log": glogLine}))
	zw.Close()
	f.Add(zb.Bytes())
	f.Add([]byte("BZh91AY&SY"))
	f.Add([]byte("\xfd7zXZ\x00\x00"))
	f.Add([]byte("\x28\xb5\x2f\xfd\x00\x00"))
	const maxBytes = 1 << 20
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := Limits{MaxBytes: maxBytes, MaxMembers: 64, MaxDepth: 4, MaxSpool: 1 << 20, MaxHashes: 1 << 12}
		for _, stdin := range []bool{false, true} {
			opts := Options{FS: memFS{"in": data}, Stdin: bytes.NewReader(data), IsLog: isGlog, Limits: lim}
			path := "in"
			if stdin {
				path = "-"
			}
			p := Expand(opts, []string{path}).Plan()
			for _, g := range p.Groups {
				rd := p.Open(g)
				var total int64
				for i := 0; ; i++ {
					l, r, err := rd.Next()
					if err == io.EOF || err != nil && l == nil {
						break
					}
					if i > lim.MaxMembers+1 {
						t.Fatalf("more logs than members allowed")
					}
					if err != nil {
						continue
					}
					n, _ := io.Copy(io.Discard, r)
					total += n
					if total > maxBytes {
						t.Fatalf("read %d bytes, over the cap of %d", total, maxBytes)
					}
					rd.Notes()
				}
				rd.Close()
			}
		}
	})
}
