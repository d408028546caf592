# Sourced by up.sh and build-images.sh: steps printed with the time since the start, and a
# summary of every step's duration at the end (step_summary).
# Wall-clock seconds, so a script started by another (build-images.sh by up.sh) counts from the
# same start.
_now() { date +%s; }
PROGRESS_START=${PROGRESS_START:-$(_now)}
export PROGRESS_START
_steps=()
_step_started=

_elapsed() { # seconds → m:ss
  printf '%d:%02d' $(($1 / 60)) $(($1 % 60))
}

_close_step() {
  [ -n "$_step_started" ] || return 0
  _steps+=("$(printf '%-44s %6s' "$_step_name" "$(_elapsed $(($(_now) - _step_started)))")")
}

step() {
  _close_step
  _step_name=$*
  _step_started=$(_now)
  printf '\n== [%s] %s\n' "$(_elapsed $(($(_now) - PROGRESS_START)))" "$*"
}

# A line of progress inside a step, with the time since the start.
note() {
  printf '  [%s] %s\n' "$(_elapsed $(($(_now) - PROGRESS_START)))" "$*"
}

step_summary() {
  _close_step
  _step_started=
  printf '\n== done in %s\n' "$(_elapsed $(($(_now) - PROGRESS_START)))"
  printf '  %s\n' "${_steps[@]}"
}

# docker build without the legacy builder's deprecation notice (Debian's docker.io has no
# buildx; the classic builder is what the air-gapped path uses on purpose). Other stderr stays.
quiet_build() {
  docker build "$@" 2> >(grep -v -e '^DEPRECATED: The legacy builder' \
    -e 'BuildKit is currently disabled' -e 'Install the buildx component' \
    -e 'docs.docker.com/go/buildx' -e '^ *environment-variable\.$' -e '^ *$' >&2)
}
