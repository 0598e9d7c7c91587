#!/usr/bin/env bash
# The test suite again on the oldest and newest Pythons the project supports (pyproject's
# classifiers), each in its own virtual environment. The main check runs on the machine's
# `python3` only; version differences (recursion limits, the docs tools' releases) have broken
# the suite on other versions before. An interpreter the machine lacks is skipped, and said so.
# Usage: scripts/check_pythons.sh [VERSION ...]   (default: 3.10 3.13)
set -euo pipefail
cd "$(dirname "$0")/.."

find_python() {
    local version=$1 candidate prefix
    for candidate in "python$version" "$HOME/.pyenv/versions/$version"*/bin/"python$version"; do
        if "$candidate" -c 'import sys' >/dev/null 2>&1; then
            printf '%s\n' "$candidate"
            return 0
        fi
    done
    if command -v pyenv >/dev/null 2>&1 && prefix=$(pyenv prefix "$version" 2>/dev/null); then
        candidate="$prefix/bin/python$version"
        if "$candidate" -c 'import sys' >/dev/null 2>&1; then
            printf '%s\n' "$candidate"
            return 0
        fi
    fi
    return 1
}

versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(3.10 3.13)
for version in "${versions[@]}"; do
    printf '\n==> pytest on Python %s\n' "$version"
    if ! python=$(find_python "$version"); then
        echo "skipped: no Python $version interpreter on this machine"
        continue
    fi
    venv=".venv-ci-$version"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet -e ".[test]"
    "$venv/bin/python" -m pytest tests -q -p no:cacheprovider
done
