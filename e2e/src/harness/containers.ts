// What the Docker engine knows about a run's sandbox: the containers that carry its run label
// now, and whether one was ever created (the engine's event log, so a container created and
// removed between two polls is still seen).
import Docker from "dockerode";

const docker = new Docker();
const RUN_LABEL = "secondshift.run-id";

/** Containers (running or not) labelled with this run id. */
export async function runContainers(runId: string): Promise<Docker.ContainerInfo[]> {
  return docker.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${runId}`] } });
}

/** Container "create" events for this run id between `since` and now, from the engine's event log. */
export async function containersCreatedFor(runId: string, since: Date): Promise<number> {
  const stream = await docker.getEvents({
    since: Math.floor(since.getTime() / 1000) - 1,
    until: Math.ceil(Date.now() / 1000) + 1,
    filters: { type: ["container"], event: ["create"], label: [`${RUN_LABEL}=${runId}`] },
  });
  let text = "";
  for await (const chunk of stream as AsyncIterable<Buffer>) text += chunk.toString();
  return text.split("\n").filter((line) => line.trim() !== "").length;
}

/** The engine's whole record of each of the run's containers (config, env, mounts, labels). */
export async function inspectRunContainers(runId: string): Promise<unknown[]> {
  const containers = await runContainers(runId);
  return Promise.all(containers.map((c) => docker.getContainer(c.Id).inspect()));
}
