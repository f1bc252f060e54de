# crdlab's build and test entry points. `make test` is what CI runs (.ci/run).

GO ?= go
# Two cores: run test binaries two at a time.
GOTEST_FLAGS ?= -race -p 2 -timeout 20m

.PHONY: test check unit e2e serve bench bench-short bench-test bench-storage notebooks-setup notebooks notebooks-update

# test runs everything: formatting and vet checks, the main module's tests
# (with -race, fuzz seed corpora included) and the end-to-end module that
# drives `crdlab serve` with the real kubectl and client-go.
test: check unit e2e notebooks bench-short

check:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	cd e2e && $(GO) vet ./...

unit:
	$(GO) test $(GOTEST_FLAGS) ./...

# -count=1: the tests build kubectl and crdlab from this tree in a
# subprocess, which go test's result cache cannot see; a cached "ok" would
# hide a server change.
e2e:
	cd e2e && $(GO) test -count=1 -p 1 -timeout 30m ./...

serve:
	$(GO) run ./cmd/crdlab serve

# bench measures crdlab next to the upstream apiextensions-apiserver (etcd
# installed from Debian if missing, both servers built and started here) and
# rewrites docs/perf.md, docs/perf.json and docs/perf/*.png. About 10 minutes;
# run it on a quiet machine and commit its output.
bench:
	nice $(GO) -C bench run ./cmd/crdbench

# bench-short is the same harness with small sizes (under 2 minutes with a
# warm build cache): it fails if anything breaks or a watch misses an event,
# and asserts nothing about speed. Output goes to a temporary directory.
bench-short: bench-test
	$(GO) -C bench run ./cmd/crdbench -short

bench-test:
	cd bench && $(GO) vet ./... && $(GO) test ./...

bench-storage:
	$(GO) test -run '^$$' -bench . -benchtime 2s ./storage/bolt/

# notebooks-setup installs Jupyter (Debian's jupyter-nbconvert, needs root)
# and the GoNB kernel pinned in tools/go.mod; notebooks runs it if needed.
notebooks-setup:
	bash scripts/notebooks.sh setup

# notebooks executes every notebook headless and proves each exercise both
# ways: its check fails on its stub (the other exercises solved) and
# passes on its solution.
notebooks:
	bash scripts/notebooks.sh run

# notebooks-update is notebooks, then executes each notebook as committed
# and writes it back with its outputs (which GitHub shows) for committing.
notebooks-update:
	bash scripts/notebooks.sh update
