package main

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/logsleuth/logsleuth/render"
)

// digest hashes the bytes a scanner reads of one source, for the
// report's provenance.
type digest struct {
	h hash.Hash
	n int64
}

func newDigest() *digest { return &digest{h: sha256.New()} }

func (d *digest) Write(p []byte) (int, error) {
	d.n += int64(len(p))
	return d.h.Write(p)
}

// tee returns r, hashing what is read through it.
func (d *digest) tee(r io.Reader) io.Reader { return io.TeeReader(r, d) }

func (d *digest) of(source string) render.InputDigest {
	return render.InputDigest{Source: source, Bytes: d.n, SHA256: hex.EncodeToString(d.h.Sum(nil))}
}

// showsDigests reports whether one of outs shows the inputs' digests:
// the machine formats and the HTML page do; text and markdown do not
// (markdown only counts them), so a run writing only those does not hash.
func showsDigests(outs []output) bool {
	for _, o := range outs {
		switch o.format {
		case "json", "sarif", "junit", "html":
			return true
		}
	}
	return false
}

// provenance is the report's provenance: the version, the command line
// as given (sanitised by sanitizeArgs) and the inputs' digests.
func provenance(ios *IOStreams, st *render.Stats) *render.Provenance {
	cwd, _ := ios.getwd()
	inputs := st.Digests
	if inputs == nil {
		inputs = []render.InputDigest{}
	}
	return &render.Provenance{Version: versionString(), Command: sanitizeArgs(ios.Args, cwd), Inputs: inputs}
}

// sanitizeArgs makes a command line fit to travel with a report: a path
// under the working directory is made relative (it names the same file
// for the reader of the report, and leaks no home directory), and a
// URL's user name and password are removed. A flag's value (--x=V) and
// an -o FORMAT=PATH are treated as their value.
func sanitizeArgs(args []string, cwd string) []string {
	out := make([]string, 0, len(args)+1)
	out = append(out, "logsleuth")
	for _, a := range args {
		prefix, val := "", a
		if i := strings.Index(a, "="); i > 0 && !strings.Contains(a[:i], "/") && !strings.Contains(a[:i], "://") {
			prefix, val = a[:i+1], a[i+1:]
		}
		out = append(out, prefix+sanitizeArg(val, cwd))
	}
	return out
}

func sanitizeArg(a, cwd string) string {
	if strings.Contains(a, "://") {
		if u, err := url.Parse(a); err == nil && u.User != nil {
			u.User = nil
			return u.String()
		}
		return a
	}
	if cwd != "" && filepath.IsAbs(a) {
		if rel, err := filepath.Rel(cwd, a); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return rel
		}
	}
	return a
}
