package render

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/logsleuth/logsleuth/rules"
)

// FingerprintVersion names the fingerprint scheme. It is the key of SARIF's
// partialFingerprints; a change to Fingerprint must bump it, so code
// scanning and --baseline see new keys rather than silently different
// values under the old one.
const FingerprintVersion = "logsleuth/v2"

// Fingerprint identifies a finding across runs, for --baseline and SARIF's
// partialFingerprints. Line numbers are deliberately left out: the same
// incident log re-collected with a few more lines at the top, or pasted
// into a different file, must still match. What goes in is what makes the
// finding itself:
//
//   - the rule ID;
//   - the subject (system, tablet, peer, index, shard, node, allocation);
//   - the message, with its numbers (hybrid times, op ids, seq#s), which
//     are what distinguish two breaks of one rule on one replica, but with
//     the `source:line` positions some messages cite reduced to the
//     source's base name (v2; v1 kept them, so a shifted log changed it);
//   - each evidence line's text (whitespace trimmed and collapsed) and its
//     source's base name, so a bundle unpacked under another directory
//     still matches but two nodes' identically worded lines do not.
//
// The result is 32 hex digits (128 bits of SHA-256).
func Fingerprint(f *rules.Finding) string {
	h := sha256.New()
	put := func(s string) {
		// Length-prefixed, so no field can run into the next.
		h.Write([]byte(strconv.Itoa(len(s))))
		h.Write([]byte{':'})
		h.Write([]byte(s))
	}
	put(FingerprintVersion)
	put(f.Rule)
	s := f.Subject
	put(s.System)
	put(s.Tablet)
	put(s.Peer)
	put(s.Index)
	if s.Shard != nil {
		put(strconv.Itoa(*s.Shard))
	} else {
		put("")
	}
	put(s.Node)
	put(s.Allocation)
	put(normalizeSpace(withoutPositions(f.Message, f.Evidence)))
	for _, e := range f.Evidence {
		put(sourceBase(e.Source))
		put(normalizeSpace(e.Text))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// withoutPositions replaces each `source:line` a message cites, for the
// sources of its evidence (as given, or by base name), with `base:#`.
func withoutPositions(msg string, ev []rules.Evidence) string {
	seen := map[string]bool{}
	for _, e := range ev {
		for _, name := range []string{e.Source, sourceBase(e.Source)} {
			if name == "" || seen[name] || !strings.Contains(msg, name+":") {
				continue
			}
			seen[name] = true
			re := regexp.MustCompile(regexp.QuoteMeta(name) + `:\d+`)
			msg = re.ReplaceAllLiteralString(msg, sourceBase(e.Source)+":#")
		}
	}
	return msg
}

// sourceBase is the last element of a source path, whichever separator the
// run that wrote it used ("-" for standard input stays "-").
func sourceBase(src string) string {
	src = strings.ReplaceAll(src, `\`, "/")
	return path.Base(src)
}

// normalizeSpace trims s and collapses runs of white space to one space, so
// a re-indented excerpt keeps its fingerprint.
func normalizeSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Baseline is a multiset of fingerprints from an earlier report. A finding
// is in the baseline when an unclaimed copy of its fingerprint is left:
// two identical findings in the new run need two in the old one.
type Baseline struct {
	left map[string]int
}

// NewBaseline counts the fingerprints of findings.
func NewBaseline(findings []rules.Finding) *Baseline {
	b := &Baseline{left: map[string]int{}}
	for i := range findings {
		b.left[Fingerprint(&findings[i])]++
	}
	return b
}

// Match marks which of findings the baseline holds, in order, consuming
// one baseline entry per match. It does not change b.
func (b *Baseline) Match(findings []rules.Finding) []bool {
	left := make(map[string]int, len(b.left))
	for k, v := range b.left {
		left[k] = v
	}
	out := make([]bool, len(findings))
	for i := range findings {
		fp := Fingerprint(&findings[i])
		if left[fp] > 0 {
			left[fp]--
			out[i] = true
		}
	}
	return out
}
