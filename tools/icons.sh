#!/usr/bin/env bash
# Draws the web UI's app icons (internal/webui/static/icon-192.png, icon-512.png)
# from the favicon's design with headless Chromium: the felt table and its spade
# on a dark square, which a phone rounds or masks as it likes.
#   tools/icons.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for s in 192 512; do
  cat > "$tmp/icon$s.html" <<HTML
<!doctype html><html><body style="margin:0;background:#0d3b24"><svg xmlns="http://www.w3.org/2000/svg" width="$s" height="$s" viewBox="0 0 32 32"><rect width="32" height="32" fill="#0d3b24"/><ellipse cx="16" cy="16" rx="14" ry="10.5" fill="#17683f" stroke="#7a4a21" stroke-width="1.6"/><text x="16" y="21.5" font-size="15" text-anchor="middle" fill="#fff" font-family="DejaVu Sans, sans-serif">&#9824;</text></svg></body></html>
HTML
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/profile$s" --window-size=$s,$s \
    --screenshot="$PWD/internal/webui/static/icon-$s.png" "file://$tmp/icon$s.html" >/dev/null 2>&1
done
ls -l internal/webui/static/icon-*.png
