package timeline

// SetMaxItems changes the page's item budget for a benchmark and returns
// a function that restores it.
func SetMaxItems(n int) (restore func()) {
	old := maxItems
	maxItems = n
	return func() { maxItems = old }
}

// SetBudget changes the page's lane budgets for a test or benchmark and
// returns a function that restores them.
func SetBudget(bytes, summaries int) (restore func()) {
	ob, os := maxBytes, maxSummaries
	maxBytes, maxSummaries = bytes, summaries
	return func() { maxBytes, maxSummaries = ob, os }
}

// HeldBands is how many bands the builder holds in its lanes, and over
// how many lanes.
func HeldBands(tb *Builder) (bands, lanes int) {
	for _, p := range []*paneB{tb.timed.wall, tb.timed.ht} {
		for _, l := range p.lanes {
			bands += len(l.Bands)
			lanes++
		}
	}
	return bands, lanes
}

// HeldMarks is how many marks the builder holds in its lanes, and how
// many samplers (lanes times mark kinds, and series) it strides them by.
func HeldMarks(tb *Builder) (marks, samplers int) {
	for _, p := range []*paneB{tb.timed.wall, tb.timed.ht} {
		for _, l := range p.lanes {
			marks += len(l.Marks)
		}
	}
	return marks, len(tb.timed.smp.all)
}

// SetMaxLanes changes the lanes the builder builds for a test and returns
// a function that restores it.
func SetMaxLanes(n int) (restore func()) {
	old := maxLanes
	maxLanes = n
	return func() { maxLanes = old }
}
