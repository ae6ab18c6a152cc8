#!/usr/bin/env bash
# The shipped alert rules are checked with promtool and evaluated by a real Prometheus in tests:
# Debian's package provides both binaries.
set -euo pipefail
if command -v promtool >/dev/null 2>&1 && command -v prometheus >/dev/null 2>&1; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends prometheus >/dev/null
# The package's own service is not wanted here; the tests start their own server.
if command -v service >/dev/null 2>&1; then service prometheus stop >/dev/null 2>&1 || true; fi
