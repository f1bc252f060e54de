// Package multiserver tests several crdlab servers sharing one etcd
// (storage/etcd3): writes through one are read and watched through the
// others, a CRD created through one is served by all, and when one stops
// the others keep serving and their controllers keep working.
//
// The servers run in process (apiserver.Config with StorageBackend
// "etcd"); the etcd is a real one started by storage/etcd3/etcdtest
// (Debian's etcd-server package: a missing etcd fails the test).
package multiserver
