package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/rules"
)

type ybEvent struct {
	parse.Meta
	tablet, peer string
}

func (*ybEvent) Kind() string                          { return "test.yb" }
func (e *ybEvent) Subject() (string, string)           { return e.tablet, e.peer }
func (*esEvent) Kind() string                          { return "test.es" }
func (e *esEvent) ShardSubject() (string, int, string) { return e.index, e.shard, e.node }

// esEvent stands for an Elasticsearch event: parse/es events are to
// implement shardSubjectOf for --index, --shard and --node.
type esEvent struct {
	parse.Meta
	index string
	shard int
	node  string
}

type bareEvent struct{ parse.Meta }

func (*bareEvent) Kind() string { return "test.bare" }

func at(sec int) parse.Meta {
	return parse.Meta{Time: time.Date(2024, 3, 1, 10, 0, sec, 0, time.UTC), Timed: true}
}

func TestFilterEvents(t *testing.T) {
	yb1 := &ybEvent{Meta: at(1), tablet: "t1", peer: "p1"}
	yb2 := &ybEvent{Meta: at(2), tablet: "t2", peer: "p1"}
	es1 := &esEvent{Meta: at(3), index: "logs", shard: 0, node: "n1"}
	es2 := &esEvent{Meta: at(4), index: "logs", shard: 1, node: "n2"}
	// A cluster-state line names no shard: every shard's replay needs it.
	es3 := &esEvent{Meta: at(4), index: "", shard: -1, node: "n2"}
	bare := &bareEvent{}
	all := []parse.Event{yb1, yb2, es1, es2, es3, bare}
	shard := func(n int) readOptions { return readOptions{Shard: n, HasShard: true} }
	for name, tc := range map[string]struct {
		opt  readOptions
		want []parse.Event
	}{
		"none":                 {readOptions{}, all},
		"tablet":               {readOptions{Tablet: "t1"}, []parse.Event{yb1, es1, es2, es3, bare}},
		"peer":                 {readOptions{Peer: "p1"}, all},
		"index":                {readOptions{Index: "other"}, []parse.Event{yb1, yb2, es3, bare}},
		"shard 0":              {shard(0), []parse.Event{yb1, yb2, es1, es3, bare}},
		"shard 1":              {shard(1), []parse.Event{yb1, yb2, es2, es3, bare}},
		"node":                 {readOptions{Node: "n2"}, all},
		"since":                {readOptions{Since: at(3).Time}, []parse.Event{es1, es2, es3, bare}},
		"until":                {readOptions{Until: at(2).Time}, []parse.Event{yb1, yb2, bare}},
		"window+tablet":        {readOptions{Since: at(2).Time, Until: at(3).Time, Tablet: "t2"}, []parse.Event{yb2, es1, bare}},
		"peer is for findings": {readOptions{Peer: "p9"}, all},
	} {
		var kept []parse.Event
		for _, e := range all {
			if keepEvent(e, &tc.opt) {
				kept = append(kept, e)
			}
		}
		assert.Equal(t, tc.want, kept, name)
	}
}

func TestKeepFinding(t *testing.T) {
	zero, one := 0, 1
	yb := &rules.Finding{Subject: rules.Subject{System: "yb", Tablet: "t1", Peer: "p1"}}
	es := &rules.Finding{Subject: rules.Subject{System: "es", Index: "logs", Shard: &zero, Node: "n1"}}
	noShard := &rules.Finding{Subject: rules.Subject{System: "es", Index: "logs"}}
	assert.True(t, keepFinding(yb, readOptions{Tablet: "t1"}))
	assert.False(t, keepFinding(es, readOptions{Tablet: "t1"}), "an ES finding names no tablet")
	assert.False(t, keepFinding(yb, readOptions{Index: "logs"}))
	assert.True(t, keepFinding(es, readOptions{Index: "logs", Shard: 0, HasShard: true, Node: "n1"}))
	assert.False(t, keepFinding(es, readOptions{Shard: one, HasShard: true}))
	assert.False(t, keepFinding(noShard, readOptions{Shard: 0, HasShard: true}))
	assert.True(t, keepFinding(noShard, readOptions{}))
}
