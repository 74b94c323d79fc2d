package yb

import "github.com/logsleuth/logsleuth/parse"

// configKeywords select the Raft config change and remote bootstrap lines
// config reads.
var configKeywords [][]byte

// config reads Raft config changes, tablet reports, deletes and remote
// bootstrap sessions. It returns nil for anything else.
func (d *decoder) config(base Base, text string, out *parse.Sink) Event {
	return nil
}
