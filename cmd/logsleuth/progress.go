package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/logsleuth/logsleuth/internal/units"
)

// progress draws a one-line bar on a terminal's stderr while inputs are
// read: bytes read of the total where the inputs' sizes are known (files;
// for .gz the compressed bytes, as the size on disk is what is known), and
// the rate. It prints counts only, never a file name, so no log-controlled
// text reaches the terminal through it. A nil *progress draws nothing.
type progress struct {
	// mu guards the fields below: inputs are read concurrently.
	mu     sync.Mutex
	w      io.Writer
	now    func() time.Time
	total  int64
	done   int64
	start  time.Time
	last   time.Time
	drawn  bool
	redraw time.Duration
}

// progressEvery is how often the bar is redrawn at most.
const progressEvery = 100 * time.Millisecond

func newProgress(ios *IOStreams, total int64) *progress {
	if !ios.progressWanted() {
		return nil
	}
	t := ios.now()
	return &progress{w: ios.ErrOut, now: ios.now, total: total, start: t, redraw: progressEvery}
}

// reader counts what r yields.
func (p *progress) reader(r io.Reader) io.Reader {
	if p == nil {
		return r
	}
	return &countingReader{r: r, p: p}
}

type countingReader struct {
	r io.Reader
	p *progress
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.p.add(int64(n))
	return n, err
}

func (p *progress) add(n int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	t := p.now()
	if t.Sub(p.last) < p.redraw {
		return
	}
	p.last = t
	p.draw(t)
}

func (p *progress) draw(t time.Time) {
	var b strings.Builder
	b.WriteString("\r\x1b[K")
	rate := ""
	if el := t.Sub(p.start).Seconds(); el > 0 {
		rate = "  " + units.Bytes(int64(float64(p.done)/el)) + "/s"
	}
	if p.total > 0 {
		frac := float64(p.done) / float64(p.total)
		if frac > 1 {
			frac = 1
		}
		const width = 30
		fill := int(frac * width)
		fmt.Fprintf(&b, "reading [%s%s] %3d%%  %s of %s%s",
			strings.Repeat("=", fill), strings.Repeat(" ", width-fill), int(frac*100),
			units.Bytes(p.done), units.Bytes(p.total), rate)
	} else {
		fmt.Fprintf(&b, "reading %s%s", units.Bytes(p.done), rate)
	}
	io.WriteString(p.w, b.String())
	p.drawn = true
}

// finish erases the bar, so the report and diagnostics start on a clean
// line.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.drawn {
		return
	}
	io.WriteString(p.w, "\r\x1b[K")
	p.drawn = false
}
