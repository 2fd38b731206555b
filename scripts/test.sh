#!/usr/bin/env bash
# Runs the whole suite. Browser tests need Debian's chromium and the mail
# tests Debian's spamassassin: install what is missing when we are root
# (never download a browser any other way).
set -uo pipefail
cd "$(dirname "$0")/.."
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v spamassassin >/dev/null || missing+=(spamassassin)
if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null) \
    || echo "warning: could not install ${missing[*]}; the tests that need them skip (fail under CI=true)"
fi
.venv/bin/python -m pytest -n 2 "$@"
