#!/usr/bin/env bash
# README's test command (./run-tests.sh) on every Python README names, each in its own
# virtualenv (build/venvs/<version>, created and installed on first use, as bootstrap.sh
# does for .venv). Run it before a release; docs/testing.md records the last result.
#
#   scripts/test-matrix.sh                      # 3.11, 3.12 and 3.13, the whole suite each
#   scripts/test-matrix.sh 3.13 -- -x           # one version; arguments after -- go to pytest
#   scripts/test-matrix.sh --mypy-only          # the quick check CI runs: mypy on each
#                                               # version in a small venv (heirpy, mypy)
#
# A version whose interpreter cannot be found fails the matrix (README promises it).
# Prints one line per version and a summary; exits 1 if any version fails.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

versions=()
mypy_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --mypy-only) mypy_only=1 ;;
    --) shift; break ;;
    *) versions+=("$1") ;;
  esac
  shift
done
[ ${#versions[@]} -gt 0 ] || versions=(3.11 3.12 3.13)

# The interpreter for version $1: pythonX.Y on PATH if it runs (a pyenv shim may exist and
# still refuse), else pyenv's install of that version, else nothing.
find_python() {
  local v=$1 candidate
  if "python$v" -c "" >/dev/null 2>&1; then command -v "python$v"; return; fi
  if command -v pyenv >/dev/null 2>&1; then
    for candidate in "$(pyenv root)"/versions/"$v"*/bin/"python$v"; do
      if [ -x "$candidate" ]; then echo "$candidate"; return; fi
    done
  fi
}

mkdir -p build/test-matrix
mypy_pin="$(grep -o '"mypy==[^"]*"' pyproject.toml | tr -d '"')"
status=0
summary=()
for v in "${versions[@]}"; do
  python="$(find_python "$v")"
  log="build/test-matrix/$v$([ $mypy_only = 1 ] && echo -mypy).log"
  if [ -z "$python" ]; then
    summary+=("$v  FAILED  no python$v found (PATH or pyenv)")
    status=1
    continue
  fi
  start=$SECONDS
  if [ $mypy_only = 1 ]; then
    # heirpy's own dependencies and mypy only: what type-checking src/heirpy needs (the
    # optional runtimes are ignore_missing_imports in pyproject.toml).
    venv="build/venvs/mypy-$v"
    {
      [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
      "$venv/bin/python" -m pip install --quiet --upgrade pip &&
        "$venv/bin/python" -m pip install --quiet -e . "$mypy_pin" &&
        "$venv/bin/python" -m mypy
    } >"$log" 2>&1
    rc=$?
    result="$(tail -n 1 "$log")"
  else
    HEIRPY_VENV="$root/build/venvs/$v" PYTHON="$python" ./run-tests.sh "$@" >"$log" 2>&1
    rc=$?
    # pytest's and lit's closing lines, and mypy's verdict
    result="$(grep -E '^(Success:|Found [0-9]+ error)|[0-9]+ passed|Passed *:|Failed *:' "$log" | tr -s ' ' | paste -sd ';' -)"
  fi
  if [ $rc -eq 0 ]; then verdict=ok; else verdict=FAILED; status=1; fi
  summary+=("$v  $verdict  $((SECONDS - start)) s  $("$python" --version 2>&1)  $result  (log: $log)")
  echo "${summary[-1]}"
done
echo
echo "test matrix ($([ $mypy_only = 1 ] && echo 'mypy only' || echo './run-tests.sh')), $(date -u +%Y-%m-%d):"
printf '  %s\n' "${summary[@]}"
exit $status
