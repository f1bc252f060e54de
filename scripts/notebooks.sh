#!/usr/bin/env bash
# notebooks.sh installs Jupyter and the GoNB kernel, and executes crdlab's
# notebooks headless, proving each exercise both ways: its check cell fails
# on its stub (every other exercise solved, so no other stub can be the
# cause) and passes on the reference solution.
#
#   scripts/notebooks.sh setup         install what is missing (apt, go install)
#   scripts/notebooks.sh run [NB...]   setup if needed, then execute and verify
#   scripts/notebooks.sh update [NB...]
#                                      run, then write the executed notebooks
#                                      (with their outputs) back for committing
#   scripts/notebooks.sh render        open every notebook in Jupyter Notebook
#                                      (headless Chromium): diagrams are drawn
#   scripts/notebooks.sh grade CLASS   grade students' notebooks, handed in as
#                                      CLASS/<student>/<notebook>.ipynb: print
#                                      a table of exercise × student
#   scripts/notebooks.sh grade-test    grade a class of two made-up students
#                                      (one right, one wrong) and compare the
#                                      table with the one expected
#
# Each exercise is proven in one run of its notebook: the check fails on the
# stub, then on each wrong answer in notebooks/wrong/<notebook>/ (with a test
# failure, not a compile error, whose output points at the mistake), then
# passes on the solution.
#
# NB defaults to every notebooks/*.ipynb. Outputs and logs go to
# $NOTEBOOKS_OUT (default .ci/out/notebooks). Jupyter, GoNB and goimports are
# installed, never skipped: Jupyter from Debian's packages (needs root),
# GoNB and goimports at the versions pinned in tools/go.mod.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# The environment the kernel needs. GoNB builds each cell with the go
# command, so go, goimports and a writable Go cache must be there when
# nbconvert runs; the kernelspec is looked up in JUPYTER_DATA_DIR, which
# must be the same at install and at run time.
export HOME="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
export PATH="/usr/local/go/bin:$PATH"
gobin="$(go env GOBIN)"
[ -n "$gobin" ] || gobin="$(go env GOPATH | cut -d: -f1)/bin"
export PATH="$gobin:$PATH"
export GOCACHE="${GOCACHE:-$(go env GOCACHE)}"
export JUPYTER_DATA_DIR="${JUPYTER_DATA_DIR:-$HOME/.local/share/jupyter}"
out="${NOTEBOOKS_OUT:-$root/.ci/out/notebooks}"
timeout="${NOTEBOOK_CELL_TIMEOUT:-180}"

log() { printf '%s notebooks: %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# pinned VERSION of MODULE in tools/go.mod.
pinned() { go -C tools list -m -f '{{.Version}}' "$1"; }

# installed_version BINARY MODULE: the module version BINARY was built from.
installed_version() {
  [ -x "$gobin/$1" ] || return 0
  go version -m "$gobin/$1" | awk -v m="$2" '$1 == "mod" && $2 == m { print $3 }'
}

# jupyter-notebook (6.4) is what students open the notebooks in; the render
# step checks the diagrams show there.
have_jupyter() { command -v jupyter-nbconvert >/dev/null && command -v jupyter-notebook >/dev/null && jupyter kernelspec list >/dev/null 2>&1; }

have_tools() {
  [ "$(installed_version gonb github.com/janpfeifer/gonb)" = "$(pinned github.com/janpfeifer/gonb)" ] &&
    [ "$(installed_version goimports golang.org/x/tools)" = "$(pinned golang.org/x/tools)" ]
}

# have_kernel: the gonb kernelspec exists and runs the gonb installed now.
have_kernel() {
  local spec="$JUPYTER_DATA_DIR/kernels/gonb/kernel.json"
  [ -f "$spec" ] && grep -q "\"$gobin/gonb\"" "$spec"
}

setup() {
  if ! have_jupyter; then
    log "installing Jupyter (jupyter-nbconvert, jupyter-client) from Debian's packages"
    if [ "$(id -u)" -ne 0 ]; then
      echo "notebooks: Jupyter is missing and installing it needs root: run 'sudo $0 setup'" >&2
      exit 1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      jupyter-nbconvert jupyter-client jupyter-notebook >/dev/null
  fi
  if ! have_tools; then
    log "installing GoNB $(pinned github.com/janpfeifer/gonb) and goimports (tools/go.mod) into $gobin"
    go -C tools install tool
  fi
  if ! have_kernel; then
    log "installing the gonb kernelspec into $JUPYTER_DATA_DIR"
    # --force_deps: gonb refuses to install without gopls, which only
    # editors need. --raw_error: errors as plain text, not HTML.
    gonb --install --force_deps --raw_error >/dev/null 2>&1 || gonb --install --force_deps --raw_error
  fi
  have_jupyter && have_tools && have_kernel || { echo "notebooks: setup did not complete" >&2; exit 1; }
  log "ready: $(jupyter nbconvert --version | head -1 | sed 's/^/nbconvert /'), gonb $(pinned github.com/janpfeifer/gonb), kernelspec in $JUPYTER_DATA_DIR"
}

# execute IN DIR LOG: run notebook IN headless into DIR. Cells that fail
# do not stop it (--allow-errors): nbtool verify judges the outputs.
execute() {
  local in=$1 dir=$2 logf=$3
  mkdir -p "$dir"
  if ! jupyter nbconvert --to notebook --execute --allow-errors \
    --ExecutePreprocessor.kernel_name=gonb \
    --ExecutePreprocessor.timeout="$timeout" \
    --output-dir "$dir" "$in" >"$logf" 2>&1; then
    echo "notebooks: nbconvert failed on $in (a cell timed out or the kernel died); last lines of $logf:" >&2
    tail -n 30 "$logf" >&2
    return 1
  fi
}

# prove runs one execution of the notebook: with only exercise id left
# unsolved (kind stub), or every exercise solved (kind solution, id empty).
# Its result goes to $out/status/<tag> (ok or failed) and a line to the log.
prove() {
  local kind=$1 nb=$2 id=$3 tag=$4 start=$SECONDS result=failed
  if [ "$kind" = stub ]; then
    if "$out/nbtool" solve -keep "$id" "$nb" "$out/in/$tag.ipynb" &&
      execute "$out/in/$tag.ipynb" "$out/executed" "$out/logs/$tag.log" &&
      "$out/nbtool" verify -mode stub -exercise "$id" "$out/executed/$tag.ipynb"; then
      result=ok
    fi
  elif "$out/nbtool" solve "$nb" "$out/in/$tag.ipynb" &&
    execute "$out/in/$tag.ipynb" "$out/executed" "$out/logs/$tag.log" &&
    "$out/nbtool" verify -mode solution "$out/executed/$tag.ipynb"; then
    result=ok
  fi
  echo "$result" >"$out/status/$tag"
  log "$tag: $result, $((SECONDS - start)) s"
}

# NOTEBOOK_JOBS executions run at once (default 2). A kernel builds each
# cell with the go command and runs it, one cell at a time: one execution
# keeps one core busy, and a run of one at a time took 20 minutes of CI's
# 2-core machine for 40 minutes of the other core's idling.
jobs_max="${NOTEBOOK_JOBS:-2}"

run() {
  local update=$1
  shift
  have_jupyter && have_tools && have_kernel || setup
  local nbs=("$@")
  [ ${#nbs[@]} -gt 0 ] || nbs=(notebooks/*.ipynb)
  rm -rf "$out"
  mkdir -p "$out/in" "$out/executed" "$out/logs" "$out/status"
  go build -o "$out/nbtool" ./notebooks/internal/nbtool
  "$out/nbtool" lint "${nbs[@]}"

  local start=$SECONDS nb name id tags=()
  for nb in "${nbs[@]}"; do
    name=$(basename "$nb" .ipynb)
    for id in $("$out/nbtool" exercises "$nb") ""; do
      while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
      if [ -n "$id" ]; then
        tags+=("$name.unsolved-$id")
        prove stub "$nb" "$id" "$name.unsolved-$id" &
      else
        tags+=("$name.solved")
        prove solution "$nb" "" "$name.solved" &
      fi
    done
  done
  wait
  local failed=0 tag
  for tag in "${tags[@]}"; do
    [ "$(cat "$out/status/$tag" 2>/dev/null)" = ok ] || { failed=1; log "$tag: FAILED"; }
  done
  if [ "$update" = 1 ] && [ "$failed" = 0 ]; then
    for nb in "${nbs[@]}"; do
      name=$(basename "$nb" .ipynb)
      execute "$nb" "$out/executed/committed" "$out/logs/$name.committed.log" &&
        "$out/nbtool" verify -mode stub "$out/executed/committed/$name.ipynb" &&
        "$out/nbtool" publish "$out/executed/committed/$name.ipynb" "$nb" || failed=1
    done
  fi
  if [ "$failed" != 0 ]; then
    echo "notebooks: FAILED (executed notebooks and kernel logs in $out)" >&2
    exit 1
  fi
  log "all ${#nbs[@]} notebooks pass in $((SECONDS - start)) s, $jobs_max executions at a time: each check fails on its own stub and passes on its solution"
}

grade() {
  local class=$1 dir=${2:-$out/grade}
  [ -d "$class" ] || { echo "notebooks: grade: $class is not a directory (want CLASS/<student>/<notebook>.ipynb)" >&2; exit 2; }
  have_jupyter && have_tools && have_kernel || setup
  rm -rf "$dir"
  mkdir -p "$dir/logs"
  go build -o "$dir/nbtool" ./notebooks/internal/nbtool
  local refs=() student nb name ref
  for ref in notebooks/*.ipynb; do refs+=("$ref"); done
  for student in "$class"/*/; do
    student=$(basename "$student")
    mkdir -p "$dir/in/$student" "$dir/executed/$student"
    for nb in "$class/$student"/*.ipynb; do
      [ -e "$nb" ] || continue
      name=$(basename "$nb" .ipynb)
      ref="notebooks/$name.ipynb"
      if [ ! -f "$ref" ]; then
        log "grade: $student/$name.ipynb is not one of notebooks/*.ipynb: skipped"
        continue
      fi
      log "grade: $student/$name"
      "$dir/nbtool" grade-prepare "$ref" "$nb" "$dir/in/$student/$name.ipynb"
      # A notebook that fails to run is graded from what did run.
      execute "$dir/in/$student/$name.ipynb" "$dir/executed/$student" "$dir/logs/$student.$name.log" ||
        cp "$dir/in/$student/$name.ipynb" "$dir/executed/$student/$name.ipynb"
    done
  done
  "$dir/nbtool" grade-report "$dir/executed" "${refs[@]}"
}

# grade_test: a class of two made-up students, "right" (every reference
# solution) and "wrong" (one wrong answer), graded on one notebook; the
# table must be the one in notebooks/internal/nbtool/testdata/grade.txt.
grade_test() {
  local nb=notebooks/01-scheme-and-conversion.ipynb dir="$out/grade-test"
  rm -rf "$dir"
  mkdir -p "$dir/class/right" "$dir/class/wrong"
  go build -o "$dir/nbtool" ./notebooks/internal/nbtool
  "$dir/nbtool" solve "$nb" "$dir/class/right/01-scheme-and-conversion.ipynb"
  "$dir/nbtool" solve -with exercise-defaults=notebooks/wrong/01-scheme-and-conversion/exercise-defaults-zero-is-unset.go \
    "$nb" "$dir/class/wrong/01-scheme-and-conversion.ipynb"
  grade "$dir/class" "$dir/out" >"$dir/table.txt"
  if ! diff -u notebooks/internal/nbtool/testdata/grade.txt "$dir/table.txt"; then
    echo "notebooks: grade-test: the table differs from notebooks/internal/nbtool/testdata/grade.txt" >&2
    exit 1
  fi
  log "grade-test: the right student passes every exercise, the wrong one fails exercise-defaults only"
}

# render: open every notebook in Jupyter Notebook with headless Chromium
# and check that its diagrams are drawn (notebooks/render).
render() {
  have_jupyter || setup
  go -C notebooks/render mod download
  NOTEBOOK_SCREENSHOTS="$out/screenshots" go -C notebooks/render test -count=1 ./...
  log "render: every notebook's diagrams are drawn in Jupyter Notebook $(jupyter notebook --version); screenshots in $out/screenshots"
}

case "${1:-}" in
setup) setup ;;
render) render ;;
run) shift; run 0 "$@" ;;
update) shift; run 1 "$@" ;;
grade) shift; [ $# -ge 1 ] || { echo "usage: $0 grade CLASS" >&2; exit 2; }; grade "$@" ;;
grade-test) grade_test ;;
*)
  sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
  ;;
esac
