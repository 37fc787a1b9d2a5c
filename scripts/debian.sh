# Sourced by scripts/test: make sure the Debian packages the tests use are installed, in
# one apt run: chromium (the browser tests, tests/web/: Playwright drives /usr/bin/chromium,
# as `playwright install` cannot download browsers here), a colour emoji font (the pages'
# icons, in the browser tests' screenshots) and caddy (the test of the documented public
# deployment, tests/security/test_deploy.py, which starts its own Caddy). Quiet and
# idempotent. Without root or apt, the tests that need a missing one are skipped.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || missing+=(fonts-noto-color-emoji)
command -v caddy >/dev/null 2>&1 || missing+=(caddy)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing Debian's ${missing[*]} for the tests"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
        # Debian's caddy may start a service on port 80: the deployment test needs none
        if command -v systemctl >/dev/null 2>&1; then systemctl disable --now caddy >/dev/null 2>&1 || true; fi
    else
        echo "cannot install ${missing[*]} here (no root or apt): the tests that need them will be skipped" >&2
    fi
fi
