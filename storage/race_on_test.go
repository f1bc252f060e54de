//go:build race

package storage_test

// raceEnabled is true when the tests run with -race, which makes every
// memory access several times slower: the biggest tests scale down.
const raceEnabled = true
