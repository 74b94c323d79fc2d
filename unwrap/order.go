package unwrap

import "fmt"

// Reorder restores the order of a listing that may be newest first
// (logcli prints newest first unless --forward): it holds the first lines
// until their order is told, passes an oldest-first listing on as it
// comes, and holds a newest-first one to its end to give it back
// reversed. The collector's times tell the order when they step; while
// they tie (whole seconds), the lines' own order does (votes): their
// timestamps, a glog header, a numbered dump. Deciding holds at most
// DecideLines lines: past them, the votes so far decide, and none read
// the listing as given. Memory is bounded by Max bytes of text: past it,
// what is held is given back reversed and holding starts again, so each
// block is in time order but the blocks are not (Note says so).
type Reorder struct {
	// Max bounds the text held.
	Max int
	// Decide is how many timed lines tell the order; 0 means 16.
	Decide int
	// DecideLines bounds the lines held while the order is not told; 0
	// means 4096.
	DecideLines int
	held        []Line
	bytes       int
	timed       int
	state       int // 0 deciding, 1 oldest first, 2 newest first
	blocks      int
	prev        int64
	descend     bool
	// stepped says the collector's times stepped (back): they, not the
	// votes, told the order.
	stepped bool
	votes   votes
}

// innerMargin is the lead of one order's votes over the other's that
// tells the order before DecideLines.
const innerMargin = 8

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
	// The votes' verdict stands until the collector's times step: they
	// tell the order better than the lines do.
	if (r.state == 0 || r.state == 2 && !r.stepped && r.blocks == 0) && l.Nanos != 0 {
		r.timed++
		switch {
		case r.timed == 1:
		case l.Nanos > r.prev:
			// One step forward: oldest first.
			r.state = 1
			r.release(false, emit)
			return
		case l.Nanos < r.prev:
			r.descend, r.stepped = true, true
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
	// An untimed line goes on the record before it (a Kibana CSV row's
	// message of several lines): its order within the record says
	// nothing of the listing's.
	if r.state == 0 && !r.descend && l.Nanos != 0 {
		r.votes.add(l.Source, l.Text)
		fwd, back := r.votes.total()
		lines := r.DecideLines
		if lines <= 0 {
			lines = 4096
		}
		if len(r.held) >= lines {
			r.votes.settle()
			fwd, back = r.votes.total()
		}
		switch {
		case back-fwd >= innerMargin || len(r.held) >= lines && back > fwd:
			r.state = 2
		case fwd-back >= innerMargin || len(r.held) >= lines:
			r.state = 1
			r.release(false, emit)
			return
		}
	}
	if r.Max > 0 && r.bytes > r.Max {
		if r.state == 2 {
			r.blocks++
			r.release(true, emit)
		} else if fwd, back := r.votes.total(); back > fwd && !r.descend {
			// Not told by the collector: the votes so far decide.
			r.state = 2
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
		// Newest first by record: the lines of one record (one Num, or
		// a timed line and the untimed lines after it: a Kibana CSV
		// row's message of several lines) keep their order.
		for end := len(r.held); end > 0; {
			start := end - 1
			for start > 0 && (r.held[start-1].Num == r.held[end-1].Num || r.held[start].Nanos == 0) {
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
	if r.state == 0 && !r.descend {
		r.votes.settle()
	}
	if fwd, back := r.votes.total(); r.state == 0 && (r.descend || back > fwd) {
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
		return fmt.Sprintf("listed newest first and larger than %d MiB: read in %d blocks, each put back in time order, the blocks one after another (list it with --forward to read it in order); %s", r.Max>>20, r.blocks, r.told())
	}
	return "listed newest first (logcli without --forward, a Kibana CSV export): read in time order, last line first; " + r.told()
}

// told says what told the order.
func (r *Reorder) told() string {
	if r.stepped {
		return "told by the collector's times"
	}
	return "the collector's times tie, told by " + r.votes.told()
}
