// The one place the container's locks are written down (ARCHITECTURE "What a run can reach",
// item 1). Everything here is fixed by the platform: nothing comes from the repository or the run.
import type { ContainerCreateOptions } from "dockerode";
import {
  LABELS,
  SANDBOX_USER,
  WORKSPACE_DIR,
  type CreateSandboxOptions,
  type SandboxLimits,
  type SandboxRuntime,
} from "./types.ts";

/** The whole environment of the container: a fixed harmless allowlist, nothing from the worker. */
export const SANDBOX_ENV = [
  "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  "HOME=/tmp",
  "LANG=C.UTF-8",
  "TERM=dumb",
] as const;

/** Processes the worker's own helper execs (timeout kill, file operations) may need beyond the
 *  user's limit, so that a fork bomb cannot lock the worker out of its own sandbox. */
export const HELPER_PROCESS_HEADROOM = 32;

/**
 * Host-side pids limit for the container. Under gVisor the host cgroup holds the sandbox kernel
 * (the Sentry), whose thread count is unrelated to guest processes: a tight host limit crashes the
 * whole sandbox (seen here with 64 and 256). The guest limit is RLIMIT_NPROC, which gVisor
 * enforces per sandbox (fork returns EAGAIN); the host limit is only a backstop.
 * Under runc the host limit is the real one (and RLIMIT_NPROC would count every container's
 * processes of the same host uid together, so it is not used there).
 */
export function hostPidsLimit(runtime: SandboxRuntime, limits: SandboxLimits): number {
  return runtime === "runsc"
    ? Math.max(4096, limits.pidsLimit * 16)
    : limits.pidsLimit + HELPER_PROCESS_HEADROOM;
}

function tmpfsOptions(bytes: number, exec: boolean, owner?: string): string {
  // size= is enforced by gVisor's tmpfs (verified by files.test.ts: ENOSPC at the limit); its
  // contents also count against the sandbox memory limit. nosuid/nodev: nothing planted there
  // can raise privileges or expose a device.
  // The workspace belongs to the sandbox user (git refuses repositories owned by someone else).
  const ownership = owner
    ? ["mode=0755", `uid=${owner.split(":")[0]}`, `gid=${owner.split(":")[1]}`]
    : ["mode=1777"];
  return ["rw", exec ? "exec" : "noexec", "nosuid", "nodev", `size=${bytes}`, ...ownership].join(
    ",",
  );
}

const S_IFMT = 0o170000;
const S_IFCHR = 0o020000;
const S_IFBLK = 0o060000;

/**
 * A seccomp profile that refuses (EPERM) creating character and block device nodes and allows
 * everything else (FIFOs and sockets by mknod included). gVisor lets the unprivileged user mknod
 * them and ignores nodev (see README "Device nodes"). runsc applies a container's profile only
 * when registered with `--oci-seccomp`, and only to the container's first process, never to a
 * `docker exec`: commands get the same rule from the image's no-device-nodes helper (exec.ts).
 * gVisor itself is the boundary, so Docker's default profile adds nothing there. Not
 * used under runc: it would replace Docker's default profile, and the kernel already refuses
 * mknod without CAP_MKNOD.
 */
export const DEVICE_NODE_SECCOMP = {
  defaultAction: "SCMP_ACT_ALLOW",
  syscalls: [S_IFCHR, S_IFBLK].flatMap((kind) =>
    (
      [
        ["mknod", 1],
        ["mknodat", 2],
      ] as const
    ).map(([name, modeArg]) => ({
      names: [name],
      action: "SCMP_ACT_ERRNO",
      errnoRet: 1,
      // OCI / Docker order for MASKED_EQ: value is the mask, valueTwo the expected result.
      args: [{ index: modeArg, value: S_IFMT, valueTwo: kind, op: "SCMP_CMP_MASKED_EQ" }],
    })),
  ),
} as const;

export interface SpecInput extends CreateSandboxOptions {
  image: string;
  runtime: SandboxRuntime;
  limits: SandboxLimits;
  name: string;
  installationId: string;
}

export function buildContainerSpec(input: SpecInput): ContainerCreateOptions {
  const { limits } = input;
  const nproc = limits.pidsLimit + HELPER_PROCESS_HEADROOM;
  return {
    name: input.name,
    Image: input.image,
    // Keeps the container alive; every command arrives through `docker exec`.
    Cmd: ["sleep", "infinity"],
    Entrypoint: [],
    // A fixed name: the engine exports HOSTNAME, which would otherwise carry the container id.
    Hostname: "sandbox",
    User: SANDBOX_USER,
    WorkingDir: WORKSPACE_DIR,
    Env: [...SANDBOX_ENV],
    Labels: {
      [LABELS.managed]: "true",
      [LABELS.installation]: input.installationId,
      [LABELS.runId]: input.runId,
      [LABELS.workspaceId]: input.workspaceId,
      [LABELS.deadline]: input.deadline.toISOString(),
    },
    NetworkDisabled: true,
    AttachStdin: false,
    AttachStdout: false,
    AttachStderr: false,
    Tty: false,
    HostConfig: {
      Runtime: input.runtime,
      NetworkMode: "none",
      ReadonlyRootfs: true,
      CapDrop: ["ALL"],
      SecurityOpt: [
        "no-new-privileges",
        ...(input.runtime === "runsc" ? [`seccomp=${JSON.stringify(DEVICE_NODE_SECCOMP)}`] : []),
      ],
      Privileged: false,
      // Reaps zombies so orphaned children of killed commands do not pile up.
      Init: true,
      Memory: limits.memoryBytes,
      MemorySwap: limits.memoryBytes,
      NanoCpus: limits.nanoCpus,
      PidsLimit: hostPidsLimit(input.runtime, limits),
      Ulimits: [
        { Name: "nofile", Soft: limits.nofile, Hard: limits.nofile },
        ...(input.runtime === "runsc" ? [{ Name: "nproc", Soft: nproc, Hard: nproc }] : []),
        { Name: "core", Soft: 0, Hard: 0 },
      ],
      Tmpfs: {
        [WORKSPACE_DIR]: tmpfsOptions(limits.workspaceBytes, true, SANDBOX_USER),
        "/tmp": tmpfsOptions(limits.tmpBytes, true),
      },
      Binds: [],
      Mounts: [],
      Devices: [],
      // No /dev/shm: it would be a third writable tmpfs outside the size limits we set.
      // (Python multiprocessing semaphores need it; they fail cleanly with EACCES.)
      IpcMode: "none",
      PidMode: "",
      AutoRemove: false,
      RestartPolicy: { Name: "no" },
      LogConfig: { Type: "none", Config: {} },
    },
  };
}
