#!/usr/bin/env bash
# The message catalogs (docs/i18n/README.md):
#   scripts/i18n.sh extract   write pbem/translations/messages.pot from the code and templates
#   scripts/i18n.sh update    extract, then merge the template into every language's messages.po
#   scripts/i18n.sh compile   compile every messages.po to messages.mo (./run does this)
#   scripts/i18n.sh init LANG start a new language's catalog
set -euo pipefail
cd "$(dirname "$0")/.."
PYBABEL=${PYBABEL:-.venv/bin/pybabel}
DIR=pbem/translations
extract() {
  "$PYBABEL" -q extract -F babel.cfg -k Msg -k Msgn:1,2 -k Msgc:1c,2 -k N_ -k lazy_gettext \
    --no-location --sort-output --project pbem --copyright-holder 'pbem' \
    -o "$DIR/messages.pot" .   # from the root: babel.cfg's patterns start with pbem/ (dot folders such as .venv are skipped)
}
case "${1:-compile}" in
  extract) extract ;;
  update) extract; "$PYBABEL" -q update -i "$DIR/messages.pot" -d "$DIR" --no-fuzzy-matching --ignore-obsolete ;;
  compile)
    if compgen -G "$DIR/*/LC_MESSAGES/messages.po" >/dev/null; then
      "$PYBABEL" -q compile -d "$DIR" --statistics 2>/dev/null || "$PYBABEL" -q compile -d "$DIR"
    fi ;;
  init) extract; "$PYBABEL" -q init -i "$DIR/messages.pot" -d "$DIR" -l "$2" ;;
  *) echo "usage: $0 extract|update|compile|init LANG" >&2; exit 2 ;;
esac
