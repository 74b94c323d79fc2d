package ybstate

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/logsleuth/logsleuth/parse"
	"github.com/logsleuth/logsleuth/parse/yb"
)

// memReread reads inputs held in memory again, and counts the reads.
type memReread struct {
	mu    sync.Mutex
	data  map[string][]byte
	reads int
}

func (m *memReread) Has(source string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.data[source]
	return ok
}

func (m *memReread) ReadAt(source string, off int64, n int) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reads++
	d := m.data[source]
	if off+int64(n) > int64(len(d)) {
		return nil, errors.New("past the end")
	}
	return append([]byte(nil), d[off:off+int64(n)]...), nil
}

const placeLog = "Log file created at: 2023/10/07 16:30:00\n" + `I1007 16:39:00.100000 1 raft_consensus.cc:1] T 7c1e0a5b3f9d4e2a8b6c5d4e3f2a1b0c P 1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b [term 1 LEADER]: Sending NO_OP at op 1.1
I1007 16:39:01.000000 1 raft_consensus.cc:2499] T 7c1e0a5b3f9d4e2a8b6c5d4e3f2a1b0c P 3b5d7f9a1c3e4a6b8d0f2a4c6e8a0c2e [term 1 FOLLOWER]: Leader election vote request: Granting yes vote for candidate 2a4c6e8f0b1d4f3a5c7e9a0b2d4f6a8c in term 2.
I1007 16:39:01.100000 1 replica_state.cc:1257] T 7c1e0a5b3f9d4e2a8b6c5d4e3f2a1b0c P 1f0e3c5a7b9d4e6f8a0b2c4d6e8f0a1b [term 1 FOLLOWER]: Reset our ht lease: { physical: 1696696746900000 }
`

// foldPlaced scans log as source and folds it into a state that reads
// inputs again through rr (nil: none).
func foldPlaced(t *testing.T, source, log string, rr Rereader) *State {
	t.Helper()
	res, err := parse.Scan(strings.NewReader(log), source, []parse.System{yb.System}, parse.Options{})
	require.NoError(t, err)
	s := New()
	if rr != nil {
		s.SetRereader(rr)
	}
	for _, e := range res.Events {
		s.Apply(e)
	}
	return s
}

// keptLines are the lines placeLog's state keeps: the leadership, the
// vote and the lease fact.
func keptLines(t *testing.T, s *State) []From {
	t.Helper()
	tab := s.Raft().Tablet("7c1e0a5b3f9d4e2a8b6c5d4e3f2a1b0c")
	require.NotNil(t, tab)
	lead := tab.Leaders(1)
	require.Len(t, lead, 1)
	votes := tab.Votes(2)
	require.Len(t, votes, 1)
	leases := tab.Leases()
	require.Len(t, leases, 1)
	return []From{lead[0].Since, votes[0].From, leases[0].From}
}

// The lines of an input that can be read again are kept by place, in 16
// bytes, and read back as they were; those of an input that cannot, by
// text, as before.
func TestLinesKeptByPlace(t *testing.T) {
	lines := strings.Split(placeLog, "\n")[1:4]
	rr := &memReread{data: map[string][]byte{"t.log": []byte(placeLog)}}
	placed := foldPlaced(t, "t.log", placeLog, rr)
	for i, f := range keptLines(t, placed) {
		assert.True(t, isPlace(f.text), "line %d kept as %q", i, f.text)
		assert.Len(t, f.text, refLen)
		assert.Equal(t, lines[i], f.Text())
	}
	assert.Equal(t, 3, rr.reads, "one read a line cited")

	// Another input of the same run, which the reader does not have.
	kept := foldPlaced(t, "u.log", placeLog, rr)
	for i, f := range keptLines(t, kept) {
		assert.False(t, isPlace(f.text), "line %d", i)
		assert.Equal(t, lines[i], f.Text())
	}
	// No reader.
	for i, f := range keptLines(t, foldPlaced(t, "t.log", placeLog, nil)) {
		assert.False(t, isPlace(f.text), "line %d", i)
		assert.Equal(t, lines[i], f.Text())
	}
}

// A line that no longer reads as it did when it was kept (the file was
// cut or rewritten since) is a note that says so, not another line.
func TestChangedInputIsNoted(t *testing.T) {
	data := []byte(placeLog)
	rr := &memReread{data: map[string][]byte{"t.log": data}}
	s := foldPlaced(t, "t.log", placeLog, rr)
	kept := keptLines(t, s)
	// One byte of the vote's line changes; the lease's line is cut off.
	i := strings.Index(placeLog, "Granting yes")
	data[i] = 'g'
	rr.data["t.log"] = data[:strings.Index(placeLog, "Reset our")]
	assert.Equal(t, strings.Split(placeLog, "\n")[1], kept[0].Text(), "the line that did not change")
	assert.Contains(t, kept[1].Text(), "the file changed after it was read")
	assert.Contains(t, kept[1].Text(), "t.log")
	assert.Contains(t, kept[2].Text(), "could not be read again")
}

// A place is read by the reader it names: two states of two runs, their
// inputs of the same name holding different lines, each read their own.
func TestPlaceNamesItsReader(t *testing.T) {
	other := strings.ReplaceAll(placeLog, "Sending NO_OP at op 1.1", "Sending NO_OP at op 1.7")
	a := foldPlaced(t, "t.log", placeLog, &memReread{data: map[string][]byte{"t.log": []byte(placeLog)}})
	b := foldPlaced(t, "t.log", other, &memReread{data: map[string][]byte{"t.log": []byte(other)}})
	assert.Contains(t, keptLines(t, a)[0].Text(), "op 1.1")
	assert.Contains(t, keptLines(t, b)[0].Text(), "op 1.7")
}

// A text that starts with the place mark is packed, never taken for a
// place.
func TestPlaceMarkIsEscaped(t *testing.T) {
	s := "\xfc" + strings.Repeat("x", refLen-1)
	p := packIDs(s, "", "")
	assert.False(t, isPlace(p))
	assert.Equal(t, s, From{text: p}.Text())
	assert.Equal(t, s, unpackText(packText(s)))
}

// TestPlaceMakesOnlyItself: keeping a line by place allocates the 16-byte
// place and nothing else, however long the line (its checksum reads the
// text where it is).
func TestPlaceMakesOnlyItself(t *testing.T) {
	rr := &reread{r: &memReread{data: map[string][]byte{"t.log": nil}}, id: 1}
	for _, n := range []int{refLen + 1, 200, 4096} {
		text := strings.Repeat("x", n)
		var p string
		allocs := testing.AllocsPerRun(100, func() {
			var ok bool
			p, ok = rr.place("t.log", 10, text)
			require.True(t, ok)
		})
		assert.Equal(t, 1.0, allocs, "a place of a %d-byte line", n)
		require.True(t, isPlace(p))
		assert.Equal(t, crc32.Checksum([]byte(text), refTable), binary.BigEndian.Uint32([]byte(p[12:16])))
	}
}
