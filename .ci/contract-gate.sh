#!/usr/bin/env bash
# Release gate on the agent-visible contract: the reference tools lint clean, the committed contract is
# what the code exports (without the commit, which would change it with every commit), and it has no
# breaking change against its previous committed version unless that tool's major version was bumped.
set -euo pipefail
# The project's own command, as `npm run build` built it (no npx cache involved).
toolgate() { node bin/toolgate.mjs "$@"; }
toolgate lint
if ! toolgate contract export --no-commit | cmp -s - contracts/toolgate.contract.json; then
  echo "contract gate: contracts/toolgate.contract.json is not what the code exports; run npm run contract:update" >&2
  exit 1
fi
previous=$(git log --format=%H -n 1 --skip 1 -- contracts/toolgate.contract.json 2>/dev/null || true)
if [ -n "$previous" ]; then
  git show "$previous:contracts/toolgate.contract.json" | toolgate contract diff - contracts/toolgate.contract.json
else
  echo "contract gate: no earlier committed contract to compare with"
fi
