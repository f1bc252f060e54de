//go:build race

package bolt_test

// raceEnabled is true under -race, which makes every memory access several
// times slower: TestDB_WatchFanOut then writes 2,000 events instead of
// 10,000 (still to 1,000 watchers).
const raceEnabled = true
