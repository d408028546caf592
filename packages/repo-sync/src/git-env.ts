// The environment every git command gets. Configuration is passed only through
// GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n: nothing is written to
// .git/config, to a global config or into the URL, and nothing lands in argv (which
// other processes can read). The credential travels as an Authorization header scoped to
// the remote's URL; redirects are off so git cannot carry it to another host.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { rootCertificates } from "node:tls";
import type { CheckedRemote } from "./remote.ts";
import { DEFAULT_GIT_PATH } from "./git.ts";

export interface GitCredential {
  username: string;
  /** A token or password. Lives only in the child's environment for one command. */
  password: string;
}

export interface GitEnvInput {
  /** An empty directory: no ~/.gitconfig, no credential store, no .netrc of the worker. */
  home: string;
  remote?: CheckedRemote;
  credential?: GitCredential;
  path?: string;
  /** A PEM file git verifies HTTPS servers with instead of its own bundle (caBundleFile). */
  caBundle?: string;
}

export function basicAuthorization(credential: GitCredential): string {
  return `Basic ${Buffer.from(`${credential.username}:${credential.password}`, "utf8").toString("base64")}`;
}

export function gitEnv(input: GitEnvInput): Record<string, string> {
  const config: Array<[string, string]> = [
    // Only the transports we mean to use: no ssh, git://, ext:: (runs commands) or fd::.
    ["protocol.allow", "never"],
    ["protocol.https.allow", "always"],
    // No credential helpers: a helper could store the token on disk or offer another one.
    ["credential.helper", ""],
    ["http.followRedirects", "false"],
    // Repository content is untrusted: never run hooks, never recurse into submodules.
    ["core.hooksPath", "/dev/null"],
    ["submodule.recurse", "false"],
    ["fetch.recurseSubmodules", "false"],
    ["core.fsmonitor", "false"],
    // No automatic repacking after a fetch: it would be counted as the fetch's growth
    // (fetch-watchdog.ts) and spends the worker's time on folders that are thrown away.
    ["gc.auto", "0"],
    ["maintenance.auto", "false"],
    ["advice.detachedHead", "false"],
    ["init.defaultBranch", "main"],
  ];
  const remote = input.remote;
  if (remote?.protocol === "http") config.push(["protocol.http.allow", "always"]);
  if (remote?.protocol === "file") config.push(["protocol.file.allow", "always"]);
  if (remote?.pin !== undefined) config.push(["http.curloptResolve", remote.pin]);
  if (input.caBundle !== undefined) config.push(["http.sslCAInfo", input.caBundle]);
  if (remote !== undefined && input.credential !== undefined && remote.protocol !== "file") {
    // Scoped to the remote's URL: git sends it to this URL prefix and nowhere else.
    config.push([
      `http.${remote.url.href}.extraHeader`,
      `Authorization: ${basicAuthorization(input.credential)}`,
    ]);
  }
  const env: Record<string, string> = {
    PATH: input.path ?? DEFAULT_GIT_PATH,
    HOME: input.home,
    XDG_CONFIG_HOME: input.home,
    LANG: "C",
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    // Empty askpass programs: git asks nobody for a password, it fails instead.
    GIT_ASKPASS: "",
    SSH_ASKPASS: "",
    GIT_CONFIG_COUNT: String(config.length),
  };
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/**
 * The operator's CA certificates (the outbound policy's trustedCaCerts) beside the public roots
 * Node ships, as one file in the command's home: git's sslCAInfo replaces its own bundle, so the
 * file holds both. Undefined when there is no CA of the operator's.
 */
export async function caBundleFile(
  home: string,
  trustedCaCerts: readonly string[] | undefined,
): Promise<string | undefined> {
  if (!trustedCaCerts || trustedCaCerts.length === 0) return undefined;
  const file = join(home, "ca-bundle.pem");
  await writeFile(file, [...rootCertificates, ...trustedCaCerts].join("\n"), { mode: 0o600 });
  return file;
}
