# crdlab's build and test entry points. `make test` is what CI runs (.ci/run).

GO ?= go
# Two cores: run test binaries two at a time.
GOTEST_FLAGS ?= -race -p 2 -timeout 20m

.PHONY: test check unit e2e serve bench bench-short bench-test bench-storage differential differential-real ref-chain ref-chain-update notebooks-setup notebooks notebooks-update diagrams grade warmup lab

# test runs everything: formatting and vet checks, the main module's tests
# (with -race, fuzz seed corpora included) and the end-to-end module that
# drives `crdlab serve` with the real kubectl and client-go.
test: check unit e2e notebooks lab bench-short

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
# rewrites docs/perf.md, docs/perf.json and docs/perf/*.png. About 10 minutes, and as
# much again for the many-objects family (10,000 and 100,000 objects; `go -C bench run
# ./cmd/crdbench -phases objects` runs it alone and merges it into docs/perf.json), and
# the many-CRDs family (100, 500 and 2,000 real-size CRDs; hours on two cores: `-phases crds
# -crds-sizes 100,500` runs it alone and merges it likewise);
# run it on a quiet machine and commit its output.
bench:
	nice $(GO) -C bench run ./cmd/crdbench

# bench-short is the same harness with small sizes (under 2 minutes with a
# warm build cache): it fails if anything breaks or a watch misses an event,
# and asserts nothing about speed. Output goes to a temporary directory.
bench-short: bench-test
	$(GO) -C bench run ./cmd/crdbench -short

bench-test:
	cd bench && $(GO) vet ./... && $(GO) test -timeout 20m ./...

# differential runs the whole differential corpus (bench/internal/differential,
# every tier) against crdlab and the upstream apiextensions-apiserver, prints
# every difference and rewrites the figures in docs/compatibility.md. The ci
# tier already runs in bench-test (make test).
differential:
	$(GO) -C bench run ./cmd/crddiff -tier all -report ../docs/compatibility.md

# differential-real runs the real projects' CRDs (the modules bench/realcrds
# requires, read from the module cache) against crdlab and upstream the same
# way, and rewrites their table in docs/compatibility.md. Gateway API's
# HTTPRoute and GatewayClass run in bench-test too.
differential-real:
	$(GO) -C bench run ./cmd/crddiff -corpus real -tier all -report ../docs/compatibility.md

# ref-chain sends the requests of e2e's TestReferenceBuiltinAPI (the built-in API:
# discovery, Namespaces, Secrets, ConfigMaps, Events, Leases, the self-reviews) and
# TestReferenceKubeControllers (namespace deletion, garbage collection) to crdlab and to
# the real kube-apiserver and kube-controller-manager v1.37.2, built from the test-only
# module reference/ (about 10 minutes cold on two cores, seconds from the build cache)
# and run on /usr/bin/etcd, and prints every difference. ref-chain-update also rewrites
# the recorded answers (e2e/testdata/reference/) that `make test` compares crdlab with.
ref-chain:
	cd e2e && $(GO) test -count=1 -timeout 30m -run '^TestReference' . -args -ref

ref-chain-update:
	cd e2e && $(GO) test -count=1 -timeout 30m -run '^TestReference' . -args -ref -update-ref

bench-storage:
	$(GO) test -run '^$$' -bench . -benchtime 2s ./storage/bolt/

# notebooks-setup installs Jupyter (Debian's jupyter-nbconvert, needs root)
# and the GoNB kernel pinned in tools/go.mod; notebooks runs it if needed.
notebooks-setup:
	bash scripts/notebooks.sh setup

# notebooks executes every notebook headless and proves each exercise: in
# one run, its check fails on its stub and on each of its wrong answers
# (notebooks/wrong/) and passes on its solution. Then it opens every
# notebook in Jupyter Notebook with headless Chromium to check that the
# diagrams are drawn (screenshots in .ci/out/notebooks/screenshots), and
# grades a made-up class of two students.
notebooks:
	bash scripts/notebooks.sh run
	bash scripts/notebooks.sh render
	bash scripts/notebooks.sh grade-test

# diagrams draws notebooks/diagrams/*.mmd (mermaid) as SVG with Debian's
# Chromium (mermaid from npm, fetched once); commit the .svg files.
diagrams:
	$(GO) -C notebooks/render run ./cmd/diagrams

# grade runs every student's notebooks in CLASS/<student>/<notebook>.ipynb
# against the reference checks and prints a table of exercise × student.
grade:
	@test -n "$(CLASS)" || { echo "usage: make grade CLASS=path/to/class"; exit 2; }
	bash scripts/notebooks.sh grade "$(CLASS)"

# warmup builds everything a lab needs once, before class (the first build
# on a laptop takes a minute or more; later ones take seconds).
warmup:
	bash scripts/warmup.sh

# lab runs every command of the lab sheet (docs/lab/README.md) in an
# isolated network namespace and compares its output with the sheet. It
# runs outside this make (no MAKELEVEL), so the sheet's `make warmup` prints
# what a student sees, without make's "Entering directory" lines.
lab:
	env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS $(GO) run ./internal/docmap/cmd/labcheck docs/lab/README.md

# notebooks-update is notebooks, then executes each notebook as committed
# and writes it back with its outputs (which GitHub shows) for committing.
notebooks-update:
	bash scripts/notebooks.sh update
