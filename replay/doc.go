// Package replay orders events into one timeline. Each system's state fold
// lives in a subpackage (replay/ybstate, replay/esstate): a pure,
// deterministic Apply(event) over typed state, with time taken only from
// the events.
//
// replay may import parse and grammar, never rules, render or the OS.
package replay
