# Sourced by scripts/test: make sure axe-core (the accessibility engine the browser tests
# inject into every page, tests/web/accessibility.py) is in .venv/npm, from the npm
# registry, installing Debian's npm first if it is missing. Quiet and idempotent. Without
# npm (and no root or apt to install it), the accessibility checks are skipped.
AXE_VERSION="^4.10"
if [ ! -f "$VENV/npm/node_modules/axe-core/axe.min.js" ]; then
    if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing Debian's npm for the accessibility checks"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
    fi
    if command -v npm >/dev/null 2>&1; then
        echo "installing axe-core@$AXE_VERSION for the accessibility checks"
        npm install --prefix "$VENV/npm" --no-audit --no-fund --silent "axe-core@$AXE_VERSION" >/dev/null \
            || echo "could not install axe-core: the accessibility checks will be skipped" >&2
    else
        echo "npm is not installed and cannot be installed here: the accessibility checks will be skipped" >&2
    fi
fi
