package main

import (
	"bytes"
	"regexp"

	"github.com/logsleuth/logsleuth/parse"
)

// knownHead says whether the first bytes of a file hold a line of a known
// system: it decides which files of a walked directory or an archive are
// read (source.Options.IsLog). It is the one place that wiring lives:
// a system's Knows test, where the system has one, is the whole answer for
// it; until then its Skip test and its decoder stand in (a line either
// takes is that system's), and for Elasticsearch, whose decoder takes only
// the lines it reads, the layouts' envelope test below.
func knownHead(head []byte) bool {
	decs := make([]parse.Decoder, len(systems))
	for i, s := range systems {
		if s.Knows == nil {
			decs[i] = s.NewDecoder("", parse.Options{})
		}
	}
	var sink parse.Sink
	n := 0
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		n++
		for i, s := range systems {
			if s.Knows != nil {
				if s.Knows(line) {
					return true
				}
				continue
			}
			if s.Skip != nil && s.Skip(line) {
				return true
			}
			if decs[i].Line(parse.Line{Pos: parse.Pos{Line: n}, Text: line}, &sink) {
				return true
			}
			sink.Events, sink.Diags = sink.Events[:0], sink.Diags[:0]
			if s.Name == "es" && esEnvelope(line) {
				return true
			}
		}
	}
	return false
}

var (
	// The log4j pattern layouts of Elasticsearch and OpenSearch:
	// `[2023-10-07T16:39:05,123][INFO ][o.e.n.Node] ...`, the level in
	// capitals (a JVM gc.log's second field is a pid or a lower-case
	// level, so it is not taken).
	esPattern = regexp.MustCompile(`^\s*\[\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d[,.]\d{3}[^\]]*\]\s*\[(?:TRACE|DEBUG|INFO|WARN|ERROR|FATAL) *\]`)
	// The JSON layouts: 7.x's `{"type": "server", "timestamp": ...` and
	// 8.x's ECS `{"@timestamp": ..., "log.level": ...`.
	esJSON = regexp.MustCompile(`^\s*\{.*(?:"type"\s*:\s*"(?:server|deprecation|index_search_slowlog|index_indexing_slowlog)".*"timestamp"|"@timestamp".*"log\.level")`)
)

// esEnvelope stands in for an Elasticsearch Knows test.
func esEnvelope(line []byte) bool {
	return esPattern.Match(line) || esJSON.Match(line)
}
