package timeline

// SetMaxItems changes the page's item budget for a benchmark and returns
// a function that restores it.
func SetMaxItems(n int) (restore func()) {
	old := maxItems
	maxItems = n
	return func() { maxItems = old }
}
