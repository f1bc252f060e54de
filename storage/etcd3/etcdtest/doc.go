// Package etcdtest starts a real etcd server for tests: the etcd binary
// (Debian's etcd-server package, /usr/bin/etcd) on free loopback ports,
// with its data in t.TempDir(), stopped by t.Cleanup.
//
// A missing binary fails the test (it never skips): the etcd backend is
// only tested against a real etcd, and a silent skip would hide that it
// was not tested at all.
package etcdtest
