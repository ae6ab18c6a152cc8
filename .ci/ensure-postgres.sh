#!/usr/bin/env bash
# The PostgreSQL suite must run in CI: start the local cluster when it is not answering.
set -euo pipefail
if pg_isready -h 127.0.0.1 -p 5432 -q; then exit 0; fi
pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && exit 0; sleep 1; done
echo "PostgreSQL did not start" >&2
exit 1
