# Sourced by scripts/test: make sure Debian's chromium is installed for the browser tests
# (tests/web/, Playwright drives /usr/bin/chromium; `playwright install` cannot download
# browsers here). Quiet and idempotent. Without root or apt, the browser tests are skipped.
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing chromium (Debian's chromium) for the browser tests"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "chromium is not installed and cannot be installed here: the browser tests will be skipped" >&2
    fi
fi
