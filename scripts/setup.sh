# Sourced by scripts/run and scripts/test: make .venv with korapsyon and its dev tools (the
# dev extra includes the harness extra: the tests start servers and play over the wire).
# Idempotent: reinstalls only when pyproject.toml changed since the last install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PYTHON="${PYTHON:-python3}"

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "korapsyon needs Python 3.11 or newer (tried: $PYTHON)" >&2
    exit 1
fi
if [ ! -x "$VENV/bin/python" ]; then
    if ! "$PYTHON" -m venv "$VENV" 2>/dev/null; then
        echo "python3 -m venv failed; installing Debian's python3-venv" >&2
        apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
        rm -rf "$VENV"
        "$PYTHON" -m venv "$VENV"
    fi
fi
STAMP="$VENV/.installed"
WANT="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$WANT" ]; then
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    "$VENV/bin/python" -m pip install --quiet -e "$ROOT[dev]"
    echo "$WANT" > "$STAMP"
fi
