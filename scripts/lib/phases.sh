# Phase timing for the test command: `phase NAME COMMAND...` runs the command and appends
# "NAME<TAB>seconds<TAB>exit code<TAB>start offset" to $PHASES_FILE (start offset: seconds since
# the test command began, so phases that ran side by side show it). Returns the command's code.
# scripts/test-summary.mjs prints the table at the end.
: "${PHASES_FILE:?set PHASES_FILE before sourcing phases.sh}"
: "${PHASES_T0:=$EPOCHREALTIME}"

phase() {
  local name=$1 start code
  shift
  start=$EPOCHREALTIME
  "$@"
  code=$?
  LC_ALL=C awk -v n="$name" -v s="$start" -v e="$EPOCHREALTIME" -v c="$code" -v t0="$PHASES_T0" \
    'BEGIN { printf "%s\t%.1f\t%d\t%.1f\n", n, e - s, c, s - t0 }' >>"$PHASES_FILE"
  return "$code"
}
