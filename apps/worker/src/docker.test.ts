// DOCKER_HOST reaches dockerode through the settings only: the process environment does not.
import { afterEach, describe, expect, it } from "vitest";
import { createDockerClient, dockerConnection } from "./docker.ts";

const saved = process.env.DOCKER_HOST;
afterEach(() => {
  if (saved === undefined) delete process.env.DOCKER_HOST;
  else process.env.DOCKER_HOST = saved;
});

describe("DOCKER_HOST", () => {
  it("parses unix sockets and tcp host:port, defaulting to /var/run/docker.sock", () => {
    expect(dockerConnection(undefined)).toEqual({ socketPath: "/var/run/docker.sock" });
    expect(dockerConnection("unix:///run/user/1000/docker.sock")).toEqual({
      socketPath: "/run/user/1000/docker.sock",
    });
    expect(dockerConnection("tcp://127.0.0.1:2375")).toEqual({
      host: "127.0.0.1",
      port: 2375,
      protocol: "http",
    });
    expect(dockerConnection("tcp://[::1]:2380")).toMatchObject({ host: "::1", port: 2380 });
  });

  it("refuses what it cannot honour, saying what to set", () => {
    for (const bad of [
      "ssh://user@host",
      "https://host:2376",
      "tcp://host:2375/prefix",
      "nonsense",
    ]) {
      expect(() => dockerConnection(bad)).toThrow(
        /unix:\/\/\/path\/to\/docker\.sock or tcp:\/\/host:port/,
      );
    }
  });

  it("the client uses the configured engine even when the environment names another", () => {
    process.env.DOCKER_HOST = "tcp://127.0.0.9:9999";
    const fromSocket = createDockerClient("unix:///tmp/engine.sock").modem as unknown as Record<
      string,
      unknown
    >;
    expect(fromSocket).toMatchObject({ socketPath: "/tmp/engine.sock", host: undefined });
    const unset = createDockerClient(undefined).modem as unknown as Record<string, unknown>;
    expect(unset).toMatchObject({ socketPath: "/var/run/docker.sock", host: undefined });
    const tcp = createDockerClient("tcp://127.0.0.1:2375").modem as unknown as Record<
      string,
      unknown
    >;
    expect(tcp).toMatchObject({ host: "127.0.0.1", port: 2375, protocol: "http" });
  });
});
