#!/usr/bin/env bash
# Runs the type check, lint, the format check, every workspace's test suite and the deployment
# smoke test in LANES lanes side by side (default 2, one per core): each lane takes the next item
# of one queue, longest first, so the lanes end close together; the checks (CPU) fill the time
# the suites spend waiting on containers, browsers and timers. Each item's output is printed
# whole when it ends, and its wall time
# goes to $PHASES_FILE (scripts/lib/phases.sh). Called by scripts/test-all.sh, with the services'
# TEST_* variables set.
#
# usage: scripts/test-lanes.sh [ITEM...]     (default: the checks, every suite, the smoke test)
# An item: typecheck, lint, format (each writes .test-results/NAME.status), deploy (the smoke
# test) or a workspace folder.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
: "${PHASES_FILE:=$root/.test-results/phases.tsv}"
export PHASES_FILE
# shellcheck source=lib/phases.sh
. scripts/lib/phases.sh
lanes=${LANES:-2}

# Items that must never run side by side go in one chain, taken by one lane in this order: e2e's
# fifty jobs due in one minute (50 gVisor runs) time out beside the smoke test's stacks, so e2e
# follows the smoke test in its lane (beside the other suites, which leave it room).
chains=("deploy e2e")
# Longest first (figures in docs/NOTES.md, "CI time"); a workspace missing here runs last.
order=(deploy e2e apps/web packages/sandbox lint typecheck packages/api packages/scheduler
  packages/domain packages/model-gateway packages/repo-sync apps/worker packages/runs
  packages/broker packages/accounts packages/webhooks apps/gateway format packages/netguard
  packages/connectors packages/vocabulary)

work=$(mktemp -d /tmp/secondshift-lanes.XXXXXX)
trap 'rm -rf "$work"' EXIT

has_tests() { node -e 'const s = require(`./${process.argv[1]}/package.json`).scripts ?? {};
  process.exit(s.test || s.smoke ? 0 : 1)' "$1"; }

items=("$@")
if [ "${#items[@]}" = 0 ]; then
  for w in "${order[@]}"; do
    case "$w" in typecheck | lint | format) items+=("$w") ;; *) [ -f "$w/package.json" ] && has_tests "$w" && items+=("$w") ;; esac
  done
  for w in apps/* packages/*; do
    [[ " ${order[*]} " == *" $w "* ]] || ! has_tests "$w" || items+=("$w")
  done
fi
# One queue line per lane turn: a chain's first item carries the chain's items that were asked
# for; a later link is left out where its chain's first item was asked for.
asked() { [[ " ${items[*]} " == *" $1 "* ]]; }
queue=()
for item in "${items[@]}"; do
  line=$item
  for chain in "${chains[@]}"; do
    first=${chain%% *}
    if [ "$first" = "$item" ]; then
      line=$(for link in $chain; do asked "$link" && printf '%s ' "$link"; done)
    elif [[ " $chain " == *" $item "* ]] && asked "$first"; then
      line=
    fi
  done
  [ -z "$line" ] || queue+=("${line% }")
done
printf '%s\n' "${queue[@]}" >"$work/queue"

next_item() {
  flock "$work/queue.lock" sh -c 'head -n 1 "$1"; sed -i 1d "$1"' _ "$work/queue"
}

run_item() {
  case "$1" in
    typecheck | lint) npm run "$1" --silent; check_status "$1" $? ;;
    format) npx prettier --check . --log-level warn; check_status "$1" $? ;;
    deploy) (cd deploy && npm run smoke --silent) ;;
    *) (cd "$1" && npx vitest run) ;;
  esac
}

# scripts/test-summary.mjs counts a check by its status file.
check_status() {
  echo "$2" >"$root/.test-results/$1.status"
  return "$2"
}

lane() {
  local line item log code
  while line=$(next_item) && [ -n "$line" ]; do
    for item in $line; do
      log="$work/$(echo "$item" | tr / -).log"
      phase "$item" run_item "$item" >"$log" 2>&1
      code=$?
      echo "$code" >>"$work/codes"
      # One item's whole output at a time on the console.
      flock "$work/print.lock" sh -c 'printf "\n--- %s (lane %s, exit %s)\n" "$3" "$2" "$4"; cat "$1"' \
        _ "$log" "$1" "$item" "$code"
    done
  done
}

for n in $(seq "$lanes"); do lane "$n" & done
wait
! grep -qv '^0$' "$work/codes" 2>/dev/null
