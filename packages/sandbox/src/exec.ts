// Runs one command in a sandbox through `docker exec`, streaming output with a cap, and kills
// every process the command started, at its end and on timeout or abort (checked, not assumed).
// The caller must run one command per sandbox at a time (Sandbox does).
import { Writable, type Readable } from "node:stream";
import type Docker from "dockerode";
import { SANDBOX_ENV } from "./container-spec.ts";
import { SANDBOX_USER, type ExecOptions } from "./types.ts";

export interface RawExecOptions extends Omit<ExecOptions, "stdin" | "cwd"> {
  /** Absolute directory inside the workspace (already checked lexically). */
  cwd: string;
  stdin?: string | Buffer | Readable;
  /** RLIMIT_NPROC for the command's processes (0: leave the container default). */
  nproc: number;
  /** Resolves when the container stops (OOM, destroy): the exec stream may then never end. */
  containerGone: Promise<void>;
}

export interface RawExecResult {
  exitCode: number | null;
  stdout: Buffer;
  stderr: Buffer;
  truncated: boolean;
  timedOut: boolean;
  /** options.signal fired: the command was killed, or never started. */
  aborted: boolean;
  containerGone: boolean;
}

// Kills every process of the container except its init and idle process (session 1: started by
// the engine before any command can run, they never fork again) and the sweeper itself with its
// ancestors. A sandbox runs one command at a time (Sandbox serialises them), so "everything
// else" is exactly the current command's processes, wherever they went: a double-forked orphan
// in a new session is reparented to PID 1 and no longer anyone's descendant, and gVisor (runsc
// 20221219) has neither PR_SET_CHILD_SUBREAPER (EINVAL) nor mounts in a user namespace (a PID
// namespace per command would leave ps without a matching /proc). Pure bash (no ps, no fork
// while listing): ~5 ms under gVisor. Every round stops what it sees; only when a round sees
// nothing still running (a stopped process cannot fork, so the set is closed) is it all killed —
// a fork bomb cannot outgrow that. No sleep between rounds: a fork can fail (or, in bash, retry
// for seconds) during a bomb; one listing takes long enough.
const SWEEP = `
sweep() {
  local round d line rest p victims running
  local -A parent state keep
  for ((round = 0; round < 200; round++)); do
    parent=() state=() keep=() victims="" running=""
    for d in /proc/[0-9]*; do
      read -r line 2>/dev/null < "$d/stat" || continue
      rest=\${line##*) }
      set -- $rest
      case "$1" in Z|X) continue;; esac
      parent[\${d#/proc/}]=$2
      state[\${d#/proc/}]=$1
      [ "$4" = 1 ] && keep[\${d#/proc/}]=1
    done
    for ((p = $$; p > 0; p = \${parent[$p]:-0})); do keep[$p]=1; done
    for p in "\${!parent[@]}"; do
      [ -n "\${keep[$p]:-}" ] && continue
      victims+=" $p"
      case "\${state[$p]}" in T|t) ;; *) running+=" $p";; esac
    done
    [ -z "$victims" ] && return 0
    kill -STOP $victims 2>/dev/null
    [ -z "$running" ] || [ "$round" -ge 150 ] && kill -KILL $victims 2>/dev/null
  done
  echo "processes survive:$victims" >&2
  return 1
}
`;

// Checks the working directory, applies the process limit, runs the command, and when it ends
// kills whatever it left behind: no process outlives its command (C11).
const WRAPPER = `${SWEEP}
d=$(realpath -e -- "$1" 2>/dev/null) || { echo "working directory $1 does not exist" >&2; exit 126; }
case "$d/" in /workspace/*) ;; *) echo "working directory $1 is outside the workspace" >&2; exit 126;; esac
cd "$d" || exit 126
[ "$2" = 0 ] || ulimit -u "$2" 2>/dev/null
bash -c "$3"
rc=$?
# If something survives the sweep, die by a signal: the worker then runs the killer itself.
sweep || kill -KILL $$
exit $rc
`;

// On timeout or abort: the same sweep from a separate exec; exit 0 means verified gone.
const KILLER = `${SWEEP}
sweep
`;

// Every process started in the sandbox begins under this image helper (docker/sandbox/
// no-device-nodes.c): a seccomp filter, inherited by all descendants, that refuses mknod of
// character and block devices. gVisor ignores nodev on the tmpfs mounts, and runsc applies the
// container's own seccomp profile only to its first process, never to `docker exec`.
const NO_DEVICE_NODES = "/usr/local/bin/no-device-nodes";

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_OUTPUT = 1024 * 1024;
const KILL_GRACE_MS = 5_000;

class CappedSink extends Writable {
  readonly chunks: Buffer[] = [];
  kept = 0;
  dropped = 0;
  constructor(
    private readonly cap: number,
    private readonly onChunk: ((chunk: Buffer) => void) | undefined,
  ) {
    super();
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    const room = this.cap - this.kept;
    const part = room >= chunk.length ? chunk : chunk.subarray(0, Math.max(0, room));
    // Beyond the cap the bytes are only counted: a flood costs no memory in the worker.
    this.dropped += chunk.length - part.length;
    if (part.length > 0) {
      this.chunks.push(part);
      this.kept += part.length;
      this.onChunk?.(part);
    }
    done();
  }
}

async function runToEnd(
  docker: Docker,
  containerId: string,
  cmd: string[],
  stdin?: string | Buffer | Readable,
): Promise<{
  stream: NodeJS.ReadWriteStream;
  exec: Docker.Exec;
}> {
  const container = docker.getContainer(containerId);
  const exec = await container.exec({
    Cmd: [NO_DEVICE_NODES, ...cmd],
    User: SANDBOX_USER,
    Env: [...SANDBOX_ENV],
    AttachStdin: stdin !== undefined,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
  });
  const stream = (await exec.start({
    hijack: true,
    stdin: stdin !== undefined,
  })) as NodeJS.ReadWriteStream;
  if (stdin !== undefined) {
    if (typeof stdin === "string" || Buffer.isBuffer(stdin)) stream.end(stdin);
    else stdin.pipe(stream);
  }
  return { stream, exec };
}

/** Kills every process but the container's init and idle one; true when verified gone. */
export async function killCommandProcesses(docker: Docker, containerId: string): Promise<boolean> {
  const { stream, exec } = await runToEnd(docker, containerId, ["bash", "-c", KILLER, "ss-kill"]);
  stream.resume();
  await new Promise<void>((resolve) => {
    stream.on("end", resolve);
    stream.on("close", resolve);
    stream.on("error", () => resolve());
  });
  const info = await exec.inspect();
  return info.ExitCode === 0;
}

/**
 * The killer until it verifies nothing is left, a few times: a sweep that gives up (a fork bomb
 * outgrowing its rounds on a loaded machine) leaves most processes stopped, and a stopped
 * process cannot fork, so the next sweep closes the set at once.
 */
async function sweepUntilGone(docker: Docker, containerId: string): Promise<boolean> {
  for (let attempt = 0; attempt < SWEEP_ATTEMPTS; attempt++) {
    if (await killCommandProcesses(docker, containerId).catch(() => false)) return true;
  }
  return false;
}
const SWEEP_ATTEMPTS = 3;

/** Resolves when `signal` aborts (never without one); `dispose` drops the listener. */
function whenAborted(signal: AbortSignal | undefined): {
  fired: Promise<"aborted">;
  dispose: () => void;
} {
  if (!signal) return { fired: new Promise(() => {}), dispose: () => {} };
  let dispose = () => {};
  const fired = new Promise<"aborted">((resolve) => {
    if (signal.aborted) return resolve("aborted");
    const onAbort = () => resolve("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
    dispose = () => signal.removeEventListener("abort", onAbort);
  });
  return { fired, dispose };
}

function notStarted(): RawExecResult {
  const empty = Buffer.alloc(0);
  return {
    exitCode: null,
    stdout: empty,
    stderr: empty,
    truncated: false,
    timedOut: false,
    aborted: true,
    containerGone: false,
  };
}

export async function rawExec(
  docker: Docker,
  containerId: string,
  command: string,
  options: RawExecOptions,
): Promise<RawExecResult> {
  if (options.signal?.aborted) return notStarted();
  const cap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const out = new CappedSink(cap, options.onOutput && ((c) => options.onOutput?.("stdout", c)));
  const err = new CappedSink(cap, options.onOutput && ((c) => options.onOutput?.("stderr", c)));
  const cmd = ["bash", "-c", WRAPPER, "ss-exec", options.cwd, String(options.nproc), command];
  const { stream, exec } = await runToEnd(docker, containerId, cmd, options.stdin);
  docker.modem.demuxStream(stream, out, err);

  const ended = new Promise<"ended">((resolve) => {
    stream.on("end", () => resolve("ended"));
    stream.on("close", () => resolve("ended"));
    stream.on("error", () => resolve("ended"));
  });
  const gone = options.containerGone.then(() => "gone" as const);
  const abort = whenAborted(options.signal);
  const timeout = delay(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, "timeout" as const);

  let outcome = await Promise.race([ended, gone, timeout.fired, abort.fired]);
  timeout.cancel();
  abort.dispose();
  // A timeout and an abort end the same way: the whole process tree is killed and checked gone.
  const stoppedBy = outcome === "timeout" || outcome === "aborted" ? outcome : undefined;
  if (stoppedBy) {
    await sweepUntilGone(docker, containerId);
    const grace = delay(KILL_GRACE_MS, "timeout" as const);
    outcome = await Promise.race([ended, gone, grace.fired]);
    grace.cancel();
  }
  if (outcome !== "ended") (stream as unknown as Readable).destroy();

  let exitCode: number | null = null;
  if (outcome === "ended") {
    const info = await exec.inspect().catch(() => undefined);
    // Still running with its stream gone: no exit code (and the killer runs, below).
    exitCode = info?.Running ? null : (info?.ExitCode ?? null);
    // The wrapper sweeps before every exit it makes itself; a signal-like end means something
    // killed it (the command can: same user), so its sweep may not have run. (It cannot be
    // ptraced into skipping it: gVisor's Yama scope 1 allows tracing descendants only.)
    if (!stoppedBy && (exitCode === null || exitCode >= 128))
      await sweepUntilGone(docker, containerId);
  }
  return {
    exitCode,
    stdout: Buffer.concat(out.chunks),
    stderr: Buffer.concat(err.chunks),
    truncated: out.dropped > 0 || err.dropped > 0,
    timedOut: stoppedBy === "timeout",
    aborted: stoppedBy === "aborted",
    containerGone: outcome === "gone",
  };
}

function delay<T>(ms: number, value: T): { fired: Promise<T>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const fired = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(value), ms);
  });
  return { fired, cancel: () => clearTimeout(timer) };
}
