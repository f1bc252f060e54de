package bolt

// SetSplitPages sets the size (in pages) from which checkFile walks a tree
// on two goroutines (walkSplit), for a test, and returns the function that
// puts it back.
func SetSplitPages(n uint64) (restore func()) {
	old := splitPages
	splitPages = n
	return func() { splitPages = old }
}
