#!/usr/bin/env bash
# The evaluation report is opened in a real browser in tests: Debian's Chromium.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
