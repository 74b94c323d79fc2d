package unwrap

import "fmt"

// Reorder restores the order of a listing that may be newest first
// (logcli prints newest first unless --forward): it holds the first lines
// until their collector times tell the order, passes an oldest-first
// listing on as it comes, and holds a newest-first one to its end to give
// it back reversed. Memory is bounded by Max bytes of text: past it, what
// is held is given back reversed and holding starts again, so each block
// is in time order but the blocks are not (Note says so).
type Reorder struct {
	// Max bounds the text held.
	Max int
	// Decide is how many timed lines tell the order; 0 means 16.
	Decide  int
	held    []Line
	bytes   int
	timed   int
	state   int // 0 deciding, 1 oldest first, 2 newest first
	blocks  int
	prev    int64
	descend bool
}

// Add takes a line (its text is copied when held) and calls emit with
// the lines to read now, in order.
func (r *Reorder) Add(l Line, emit func(Line)) {
	if r.state == 1 {
		emit(l)
		return
	}
	l.Text = append([]byte(nil), l.Text...)
	if l.Source != nil {
		l.Source = append([]byte(nil), l.Source...)
	}
	r.held = append(r.held, l)
	r.bytes += len(l.Text) + 64
	if r.state == 0 && l.Nanos != 0 {
		r.timed++
		switch {
		case r.timed == 1:
		case l.Nanos > r.prev:
			// One step forward: oldest first.
			r.state = 1
			r.release(false, emit)
			return
		case l.Nanos < r.prev:
			r.descend = true
		}
		r.prev = l.Nanos
		d := r.Decide
		if d <= 0 {
			d = 16
		}
		if r.descend && r.timed >= d {
			r.state = 2
		}
	}
	if r.Max > 0 && r.bytes > r.Max {
		if r.state == 2 {
			r.blocks++
			r.release(true, emit)
		} else {
			// Not told yet: read as given.
			r.state = 1
			r.release(false, emit)
		}
	}
}

func (r *Reorder) release(reverse bool, emit func(Line)) {
	if reverse {
		// Newest first by record: the lines of one record (one Num)
		// keep their order.
		for end := len(r.held); end > 0; {
			start := end - 1
			for start > 0 && r.held[start-1].Num == r.held[end-1].Num {
				start--
			}
			for _, l := range r.held[start:end] {
				emit(l)
			}
			end = start
		}
	} else {
		for _, l := range r.held {
			emit(l)
		}
	}
	clear(r.held)
	r.held, r.bytes = r.held[:0], 0
}

// End gives back what is held.
func (r *Reorder) End(emit func(Line)) {
	if r.state == 0 && r.descend {
		r.state = 2
	}
	if r.state == 2 && len(r.held) > 0 && r.blocks > 0 {
		r.blocks++
	}
	r.release(r.state == 2, emit)
}

// Reversed says the listing was newest first and was read reversed.
func (r *Reorder) Reversed() bool { return r.state == 2 }

// Note says what the caller should tell the user, or "".
func (r *Reorder) Note() string {
	switch {
	case r == nil:
		return ""
	case r.state != 2:
		return ""
	case r.blocks > 1:
		return fmt.Sprintf("listed newest first and larger than %d MiB: read in %d blocks, each put back in time order, the blocks one after another (list it with --forward to read it in order)", r.Max>>20, r.blocks)
	}
	return "listed newest first (logcli without --forward): read in time order, last line first"
}
