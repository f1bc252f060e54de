// Command labcheck runs every command of a lab sheet's ```console blocks,
// in order, in one bash shell at the repository root, and compares each
// command's output with the sheet (see docmap.ConsoleCommands for the
// format and its ⋯ wildcard).
//
//	go run ./internal/docmap/cmd/labcheck docs/lab/README.md     (make lab)
//
// As root, with unshare(1), it runs the sheet in a network namespace of
// its own (only a loopback interface), so the sheet's port 8080 is free
// and nothing leaves the machine; otherwise port 8080 must be free. When
// kubectl is not on PATH it builds the real one from k8s.io/kubectl (the
// e2e module) into e2e/bin. Background jobs the sheet starts are killed
// at the end. It prints one line per command and "N passed, N failed".
package main
