#!/usr/bin/env bash
# warmup.sh builds, once, everything the 90-minute lab uses, so that the
# first command in class runs in seconds: run it the day before (make
# warmup). The first build on a laptop takes a minute or more; it fills
# Go's module and build caches, which later builds reuse.
#
# It needs Go >= 1.26 and nothing else. With Jupyter and GoNB installed
# (make notebooks-setup) it also builds what the notebooks import; with
# kubectl missing, it builds one from k8s.io/kubectl (the e2e module).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
start=$SECONDS
step() { printf 'warmup: %-52s' "$1"; }
done_() { printf ' done (%d s)\n' "$((SECONDS - t))"; }

need="1.26"
have=$(go env GOVERSION | sed 's/^go//')
if [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -1)" != "$need" ]; then
  echo "warmup: Go $have is too old: crdlab and its notebooks need Go >= $need (the notebooks use new(expr))" >&2
  exit 1
fi

t=$SECONDS; step "download modules"; go mod download; done_
t=$SECONDS; step "build crdlab, the examples and every package"; go build ./... && go build -o /dev/null ./cmd/crdlab; done_
t=$SECONDS; step "build the examples' tests"; go test -count=1 -run '^$' ./examples/... >/dev/null; done_
t=$SECONDS; step "build the lab checker"; go build -o /dev/null ./internal/docmap/cmd/labcheck; done_
if ! command -v kubectl >/dev/null; then
  t=$SECONDS; step "build kubectl from k8s.io/kubectl (e2e/bin/kubectl)"
  go -C e2e build -o bin/kubectl ./cmd/kubectl
  done_
  echo "warmup: no kubectl on PATH: use $(pwd)/e2e/bin/kubectl (export PATH=\"$(pwd)/e2e/bin:\$PATH\")"
fi
if command -v gonb >/dev/null || [ -x "$(go env GOPATH | cut -d: -f1)/bin/gonb" ]; then
  t=$SECONDS; step "build what the notebooks import"; go build ./apiserver/... ./informer/... ./storage/... ./scheme/... ./controller/...; done_
fi
echo "warmup: ready in $((SECONDS - start)) s (go $have)"
