#!/usr/bin/env bash
# `pnpm test` after the linter: every package's build, then two lanes side by side.
# The web app's browser suites are the longest task (about 30 minutes on two cores), so they
# start as soon as the builds are done rather than wherever turbo's scheduler happens to put
# them; the other lane runs every type check and unit suite (the web app's own included).
# Both lanes run to the end; the script fails if either does.
set -uo pipefail
cd "$(dirname "$0")/.."

pnpm exec turbo run build --concurrency=2 || exit $?

pnpm exec turbo run e2e --only --filter=@seed/web &
e2e=$!
pnpm exec turbo run typecheck test --only --concurrency=1 &
rest=$!

status=0
wait "$e2e" || { status=$?; echo "test: the browser suites failed (exit $status)" >&2; }
wait "$rest" || { rest_status=$?; status=$rest_status; echo "test: type checks or unit tests failed (exit $rest_status)" >&2; }
exit "$status"
