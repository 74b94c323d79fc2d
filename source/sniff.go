package source

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"unicode/utf8"
)

// format is what a stream's first bytes say it is. Formats are told by
// magic bytes, never by name: rotated logs are compressed under any name,
// and a name can lie.
type format int

const (
	fmtText format = iota
	fmtGzip
	fmtZstd
	fmtXz
	fmtBzip2
	fmtTar
	fmtZip
)

func (f format) String() string {
	return [...]string{"text", "gzip", "zstd", "xz", "bzip2", "tar", "zip"}[f]
}

func (f format) compressed() bool { return f >= fmtGzip && f <= fmtBzip2 }
func (f format) archive() bool    { return f == fmtTar || f == fmtZip }

// sniffLen is how many bytes the format test needs: a tar header block.
const sniffLen = 512

// sniff tells a stream's format from its first bytes.
func sniff(b []byte) format {
	switch {
	case len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b:
		return fmtGzip
	case len(b) >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd:
		return fmtZstd
	case len(b) >= 4 && b[0]&0xf0 == 0x50 && b[1] == 0x2a && b[2] == 0x4d && b[3] == 0x18:
		// A zstd skippable frame, which may come before the data.
		return fmtZstd
	case bytes.HasPrefix(b, []byte("\xfd7zXZ\x00")):
		return fmtXz
	case isBzip2(b):
		return fmtBzip2
	case bytes.HasPrefix(b, []byte("PK\x03\x04")), bytes.HasPrefix(b, []byte("PK\x05\x06")), bytes.HasPrefix(b, []byte("PK\x07\x08")):
		return fmtZip
	case isTar(b):
		return fmtTar
	}
	return fmtText
}

// isBzip2 checks the stream header and the magic of the first block (or of
// the end of an empty stream), so a text starting "BZh" is still text.
func isBzip2(b []byte) bool {
	if len(b) < 10 || b[0] != 'B' || b[1] != 'Z' || b[2] != 'h' || b[3] < '1' || b[3] > '9' {
		return false
	}
	return bytes.HasPrefix(b[4:], []byte{0x31, 0x41, 0x59, 0x26, 0x53, 0x59}) ||
		bytes.HasPrefix(b[4:], []byte{0x17, 0x72, 0x45, 0x38, 0x50, 0x90})
}

// isTar recognises a tar header block: the ustar magic (POSIX and GNU), or
// for old V7 archives, a checksum that adds up.
func isTar(b []byte) bool {
	if len(b) < 512 {
		return false
	}
	if bytes.Equal(b[257:262], []byte("ustar")) {
		return true
	}
	// V7: the checksum field holds the sum of the header's bytes with the
	// field itself counted as spaces; a text file's bytes never add up.
	field := bytes.Trim(b[148:156], " \x00")
	if len(field) == 0 {
		return false
	}
	var want int64
	for _, c := range field {
		if c < '0' || c > '7' {
			return false
		}
		want = want*8 + int64(c-'0')
	}
	var sum int64
	for i, c := range b[:512] {
		if i >= 148 && i < 156 {
			c = ' '
		}
		sum += int64(c)
	}
	return sum == want && b[0] != 0
}

// unsupported names binary formats that are archives or compression
// logsleuth does not read, so the message can say what to do.
func unsupported(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("7z\xbc\xaf\x27\x1c")):
		return "a 7z archive"
	case bytes.HasPrefix(b, []byte("Rar!\x1a\x07")):
		return "a RAR archive"
	case bytes.HasPrefix(b, []byte{0x04, 0x22, 0x4d, 0x18}):
		return "lz4-compressed"
	case bytes.HasPrefix(b, []byte("LZIP")):
		return "lzip-compressed"
	case bytes.HasPrefix(b, []byte{0x1f, 0x9d}):
		return "compress (.Z) data"
	case bytes.HasPrefix(b, []byte{0x89, 'L', 'Z', 'O'}):
		return "lzop-compressed"
	case bytes.HasPrefix(b, []byte("\x7fELF")):
		return "an ELF executable"
	}
	return ""
}

// binary reports whether a head is not text: it holds NUL bytes (a log
// with a few, from a crash, is still a log and is caught by the caller's
// test first), or mostly bytes that are neither UTF-8 nor white space.
func binary(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	bad := 0
	for i := 0; i < len(head); {
		r, n := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && n == 1 && len(head)-i >= utf8.UTFMax || r < ' ' && r != '\n' && r != '\r' && r != '\t' && r != '\f' && r != 0x1b {
			bad++
		}
		i += n
	}
	return bad*10 > len(head)
}

// firstLine returns the first non-blank line of head, without leading
// white space or a UTF-8 byte order mark.
func firstLine(head []byte) []byte {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		if t := bytes.TrimSpace(line); len(t) > 0 {
			return t
		}
	}
	return nil
}

var (
	jsonReport  = regexp.MustCompile(`^\s*\{\s*"findings"\s*:\s*\[`)
	sarifDriver = regexp.MustCompile(`"driver"\s*:\s*\{\s*"name"\s*:\s*"logsleuth"`)
	// A text report's first line: a finding, the sources list, or the
	// summary of a run that found nothing. Colour codes are removed first.
	textReport = regexp.MustCompile(`^(?:(?:error|warning|note) +[a-z0-9]+(?:/[a-z0-9-]+){2}  \((?:derived|reported|confirmed)(?:, in baseline)?\)|sources:|\d+ findings? (?:\([^)]*\) )?in \d+ sources?, \d+ lines?, \d+ events?, \d+ unclaimed, \d+ diagnostics?)$`)
	ansiSGR    = regexp.MustCompile("\x1b\\[[0-9;]*m")
)

// ownReport names the logsleuth report format a head is in, or "": its
// reports quote log lines as evidence, so reading one back (an earlier
// run's report left in a bundle) would find every break again.
func ownReport(head []byte) string {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	first := firstLine(head)
	switch {
	case jsonReport.Match(head):
		return "logsleuth's json report"
	case bytes.HasPrefix(first, []byte("{")) && bytes.Contains(head, []byte("sarif")) && sarifDriver.Match(head):
		return "logsleuth's sarif report"
	case bytes.HasPrefix(first, []byte("<?xml")) && bytes.Contains(head, []byte(`<testsuites name="logsleuth"`)):
		return "logsleuth's junit report"
	case bytes.Equal(first, []byte("## logsleuth report")):
		return "logsleuth's markdown report"
	case bytes.Contains(head, []byte(`<meta name="generator" content="logsleuth">`)) && bytes.Contains(bytes.ToLower(first), []byte("<!doctype html")):
		return "logsleuth's html report"
	case textReport.Match(ansiSGR.ReplaceAll(first, nil)):
		return "logsleuth's text report"
	}
	return ""
}

var (
	mdHeading = regexp.MustCompile(`^#{1,6} \S`)
	mdFence   = regexp.MustCompile("(?m)^ {0,3}(?:```|~~~)")
)

// document names the kind of non-log text a head is, or "": a JSON or XML
// document (an API dump, a config), or notes in markdown. Such files can
// quote log lines (an assertion pasted into notes) that are not evidence
// of their own. A JSON log has one object a line; a document spreads one
// value over many.
func document(head []byte) string {
	first := firstLine(head)
	switch {
	case len(first) == 0:
		return ""
	case first[0] == '{':
		if json.Valid(first) {
			return ""
		}
		return "a JSON document"
	case first[0] == '[' && (len(first) == 1 || strings.IndexByte("{[\" \t", first[1]) >= 0):
		// `[` alone or before a value; a log line's `[2023-10-07...` is not.
		return "a JSON document"
	case bytes.HasPrefix(first, []byte("<?xml")), bytes.HasPrefix(bytes.ToLower(first), []byte("<!doctype")), bytes.HasPrefix(bytes.ToLower(first), []byte("<html")):
		return "an XML or HTML document"
	case mdHeading.Match(first), bytes.Equal(first, []byte("---")), mdFence.Match(head):
		return "notes in markdown"
	}
	return ""
}
