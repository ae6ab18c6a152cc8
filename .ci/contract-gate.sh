#!/usr/bin/env bash
# Release gate on the agent-visible contract: the reference tools lint clean, and the committed contract
# has no breaking change against its previous committed version unless that tool's major version was bumped.
set -euo pipefail
# The project's own command, as `npm run build` built it (no npx cache involved).
toolgate() { node bin/toolgate.mjs "$@"; }
toolgate lint
previous=$(git log --format=%H -n 1 --skip 1 -- contracts/toolgate.contract.json 2>/dev/null || true)
if [ -n "$previous" ]; then
  git show "$previous:contracts/toolgate.contract.json" | toolgate contract diff - contracts/toolgate.contract.json
else
  echo "contract gate: no earlier committed contract to compare with"
fi
