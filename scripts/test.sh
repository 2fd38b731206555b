#!/usr/bin/env bash
# Runs the whole suite. Browser tests need Debian's chromium: install it when
# we are root and it is missing (never download a browser any other way).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
    || echo "warning: could not install Debian's chromium; browser tests will skip"
fi
.venv/bin/python -m pytest -n 2 "$@"
