package render

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/es"
	"github.com/logsleuth/logsleuth/rules"
	"github.com/logsleuth/logsleuth/rules/esrules"
)

// patternRecordRE reads a 6.x test-layout record as the runner prints it:
// `  1> [%d{ISO8601}][%-5p][%-25c{1.}] %marker%m`.
var patternRecordRE = regexp.MustCompile(`^  1> \[([^\]]+)\]\[([A-Z]+) *\]\[([^\]]+?) *\] (.*)$`)

// fullLoggers are the loggers of testdata/es/safe-commit-not-safe.log by
// their classes' packages in the ES source: the ECS layout's log.logger is
// the whole name, the pattern and ESJsonLayout print `%c{1.}`.
var fullLoggers = map[string]string{
	"o.e.d.ClusterDisruptionIT":         "org.elasticsearch.discovery.ClusterDisruptionIT",
	"o.e.c.s.ClusterApplierService":     "org.elasticsearch.cluster.service.ClusterApplierService",
	"o.e.i.s.IndexShard":                "org.elasticsearch.index.shard.IndexShard",
	"o.e.i.s.GlobalCheckpointTracker":   "org.elasticsearch.index.seqno.GlobalCheckpointTracker",
	"o.e.t.d.NetworkDisruption":         "org.elasticsearch.test.disruption.NetworkDisruption",
	"o.e.i.e.CombinedDeletionPolicy":    "org.elasticsearch.index.engine.CombinedDeletionPolicy",
	"o.e.i.r.PeerRecoveryTargetService": "org.elasticsearch.indices.recovery.PeerRecoveryTargetService",
	"o.e.i.t.Translog":                  "org.elasticsearch.index.translog.Translog",
	"o.e.i.r.RecoverySourceHandler":     "org.elasticsearch.indices.recovery.RecoverySourceHandler",
}

// jvmZone is the zone the converted node's JVM runs in: the pattern
// layout's time is local to it, ESJsonLayout prints it with its offset,
// ECS in UTC.
var jvmZone = time.FixedZone("", 3600)

type record struct {
	at                  time.Time
	level, logger, node string
	// message is `%marker %m` as ESJsonLayout prints it: the shard marker,
	// the message and the lines it continues on (a cluster-state dump).
	message string
}

func jstr(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// esJSON7 is ESJsonLayout (7.x): type, timestamp
// (`yyyy-MM-dd'T'HH:mm:ss,SSSZZ`), level (`%p`), component (`%c{1.}`),
// cluster.name, node.name, message, then cluster.uuid and node.id.
func (r record) esJSON7() string {
	return fmt.Sprintf(`{"type": "server", "timestamp": %s, "level": %s, "component": %s, "cluster.name": "c", "node.name": %s, "message": %s, "cluster.uuid": "Hn8Nq0JzQyO7v6pGkq3Y1w", "node.id": "ArcKsewYTwm7IlIhKZVWtQ" }`,
		jstr(r.at.Format("2006-01-02T15:04:05,000Z07:00")), jstr(r.level), jstr(r.logger), jstr(r.node), jstr(r.message))
}

// ecs8 is the 8.x ECS layout: @timestamp in UTC, log.level, message,
// ecs.version, service.name, event.dataset, process.thread.name, the
// whole log.logger, and the elasticsearch.* fields.
func (r record) ecs8(t *testing.T) string {
	full, ok := fullLoggers[r.logger]
	require.True(t, ok, "no package for logger %s", r.logger)
	node := ""
	if r.node != "" {
		node = `,"elasticsearch.node.name":` + jstr(r.node)
	}
	return fmt.Sprintf(`{"@timestamp":%s, "log.level": %s, "message":%s, "ecs.version": "1.2.0","service.name":"ES_ECS","event.dataset":"elasticsearch.server","process.thread.name":"elasticsearch[%s][generic][T#1]","log.logger":%s,"elasticsearch.cluster.uuid":"Hn8Nq0JzQyO7v6pGkq3Y1w"%s,"elasticsearch.cluster.name":"c"}`,
		jstr(r.at.UTC().Format("2006-01-02T15:04:05.000Z")), jstr(r.level), jstr(r.message), r.node, jstr(full), node)
}

// convert rewrites a test run's pattern-layout log as the node would have
// written it in a JSON layout: each record, with the lines its message
// continues on, becomes one JSON line; the runner's own lines (a failure
// and its stack) stay as they are.
func convert(t *testing.T, log string, layout func(record) string) string {
	var out []string
	var cur *record
	flush := func() {
		if cur != nil {
			cur.message = strings.TrimRight(cur.message, "\n")
			out = append(out, layout(*cur))
			cur = nil
		}
	}
	for _, l := range strings.Split(strings.TrimSuffix(log, "\n"), "\n") {
		if m := patternRecordRE.FindStringSubmatch(l); m != nil {
			flush()
			at, err := time.ParseInLocation("2006-01-02T15:04:05,000", m[1], jvmZone)
			require.NoError(t, err)
			r := &record{at: at, level: m[2], logger: m[3], message: m[4]}
			// The 6.x marker `[node] ` (a test class logs without one).
			if strings.HasPrefix(r.message, "[") {
				if i := strings.Index(r.message, "] "); i > 0 && !strings.ContainsAny(r.message[1:i], "[] ") {
					r.node, r.message = r.message[1:i], r.message[i+2:]
				}
			}
			cur = r
			continue
		}
		if strings.HasPrefix(l, "  ") && strings.Contains(l, "> ") && strings.HasPrefix(strings.TrimLeft(l, " 0123456789"), "> ") ||
			strings.HasPrefix(l, "FAILURE ") {
			flush()
			out = append(out, l)
			continue
		}
		require.NotNil(t, cur, "a continuation line before any record: %q", l)
		cur.message += "\n" + l
	}
	flush()
	return strings.Join(out, "\n") + "\n"
}

func analyze(t *testing.T, log string) []rules.Finding {
	res, err := parse.Scan(strings.NewReader(log), "es.log", []parse.System{es.System}, parse.Options{})
	require.NoError(t, err)
	require.Empty(t, res.Diags)
	return rules.Run(res.Events, []rules.Pack{esrules.New()})
}

// The same incident logged in the pattern layout, ESJsonLayout (7.x) and
// the ECS layout (8.x) gives the same findings, the same fingerprints and
// the same evidence, quoted as the pattern layout prints the record, not
// as the JSON envelope's opening fields.
func TestFingerprintsAgreeAcrossESLayouts(t *testing.T) {
	data, err := os.ReadFile("../testdata/es/safe-commit-not-safe.log")
	require.NoError(t, err)
	pattern := analyze(t, string(data))
	require.NotEmpty(t, pattern)
	// A record's time: ESJsonLayout prints the JVM's local time as the
	// pattern layout does, ECS prints UTC.
	recordTime := regexp.MustCompile(`^\[\d{4}-\d\d-\d\dT[\d:,]+\]\[`)
	for name, layout := range map[string]func(record) string{
		"json-7x": record.esJSON7,
		"ecs-8x":  func(r record) string { return r.ecs8(t) },
	} {
		quoted := func(s string) string {
			s = strings.TrimPrefix(s, "  1> ")
			if name == "ecs-8x" {
				s = recordTime.ReplaceAllString(s, "[")
			}
			return s
		}
		t.Run(name, func(t *testing.T) {
			converted := convert(t, string(data), layout)
			got := analyze(t, converted)
			require.Len(t, got, len(pattern))
			for i := range pattern {
				p, g := pattern[i], got[i]
				assert.Equal(t, p.Rule, g.Rule)
				assert.Equal(t, p.Subject, g.Subject)
				assert.Equal(t, Fingerprint(&p), Fingerprint(&g), "%s %s", p.Rule, p.Subject)
				require.Len(t, g.Evidence, len(p.Evidence))
				for j, e := range g.Evidence {
					assert.NotContains(t, e.Text, `{"`, "the JSON envelope quoted")
					assert.Equal(t, quoted(p.Evidence[j].Text), quoted(e.Text), "%s evidence %d", p.Rule, j)
				}
			}
		})
	}
}
