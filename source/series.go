package source

import (
	"regexp"
	"strconv"
	"strings"
)

// A series is the files one logger wrote one after another: the rotated
// files of one program on one node. Reading a series in time order with
// one reader keeps the merge by time right (its files do not overlap) and
// costs one pass over an archive for the whole series, instead of one per
// file. Only names whose time order is certain are grouped: glog's, which
// carry the time the file was created, and log4j's dated rollovers. Any
// other file is a series of its own: correct, only dearer.

var (
	// <program>.<host>.<user>.log.<SEVERITY>.<yyyymmdd-hhmmss>.<pid>
	// (glog's logging.cc; host names may hold dots).
	glogName = regexp.MustCompile(`^(.+\.log)\.(INFO|WARNING|ERROR|FATAL)\.(\d{8}-\d{6})\.(\d+)$`)
	// log4j2's `<name>-%d{yyyy-MM-dd}-%i.log.gz` and `.json.gz`, the
	// rollover pattern of Elasticsearch's and OpenSearch's
	// log4j2.properties; the file being written is `<name>.log` or
	// `<name>_server.json`.
	log4jRolled = regexp.MustCompile(`^(.+)-(\d{4}-\d{2}-\d{2})-(\d+)\.(log|json)$`)
)

// compressedExt are the name endings rotation adds; they are ignored in a
// series' name (whether a file is compressed is told by its bytes).
var compressedExt = []string{".gz", ".zst", ".zstd", ".xz", ".bz2"}

func stripCompressedExt(base string) string {
	for _, e := range compressedExt {
		if strings.HasSuffix(base, e) && len(base) > len(e) {
			return base[:len(base)-len(e)]
		}
	}
	return base
}

// glogFile is what a glog file name says.
type glogFile struct {
	base, severity, created, pid string
}

func parseGlog(base string) (glogFile, bool) {
	m := glogName.FindStringSubmatch(stripCompressedExt(base))
	if m == nil {
		return glogFile{}, false
	}
	return glogFile{base: m[1], severity: m[2], created: m[3], pid: m[4]}, true
}

// seriesKey returns the series a file belongs to (in its directory) and
// its place in it, or ok false for a file that is a series of its own.
func seriesKey(base string) (key, order string, ok bool) {
	if g, ok := parseGlog(base); ok {
		return "glog " + g.base + " " + g.severity, g.created + " " + pad(g.pid), true
	}
	name := stripCompressedExt(base)
	if m := log4jRolled.FindStringSubmatch(name); m != nil {
		return "log4j " + m[1] + " " + m[4], m[2] + " " + pad(m[3]), true
	}
	// The file being written comes after every rollover.
	if strings.HasSuffix(name, "_server.json") {
		return "log4j " + strings.TrimSuffix(name, "_server.json") + " json", "~", true
	}
	if strings.HasSuffix(name, ".log") && name == base {
		return "log4j " + strings.TrimSuffix(name, ".log") + " log", "~", true
	}
	return "", "", false
}

// pad makes a number sort as a number.
func pad(n string) string {
	if _, err := strconv.ParseUint(n, 10, 64); err != nil || len(n) >= 20 {
		return n
	}
	return strings.Repeat("0", 20-len(n)) + n
}
