// Repository content is untrusted (anyone who can merge controls it), so a key that tries to
// pick an endpoint, credential, connection or sandbox setting is refused by name, anywhere in
// the document, with a message that explains why — not just reported as "unknown key", which
// would invite the author to look for the right spelling.
import type { YamlNode } from "./yaml-tree.ts";

export const ACCESS_ONLY_MESSAGE =
  "repository configuration may only request access: endpoints, URLs, credentials, tokens, connections, grants and sandbox settings (image, network, mounts, environment, runtime, privileges) are chosen by the workspace owner or the server operator, never in .secondshift.yaml";

/** Compared after lowercasing and dropping everything but letters and digits. */
const forbiddenExact = new Set([
  // where calls go
  "endpoint",
  "endpoints",
  "url",
  "urls",
  "uri",
  "baseurl",
  "host",
  "hostname",
  "hosts",
  "port",
  "server",
  "proxy",
  // secrets
  "credential",
  "credentials",
  "token",
  "tokens",
  "secret",
  "secrets",
  "password",
  "apikey",
  "auth",
  "authorization",
  "header",
  "headers",
  "cookie",
  "cookies",
  "oauth",
  "clientid",
  "clientsecret",
  "privatekey",
  "bearer",
  // granting instead of requesting
  "connection",
  "connectionid",
  "connections",
  "grant",
  "grants",
  "approved",
  "approve",
  "approval",
  "allow",
  "allowed",
  "allowedtools",
  "permissions",
  "scope",
  "scopes",
  "installationid",
  "organization",
  "org",
  "repository",
  "repo",
  // the sandbox
  "sandbox",
  "container",
  "image",
  "network",
  "networks",
  "networkmode",
  "dns",
  "mounts",
  "mount",
  "volumes",
  "volume",
  "binds",
  "tmpfs",
  "env",
  "environment",
  "envfile",
  "variables",
  "runtime",
  "privileged",
  "capabilities",
  "capadd",
  "capdrop",
  "securityopt",
  "seccomp",
  "apparmor",
  "devices",
  "user",
  "uid",
  "gid",
  "memory",
  "cpu",
  "cpus",
  "pids",
  "pidslimit",
  "ulimits",
  "readonlyrootfs",
  "workdir",
  "entrypoint",
  "command",
  "shell",
]);

/** Compound names such as webhookUrl, githubToken, apiSecret. tokenBudget ends in "budget". */
const forbiddenSuffix =
  /(url|urls|uri|endpoint|token|tokens|secret|secrets|credential|credentials|password|apikey|privatekey|headers?)$/;

export function isForbiddenKey(key: string): boolean {
  const normalised = key.toLowerCase().replace(/[^a-z0-9]/g, "");
  return forbiddenExact.has(normalised) || forbiddenSuffix.test(normalised);
}

export interface ForbiddenKeyHit {
  path: Array<string | number>;
  key: string;
  offset: number;
}

/**
 * Walks the YAML tree (not the JS value, so positions are kept) and returns every forbidden key.
 * Job keys (direct children of `jobs`) are names chosen by the author, not settings, and are
 * skipped; their contents are still searched.
 */
export function findForbiddenKeys(root: YamlNode | null): ForbiddenKeyHit[] {
  const hits: ForbiddenKeyHit[] = [];
  const walk = (node: YamlNode, path: Array<string | number>): void => {
    if (node.kind === "map") {
      for (const pair of node.pairs) {
        if (pair.name === null) continue; // refused as a complex key before this walk
        const isJobKey = path.length === 1 && path[0] === "jobs";
        if (!isJobKey && isForbiddenKey(pair.name)) {
          hits.push({ path: [...path, pair.name], key: pair.name, offset: pair.key.start });
          continue;
        }
        walk(pair.value, [...path, pair.name]);
      }
    } else if (node.kind === "seq") {
      node.items.forEach((item, index) => walk(item, [...path, index]));
    }
  };
  if (root) walk(root, []);
  return hits;
}
