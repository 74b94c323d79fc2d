//go:build !unix

package source

import (
	"io/fs"
	"os"
)

// Without O_NONBLOCK, a walk still checks the type before it opens (see
// walk), so only a file swapped for a FIFO in between could block.
func openNonblocking(name string) (*os.File, error) { return os.Open(name) }

func clearNonblocking(*os.File) error { return nil }

func sysID(fs.FileInfo) (FileID, bool) { return FileID{}, false }
