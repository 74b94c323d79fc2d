package yb

import "bytes"

// knows is System.Knows: whether a line is in YugabyteDB's own format,
// claimed or not. It is the glog envelope (the common form first, as the
// Skip test reads it, then every form splitEnvelope reads: FATAL
// details, indented, a runner's prefix, the letter lost), a glog file
// header, a stack frame or glog's crash banner, and the shapes of an
// excerpt that lost its envelope which the decoder reads: a replica
// prefix, an MVCC dump entry, a line of the `hybrid time too low` block,
// a phrase a reader or the alarm table wants, or a Raft message's words
// (raftWords). A line in another system's
// layout (`[2023-...`, `{...`) is not YugabyteDB's whatever its words.
func knows(text []byte) bool {
	if _, _, ok := quickEnvelope(text); ok {
		return true
	}
	env := splitEnvelope(text)
	if env.hasClock && len(env.file) > 0 {
		return true
	}
	msg := bytes.TrimSpace(env.msg)
	if len(msg) == 0 || msg[0] == '{' || msg[0] == '[' && len(msg) > 1 && msg[1] >= '0' && msg[1] <= '9' {
		return false
	}
	switch {
	case isHeader(msg), isStackLine(msg),
		bytes.HasPrefix(msg, []byte("*** ")), bytes.HasPrefix(msg, []byte("PC: @ ")),
		bytes.HasPrefix(msg, []byte("Fatal failure details written to ")),
		bytes.HasPrefix(msg, []byte("[sys.catalog]: ")),
		itemNumber(msg) > 0 && looksLikeItem(msg),
		len(afterPrefix(msg)) < len(msg),
		tooLowDetail(msg):
		return true
	}
	return interesting(env.msg) || raftWords.match(env.msg) || alarmPhrases.match(env.msg)
}

// tooLowDetail reports whether msg has the shape of a line of the bounds
// block mvcc.cc prints after `hybrid time too low` (detailLine reads
// them).
func tooLowDetail(msg []byte) bool {
	t := bytes.TrimPrefix(msg, []byte("!!! "))
	for _, p := range [][]byte{
		[]byte("ht <"), []byte("*ht <"), []byte("static_cast<int64_t>("), []byte("queue_.size()="),
		[]byte("queue_=["), []byte("is_follower_side="), []byte("aborted="),
	} {
		if bytes.HasPrefix(t, p) {
			return true
		}
	}
	if bytes.Contains(t, []byte("PhysicalDiff(")) {
		return true
	}
	if i := bytes.IndexByte(t, '='); i > 0 {
		return boundName(string(t[:i])) != ""
	}
	return false
}
