#!/usr/bin/env bash
# Browser test of the MCP App view (internal/mcpapp): Debian's chromium,
# headless, driven by puppeteer-core; a host page built on ext-apps'
# AppBridge; the gateway built from this checkout in demo mode (its recorded
# Dagu). Versions are pinned in package-lock.json. Screenshots go to
# $BROWSER_ARTIFACTS (default tests/browser/artifacts/, gitignored). Needs Go,
# Node 20 or later, npm and chromium at $CHROMIUM (default /usr/bin/chromium;
# .ci/run installs Debian's package). It never skips: anything missing fails
# the run.
set -euo pipefail
cd "$(dirname "$0")"

suite=browser
# shellcheck source=../nodesuite.sh
source ../nodesuite.sh
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || fail "no chromium at $chromium (apt-get install chromium, or set CHROMIUM)"
export CHROMIUM="$chromium"
echo "tests/browser: $("$chromium" --version 2>/dev/null || echo "$chromium")"
install_and_build

export BROWSER_ARTIFACTS="${BROWSER_ARTIFACTS:-$PWD/artifacts}"
rm -rf "$BROWSER_ARTIFACTS"

node --test --test-timeout=600000
echo "tests/browser: screenshots in $BROWSER_ARTIFACTS"
