// Package registrytest opens a real bbolt store and a scheme with the
// built-in groups, for the tests of the built-in REST storages.
package registrytest
