package yb

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
)

// sharesMemory reports whether s's bytes lie inside line's.
func sharesMemory(s, line string) bool {
	if s == "" || line == "" {
		return false
	}
	p, l := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(line)))
	return p >= l && p < l+uintptr(len(line))
}

// The peer uuids a Raft event names in its message are strings of their
// own, not cuts of the line: the replayed state keeps a lease's holder or
// a vote's candidate per tablet, and a cut would keep the whole line.
func TestEventIDsOwnTheirText(t *testing.T) {
	const pre = "I1007 16:39:05.645100   5100 replica_state.cc:1300] T 9c7d1e3f5a6b7c8d9e0f1a2b3c4d5e6f P 2a4c6e8f0b1d4f3a5c7e9a0b2d4f6a8c [term 5 LEADER]: "
	const id = "1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b"
	for _, tc := range []struct {
		msg string
		ids func(parse.Event) []string
	}{
		{"Revoked old leader " + id + " ht lease: { physical: 1696696745036316 }", func(e parse.Event) []string { return []string{e.(*LeaseRevoked).Holder} }},
		{" Leader election vote request: Granting yes vote for candidate " + id + " in term 5.", func(e parse.Event) []string { return []string{e.(*Vote).Candidate} }},
		{"Transferring leadership to " + id, func(e parse.Event) []string { return []string{e.(*Transfer).To} }},
		{"Refusing update from remote peer " + id + ": Log matching property violated. Preceding OpId in replica: term: 5 index: 10. Preceding OpId from leader: term: 5 index: 12. (index mismatch)",
			func(e parse.Event) []string { return []string{e.(*UpdateRejected).From} }},
		{"Fail of leader " + id + " detected. Triggering leader election, mode=NORMAL_ELECTION", func(e parse.Event) []string { return []string{e.(*ElectionStart).FailedLeader} }},
	} {
		res, err := parse.Scan(strings.NewReader(pre+tc.msg+"\n"), "r.log", []parse.System{System}, parse.Options{Year: 2023})
		require.NoError(t, err)
		require.Len(t, res.Events, 1, tc.msg)
		e := res.Events[0]
		for _, s := range tc.ids(e) {
			require.Equal(t, id, s, tc.msg)
			require.False(t, sharesMemory(s, e.Info().Text), "%s: the id is a cut of the line", tc.msg)
		}
	}
}
