#!/usr/bin/env bash
# Installs Debian's Chromium for the widget browser test (playwright-core drives /usr/bin/chromium;
# never `npx playwright install`, which downloads a browser). Idempotent: does nothing when present.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo unknown version)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || true
$SUDO apt-get install -y -qq chromium
/usr/bin/chromium --version
