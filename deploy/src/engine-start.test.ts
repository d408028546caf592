// How host set-up starts a Docker engine that does not answer (issue #22 item 1), on a host
// without systemd whose init script fails as Debian's does in a container ("ulimit: error
// setting limit (Operation not permitted)", exit 2): dockerd is started directly, and the
// operator is told it will not come back after a reboot. The engine is a stand-in on PATH (the
// real one is shared by every suite here); `service`, `docker` and `dockerd` are the commands the
// script calls, so the test follows the script's real decisions.
import { spawnSync } from "node:child_process";
import { chmod, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

async function shims(serviceScript: string) {
  const dir = await mkdtemp(join(tmpdir(), "engine-start-"));
  const started = join(dir, "dockerd-started");
  const write = async (name: string, body: string) => {
    await writeFile(join(dir, name), `#!/bin/bash\n${body}\n`);
    await chmod(join(dir, name), 0o755);
  };
  // docker info answers once "dockerd" has run; dockerd records its arguments and stays up.
  await write("docker", `[ "$1" = info ] && [ -f ${started} ] && exit 0; exit 1`);
  await write("dockerd", `echo "$@" > ${started}; sleep 30`);
  await write("service", serviceScript);
  return { dir, started, log: join(dir, "dockerd.log") };
}

function startEngine(bin: string, log: string, dockerdArgs = "") {
  const script = `. ${root}/scripts/lib/docker-engine.sh; start_docker`;
  return spawnSync("bash", ["-c", script], {
    encoding: "utf8",
    timeout: 60_000,
    env: {
      PATH: `${bin}:/usr/bin:/bin`,
      SECONDSHIFT_DOCKERD_LOG: log,
      SECONDSHIFT_DOCKERD_ARGS: dockerdArgs,
    },
  });
}

describe("starting the Docker engine without systemd", () => {
  it("starts dockerd itself when the init script fails, and says a reboot will not restart it", async () => {
    const { dir, started, log } = await shims(
      `echo "/etc/init.d/docker: 62: ulimit: error setting limit (Operation not permitted)" >&2; exit 2`,
    );
    const run = startEngine(dir, log);
    expect(run.status).toBe(0);
    expect(await readFile(started, "utf8")).toBe("\n"); // plain dockerd, the host's own daemon.json
    expect(run.stdout).toContain("the docker init script could not start the engine");
    expect(run.stdout).toContain(`starting dockerd directly (log: ${log})`);
    expect(run.stdout).toContain("It will NOT come back after a reboot");
    expect(run.stdout).toContain("bash scripts/up.sh");
  });

  it("uses the init script when it works, and starts nothing else", async () => {
    const { dir, started, log } = await shims(`touch ${join("$(dirname $0)", "dockerd-started")}`);
    const run = startEngine(dir, log);
    expect(run.status).toBe(0);
    expect(await readFile(started, "utf8")).toBe("");
    expect(run.stdout).not.toContain("starting dockerd directly");
  });

  it("starts an engine apart from the host's service with SECONDSHIFT_DOCKERD_ARGS, never through the service", async () => {
    const { dir, started, log } = await shims(`echo called > $(dirname $0)/service-called; exit 0`);
    const args = "--data-root /srv/engine/data -H unix:///srv/engine/docker.sock";
    const run = startEngine(dir, log, args);
    expect(run.status).toBe(0);
    expect((await readFile(started, "utf8")).trim()).toBe(args);
    await expect(readFile(join(dir, "service-called"), "utf8")).rejects.toThrow();
    expect(run.stdout).toContain(`starting dockerd directly with ${args}`);
    expect(run.stdout).toContain(`'nohup dockerd ${args} >>${log} 2>&1 &'`);
  });
});
