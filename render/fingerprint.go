package render

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/logsleuth/logsleuth/rules"
)

// FingerprintVersion names the fingerprint scheme. It is the key of SARIF's
// partialFingerprints; a change to Fingerprint must bump it, so code
// scanning and --baseline see new keys rather than silently different
// values under the old one.
const FingerprintVersion = "logsleuth/v4"

// Fingerprint identifies a finding across runs, for --baseline and SARIF's
// partialFingerprints. It depends on what the finding is about, never on
// where the log was read from: the same log renamed, compressed, piped on
// standard input, re-collected under a glog name with another start time
// and pid, or concatenated after other lines, gives the same fingerprints.
// What goes in:
//
//   - the rule ID;
//   - the subject (system, tablet, peer, index, shard, node, allocation),
//     which keeps two replicas' identically worded breaks apart;
//   - the message and the facts, with their numbers (hybrid times, op ids,
//     seq#s), which are what distinguish two breaks of one rule on one
//     replica;
//   - each evidence line's text, the line the database printed: white
//     space collapsed, and a collector's leading timestamp (kubectl
//     --timestamps, a CI step log, a CRI file's stamp and stream) left
//     out, since it says when the line was collected, which differs
//     between two collections of the same log; and, for a log4j record
//     (Elasticsearch), a test runner's stream prefix (`  1> `) and the
//     record's own `[yyyy-MM-ddTHH:mm:ss,SSS]` time left out, since the
//     pattern layout prints the JVM's local time and the ECS JSON layout
//     UTC for the same event (v4; the JSON layouts' records are quoted
//     as the pattern layout's line, so the three layouts of one
//     incident give the same fingerprints).
//
// The message and facts are normalised first (normalizeFingerprintText):
// white space collapsed, each `source:line` position replaced by `#`, and
// the year of a date dropped, since a glog year may be read from a header
// in one copy and inferred from hybrid times in another. Source names and line
// numbers are not hashed at all (v3; v2 hashed the source's base name,
// which a glog name's start time and pid change every run).
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
	put(normalizeFingerprintText(f.Message, f.Evidence))
	keys := make([]string, 0, len(f.Facts))
	for k := range f.Facts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	put(strconv.Itoa(len(keys)))
	for _, k := range keys {
		put(k)
		put(normalizeFingerprintText(f.Facts[k], f.Evidence))
	}
	put(strconv.Itoa(len(f.Evidence)))
	for _, e := range f.Evidence {
		put(normalizeSpace(evidenceText(e.Text)))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// positionRE matches a `source:line` position as logsleuth prints one in
// a message or a fact: a name holding at least one letter or path
// character, a colon and the line number, not followed by more of a time
// (16:39:00) or a decimal. A bare clock time has no letter before its
// colon and is left alone.
var positionRE = regexp.MustCompile(`(?:\b[A-Za-z]:)?[^\s()\[\]{},;=:"']*[A-Za-z_./\\!-][^\s()\[\]{},;=:"']*:\d+\b([^:.\d]|$)`)

// collectorStampRE matches the RFC 3339 timestamp a collector puts
// before the database's own line, and the stream and tag a CRI file adds.
var collectorStampRE = regexp.MustCompile(`^\s*\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)\s+((stdout|stderr)\s+[FP]\s+)?`)

// log4jHeadRE matches what stands before a log4j record's level once a
// collector's stamp is gone: a test runner's stream prefix (`  1> `,
// `   > `) and the record's time.
var log4jHeadRE = regexp.MustCompile(`^\s*(?:\d{0,3}> )?\s*\[\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d[,.]\d{3}\]\[`)

// evidenceText is an evidence line as the fingerprint hashes it: a
// collector's stamp left out, and a log4j record's runner prefix and time
// (see Fingerprint).
func evidenceText(s string) string {
	s = collectorStampRE.ReplaceAllLiteralString(s, "")
	if loc := log4jHeadRE.FindStringIndex(s); loc != nil {
		s = s[loc[1]-1:]
	}
	return s
}

// yearRE matches the year of an ISO date (2023-10-07, 2023/10/07).
var yearRE = regexp.MustCompile(`\b\d{4}([-/]\d\d[-/]\d\d)`)

// normalizeFingerprintText is s with white space trimmed and collapsed,
// each position of a source replaced by `#` (evidence sources first, as
// given, since their names may hold characters the pattern stops at), and
// the years of dates replaced by `Y`.
func normalizeFingerprintText(s string, ev []rules.Evidence) string {
	for _, e := range ev {
		if e.Source != "" {
			s = replacePositions(s, e.Source)
		}
	}
	if strings.Contains(s, ":") {
		s = positionRE.ReplaceAllStringFunc(s, func(m string) string {
			sub := positionRE.FindStringSubmatch(m)
			return "#" + sub[1]
		})
	}
	s = yearRE.ReplaceAllString(s, "Y$1")
	return normalizeSpace(s)
}

// replacePositions is s with each `source:N` (N one or more ASCII digits)
// replaced by `#`. It matches bytes, not a pattern compiled from source, so
// a name that is not valid UTF-8, or holds a pattern's metacharacters, is
// matched as it was given.
func replacePositions(s, source string) string {
	prefix := source + ":"
	if !strings.Contains(s, prefix) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, prefix)
		if i < 0 {
			break
		}
		j := i + len(prefix)
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == j {
			b.WriteString(s[:j])
			s = s[j:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteByte('#')
		s = s[k:]
	}
	b.WriteString(s)
	return b.String()
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
	findings []rules.Finding
	prints   []string
}

// NewBaseline counts the fingerprints of findings.
func NewBaseline(findings []rules.Finding) *Baseline {
	b := &Baseline{findings: findings, prints: make([]string, len(findings))}
	for i := range findings {
		b.prints[i] = Fingerprint(&findings[i])
	}
	return b
}

// Match marks which of findings the baseline holds, in order, consuming
// one baseline entry per match. It does not change b.
func (b *Baseline) Match(findings []rules.Finding) []bool {
	matched, _ := b.Compare(findings)
	return matched
}

// Compare is Match, and also returns the baseline's findings that no
// finding of the new run claimed: the ones that went away, in the
// baseline's order.
func (b *Baseline) Compare(findings []rules.Finding) (matched []bool, gone []rules.Finding) {
	left := map[string][]int{}
	for i, fp := range b.prints {
		left[fp] = append(left[fp], i)
	}
	claimed := make([]bool, len(b.prints))
	matched = make([]bool, len(findings))
	for i := range findings {
		fp := Fingerprint(&findings[i])
		if q := left[fp]; len(q) > 0 {
			claimed[q[0]] = true
			left[fp] = q[1:]
			matched[i] = true
		}
	}
	for i := range b.findings {
		if !claimed[i] {
			gone = append(gone, b.findings[i])
		}
	}
	return matched, gone
}
