# crdlab's build and test entry points. `make test` is what CI runs (.ci/run).

GO ?= go
# Two cores: run test binaries two at a time.
GOTEST_FLAGS ?= -race -p 2 -timeout 20m

.PHONY: test check unit e2e serve bench-storage

# test runs everything: formatting and vet checks, the main module's tests
# (with -race, fuzz seed corpora included) and the end-to-end module that
# drives `crdlab serve` with the real kubectl and client-go.
test: check unit e2e

check:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	cd e2e && $(GO) vet ./...

unit:
	$(GO) test $(GOTEST_FLAGS) ./...

e2e:
	cd e2e && $(GO) test -p 1 -timeout 30m ./...

serve:
	$(GO) run ./cmd/crdlab serve

bench-storage:
	$(GO) test -run '^$$' -bench . -benchtime 2s ./storage/
