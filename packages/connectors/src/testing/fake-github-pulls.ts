// A loopback fake of GitHub's Git Data and pull-request REST endpoints for one repository, on
// the fake GitHub App's server and in the real wire format: `POST git/trees` (with `base_tree`,
// which must be a tree SHA as GitHub documents, inline `content`, `sha: null` deletions),
// `POST git/commits` and `GET git/commits/{sha}`, `GET git/ref/{ref}`, `POST git/refs`,
// `PATCH git/refs/{ref}` (fast-forward only unless `force`), `GET compare/{base}...{head}`
// (what the head has that the merge base has not: `status`, `ahead_by`, `behind_by`, the
// commits paged, `files[]` with `filename` and `status`, at most 300), `GET/POST pulls` and
// `POST issues/{n}/labels` (a pull request's labels; the issues fake routes only `issues` and
// `issues/{n}/comments`, so the two share one server). Objects are content-addressed like git's:
// the same entries make the same tree SHA; a commit's SHA includes the time it was made, so a
// retried commit has another. It accepts only live tokens the fake app minted, for this
// repository, with `contents` (git data, compare) or `pull_requests` (pulls, labels) — write to
// change, read to look. It records every call (method, path, body, token) and hands it to
// `onCall` before acting on it (a test kills the caller there); `latencyMs` delays every
// answer; `failNext` answers the next calls with a status; `dropAfterCreate` makes the object
// (all kinds, or one) and then cuts the connection — GitHub did it, the caller never heard.
import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { FakeGithubApp } from "./fake-github-app.ts";
import { json, type SeenRequest } from "./fake-rest.ts";

export interface FakePullsCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  token: string;
}

export interface FakeTreeEntry {
  mode: string;
  content: string;
}

export interface FakeGitCommit {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
  /** What the caller sent as `author` / `committer` (undefined: GitHub used the App). */
  sentAuthor: unknown;
  sentCommitter: unknown;
}

export interface FakePull {
  number: number;
  title: string;
  body: string | null;
  head: string;
  base: string;
  headSha: string;
  draft: boolean;
  state: "open" | "closed";
  labels: string[];
  login: string;
}

export type FakePullsCreate = "tree" | "commit" | "ref" | "pull" | "labels";

export interface FakeGithubPulls {
  owner: string;
  repo: string;
  calls: FakePullsCall[];
  /** Calls that change something (POST, PATCH), in order. */
  creates(): FakePullsCall[];
  commits: Map<string, FakeGitCommit>;
  /** Full ref name ("refs/heads/main") → commit SHA. */
  refs: Map<string, string>;
  pulls: FakePull[];
  /**
   * The base commit on `main` with these files (path → content, mode 100644); its SHA. `sha`:
   * the commit a real repository has (a run's commit), so the fake holds the same one.
   */
  seedBase(files: Record<string, string>, branch?: string, sha?: string): string;
  /** A commit on `parent` changing these files, made by someone else (not the App). */
  seedCommit(parent: string, files: Record<string, string>, message?: string): string;
  /** Someone pushes a commit changing these files onto `branch` (default main); its SHA. */
  advanceBranch(files: Record<string, string>, branch?: string, message?: string): string;
  /** A commit's resulting files: path → { mode, content }. */
  treeFiles(commitSha: string): Record<string, FakeTreeEntry>;
  failNext(status: number, options?: { times?: number; method?: "GET" | "POST" | "PATCH" }): void;
  /** True for every create, or the one kind of object to drop the answer after. */
  dropAfterCreate: boolean | FakePullsCreate;
  latencyMs: number;
  /** Called with each call as it is recorded, after the latency and before it is acted on. */
  onCall?: (call: FakePullsCall) => void;
}

const ROUTE =
  /^\/repos\/([^/]+)\/([^/]+)\/(git\/trees|git\/commits(?:\/([0-9a-f]+))?|git\/refs?\/(.+)|git\/refs|pulls|issues\/(\d+)\/labels|compare\/(.+?)\.\.\.(.+))$/;

/** GitHub's compare lists at most this many files. */
const COMPARE_MAX_FILES = 300;

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");
const blobSha = (content: string) => sha1(`blob ${Buffer.byteLength(content)}\0${content}`);

type Tree = Map<string, FakeTreeEntry>;

export function startFakeGithubPulls(
  app: FakeGithubApp,
  options: { owner?: string; repo?: string; appSlug?: string; latencyMs?: number } = {},
): FakeGithubPulls {
  const owner = options.owner ?? "acme";
  const repo = options.repo ?? "app";
  const botLogin = `${options.appSlug ?? "secondshift"}[bot]`;
  const trees = new Map<string, Tree>();
  const failures: Array<{ status: number; method?: string }> = [];
  let clock = 0;
  const fake: FakeGithubPulls = {
    owner,
    repo,
    calls: [],
    creates: () => fake.calls.filter((c) => c.method !== "GET"),
    commits: new Map(),
    refs: new Map(),
    pulls: [],
    seedBase: (files, branch = "main", fixed) => {
      const octocat = { name: "Octocat", email: "octocat@github.test" };
      const sha = makeCommit(
        addTree(entries(files)),
        [],
        "Initial commit",
        octocat,
        undefined,
        fixed,
      );
      fake.refs.set(`refs/heads/${branch}`, sha);
      return sha;
    },
    seedCommit: (parent, files, message = "A person's change") => {
      const tree = new Map(treeOf(parent));
      for (const [path, entry] of entries(files)) tree.set(path, entry);
      return makeCommit(addTree(tree), [parent], message, {
        name: "Octocat",
        email: "octocat@github.test",
      });
    },
    advanceBranch: (files, branch = "main", message) => {
      const full = `refs/heads/${branch}`;
      const head = fake.refs.get(full);
      if (head === undefined) throw new Error(`No branch ${branch} in the fake`);
      const sha = fake.seedCommit(head, files, message);
      fake.refs.set(full, sha);
      return sha;
    },
    treeFiles: (commitSha) => Object.fromEntries(treeOf(commitSha)),
    failNext: (status, { times = 1, method } = {}) => {
      for (let i = 0; i < times; i++) failures.push(method ? { status, method } : { status });
    },
    dropAfterCreate: false,
    latencyMs: options.latencyMs ?? 0,
  };
  const apiRepo = `${app.apiBase}/repos/${owner}/${repo}`;
  const htmlBase = `https://github.test/${owner}/${repo}`;

  function entries(files: Record<string, string>): Tree {
    return new Map(Object.entries(files).map(([p, content]) => [p, { mode: "100644", content }]));
  }

  /** Content-addressed: the sorted (mode, path, blob SHA) entries make the SHA. */
  function addTree(tree: Tree): string {
    const sorted = [...tree.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const sha = sha1(sorted.map(([p, e]) => `${e.mode} ${p}\0${blobSha(e.content)}\n`).join(""));
    trees.set(sha, new Map(sorted));
    return sha;
  }

  function treeOf(commitSha: string): Tree {
    const commit = fake.commits.get(commitSha);
    const tree = commit && trees.get(commit.tree);
    if (!tree) throw new Error(`No commit ${commitSha} in the fake`);
    return tree;
  }

  function makeCommit(
    tree: string,
    parents: string[],
    message: string,
    author?: unknown,
    committer?: unknown,
    fixed?: string,
  ) {
    // GitHub stamps the time: the same tree and parents make another commit each time.
    const stamp = `${Date.now()}.${clock++}`;
    const sha =
      fixed ??
      sha1(`tree ${tree}\n${parents.map((p) => `parent ${p}\n`).join("")}${stamp}\n\n${message}`);
    fake.commits.set(sha, {
      sha,
      tree,
      parents,
      message,
      sentAuthor: author,
      sentCommitter: committer,
    });
    return sha;
  }

  const user = (login: string) => ({
    login,
    id: login === botLogin ? 41898282 : 583231,
    type: login === botLogin ? "Bot" : "User",
  });
  const identity = (sent: unknown) => ({
    ...(typeof sent === "object" && sent !== null
      ? (sent as Record<string, unknown>)
      : { name: botLogin, email: `41898282+${botLogin}@users.noreply.github.com` }),
    date: new Date().toISOString(),
  });
  const commitJson = (c: FakeGitCommit) => ({
    sha: c.sha,
    node_id: `C_${c.sha.slice(0, 12)}`,
    url: `${apiRepo}/git/commits/${c.sha}`,
    html_url: `${htmlBase}/commit/${c.sha}`,
    author: identity(c.sentAuthor),
    committer: identity(c.sentCommitter),
    tree: { sha: c.tree, url: `${apiRepo}/git/trees/${c.tree}` },
    message: c.message,
    parents: c.parents.map((p) => ({
      sha: p,
      url: `${apiRepo}/git/commits/${p}`,
      html_url: `${htmlBase}/commit/${p}`,
    })),
    // GitHub signs a commit it writes as the App (no author or committer given).
    verification: {
      verified: c.sentAuthor === undefined && c.sentCommitter === undefined,
      reason: c.sentAuthor === undefined && c.sentCommitter === undefined ? "valid" : "unsigned",
      signature: null,
      payload: null,
    },
  });
  const refJson = (ref: string, sha: string) => ({
    ref,
    node_id: `REF_${sha1(ref).slice(0, 12)}`,
    url: `${apiRepo}/git/${ref}`,
    object: { sha, type: "commit", url: `${apiRepo}/git/commits/${sha}` },
  });
  const pullJson = (p: FakePull) => ({
    id: 7000 + p.number,
    node_id: `PR_${p.number}`,
    number: p.number,
    state: p.state,
    title: p.title,
    body: p.body,
    draft: p.draft,
    user: user(p.login),
    labels: p.labels.map((name, k) => ({ id: k + 1, name, color: "ededed" })),
    html_url: `${htmlBase}/pull/${p.number}`,
    url: `${apiRepo}/pulls/${p.number}`,
    head: { label: `${owner}:${p.head}`, ref: p.head, sha: p.headSha, user: user(owner) },
    base: {
      label: `${owner}:${p.base}`,
      ref: p.base,
      sha: fake.refs.get(`refs/heads/${p.base}`) ?? null,
      user: user(owner),
    },
  });

  async function handle(req: SeenRequest, res: ServerResponse, match: RegExpExecArray) {
    if (fake.latencyMs > 0) await new Promise((r) => setTimeout(r, fake.latencyMs));
    const token = (req.headers.authorization ?? "").replace(/^(Bearer|token) /i, "");
    const body = req.body === "" ? null : (JSON.parse(req.body) as unknown);
    const call = { method: req.method, path: req.path, query: req.query, body, token };
    fake.calls.push(call);
    fake.onCall?.(call);
    const resource = match[3]!;
    const contents = resource.startsWith("git/") || resource.startsWith("compare/");
    const refusal = refuse(token, req.method, match, contents);
    if (refusal) return json(res, refusal.status, { message: refusal.message });
    const failure = failures.findIndex((f) => f.method === undefined || f.method === req.method);
    if (failure >= 0) {
      const [{ status }] = failures.splice(failure, 1) as [{ status: number }];
      return json(res, status, failureBody(status));
    }
    const input = (body ?? {}) as Record<string, unknown>;
    const post = req.method === "POST";
    if (post && resource === "git/trees") return postTree(res, input);
    if (post && resource === "git/commits") return postCommit(res, input);
    if (req.method === "GET" && match[4] !== undefined) return getCommit(res, match[4]);
    if (post && resource === "git/refs") return postRef(res, input);
    if (match[5] !== undefined) return ref(req, res, resource, decodeURIComponent(match[5]), input);
    if (resource === "pulls") return post ? postPull(res, input) : listPulls(req, res);
    if (post && match[6] !== undefined) return postLabels(res, Number(match[6]), input);
    if (req.method === "GET" && match[7] !== undefined)
      return compare(req, res, decodeURIComponent(match[7]), decodeURIComponent(match[8]!));
    return json(res, 404, { message: "Not Found" });
  }

  function refuse(token: string, method: string, match: RegExpExecArray, git: boolean) {
    const grant = app.grantOf(token);
    if (grant === null) return { status: 401, message: "Bad credentials" };
    if (match[1] !== owner || match[2] !== repo || !grant.repositories.includes(repo))
      return { status: 404, message: "Not Found" };
    const level = grant.permissions[git ? "contents" : "pull_requests"];
    if (level !== "write" && (method !== "GET" || level !== "read"))
      return { status: 403, message: "Resource not accessible by integration" };
    return null;
  }

  function postTree(res: ServerResponse, input: Record<string, unknown>) {
    const base =
      typeof input.base_tree === "string"
        ? trees.get(input.base_tree)
        : new Map<string, FakeTreeEntry>();
    if (!base) return unprocessable(res, "base_tree is not a valid tree oid");
    if (!Array.isArray(input.tree)) return unprocessable(res, "Invalid tree info");
    const tree: Tree = new Map(base);
    for (const item of input.tree as Array<Record<string, unknown>>) {
      const { path, mode, type, content, sha } = item;
      if (typeof path !== "string" || path.startsWith("/") || path.split("/").includes(".."))
        return unprocessable(res, "tree.path contains a malformed path component");
      if (type !== "blob" || !["100644", "100755", "120000"].includes(String(mode)))
        return unprocessable(res, "Must supply a valid tree.mode and tree.type");
      if (sha === null && content === undefined) tree.delete(path);
      else if (typeof content === "string" && sha === undefined)
        tree.set(path, { mode: String(mode), content });
      else return unprocessable(res, "Must supply either tree.sha or tree.content");
    }
    const sha = addTree(tree);
    return created(res, "tree", {
      sha,
      url: `${apiRepo}/git/trees/${sha}`,
      tree: [...tree.entries()].map(([path, e]) => ({
        path,
        mode: e.mode,
        type: "blob",
        sha: blobSha(e.content),
        size: Buffer.byteLength(e.content),
        url: `${apiRepo}/git/blobs/${blobSha(e.content)}`,
      })),
      truncated: false,
    });
  }

  function postCommit(res: ServerResponse, input: Record<string, unknown>) {
    const { message, tree, parents, author, committer } = input;
    if (typeof message !== "string") return unprocessable(res, "Invalid request.");
    if (typeof tree !== "string" || !trees.has(tree))
      return unprocessable(res, "Tree SHA does not exist");
    const parentList = Array.isArray(parents) ? parents.map(String) : [];
    if (parentList.some((p) => !fake.commits.has(p)))
      return unprocessable(res, "Parent SHA does not exist or is not a commit object");
    const sha = makeCommit(tree, parentList, message, author, committer);
    return created(res, "commit", commitJson(fake.commits.get(sha)!));
  }

  function getCommit(res: ServerResponse, sha: string) {
    const commit = fake.commits.get(sha);
    return commit ? json(res, 200, commitJson(commit)) : json(res, 404, { message: "Not Found" });
  }

  function postRef(res: ServerResponse, input: Record<string, unknown>) {
    const { ref, sha } = input;
    if (typeof ref !== "string" || !/^refs\/.+\/.+/.test(ref))
      return unprocessable(
        res,
        "Reference name must start with 'refs/' and have at least two slashes.",
      );
    if (typeof sha !== "string" || !fake.commits.has(sha))
      return unprocessable(res, "Object does not exist");
    if (fake.refs.has(ref)) return unprocessable(res, "Reference already exists");
    fake.refs.set(ref, sha);
    return created(res, "ref", refJson(ref, sha));
  }

  /** `GET git/ref/{ref}` (one ref) and `PATCH git/refs/{ref}` (move it). */
  function ref(
    req: SeenRequest,
    res: ServerResponse,
    resource: string,
    name: string,
    input: Record<string, unknown>,
  ) {
    const full = `refs/${name}`;
    const current = fake.refs.get(full);
    if (req.method === "GET" && resource.startsWith("git/ref/"))
      return current === undefined
        ? json(res, 404, { message: "Not Found" })
        : json(res, 200, refJson(full, current));
    if (req.method !== "PATCH" || !resource.startsWith("git/refs/") || current === undefined)
      return json(res, 404, { message: "Not Found" });
    const sha = String(input.sha);
    if (!fake.commits.has(sha)) return unprocessable(res, "Object does not exist");
    if (input.force !== true && !isAncestor(current, sha))
      return unprocessable(res, "Update is not a fast forward");
    fake.refs.set(full, sha);
    return json(res, 200, refJson(full, sha));
  }

  function isAncestor(ancestor: string, sha: string): boolean {
    if (ancestor === sha) return true;
    return (fake.commits.get(sha)?.parents ?? []).some((p) => isAncestor(ancestor, p));
  }

  /** A commit SHA, or a branch name. */
  function resolve(name: string): string | undefined {
    if (fake.commits.has(name)) return name;
    return fake.refs.get(`refs/heads/${name}`);
  }

  /** Every commit reachable from `sha`, itself first, nearest first (breadth first). */
  function ancestry(sha: string): string[] {
    const seen = new Set<string>([sha]);
    const order = [sha];
    for (let i = 0; i < order.length; i++)
      for (const parent of fake.commits.get(order[i]!)?.parents ?? [])
        if (!seen.has(parent)) {
          seen.add(parent);
          order.push(parent);
        }
    return order;
  }

  const lines = (content: string | undefined) =>
    content === undefined || content === "" ? 0 : content.replace(/\n$/, "").split("\n").length;

  /** `GET compare/{base}...{head}`: from the merge base of the two to the head. */
  function compare(req: SeenRequest, res: ServerResponse, baseName: string, headName: string) {
    const base = resolve(baseName);
    const head = resolve(headName);
    if (base === undefined || head === undefined) return json(res, 404, { message: "Not Found" });
    const fromBase = ancestry(base);
    const fromHead = ancestry(head);
    const baseSet = new Set(fromBase);
    const headSet = new Set(fromHead);
    const mergeBase = fromHead.find((sha) => baseSet.has(sha));
    if (mergeBase === undefined)
      return json(res, 404, { message: `No common ancestor between ${baseName} and ${headName}.` });
    const ahead = fromHead.filter((sha) => !baseSet.has(sha)).reverse();
    const behind = fromBase.filter((sha) => !headSet.has(sha));
    const status =
      ahead.length === 0 && behind.length === 0
        ? "identical"
        : behind.length === 0
          ? "ahead"
          : ahead.length === 0
            ? "behind"
            : "diverged";
    const before = treeOf(mergeBase);
    const after = treeOf(head);
    const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
    const files = paths.flatMap((filename) => {
      const old = before.get(filename);
      const now = after.get(filename);
      if (old && now && old.content === now.content && old.mode === now.mode) return [];
      const fileStatus = old === undefined ? "added" : now === undefined ? "removed" : "modified";
      const additions = fileStatus === "removed" ? 0 : lines(now?.content);
      const deletions = fileStatus === "added" ? 0 : lines(old?.content);
      const blob = blobSha((now ?? old)!.content);
      return [
        {
          sha: blob,
          filename,
          status: fileStatus,
          additions,
          deletions,
          changes: additions + deletions,
          blob_url: `${htmlBase}/blob/${head}/${filename}`,
          raw_url: `${htmlBase}/raw/${head}/${filename}`,
          contents_url: `${apiRepo}/contents/${filename}?ref=${head}`,
          patch: `@@ -1,${deletions} +1,${additions} @@`,
        },
      ];
    });
    const perPage = Math.min(Number(req.query.get("per_page") ?? 250) || 250, 250);
    const page = Math.max(Number(req.query.get("page") ?? 1) || 1, 1);
    const restCommit = (sha: string) => {
      const c = commitJson(fake.commits.get(sha)!);
      return {
        sha,
        node_id: c.node_id,
        url: `${apiRepo}/commits/${sha}`,
        html_url: c.html_url,
        commit: {
          author: c.author,
          committer: c.committer,
          message: c.message,
          tree: c.tree,
          url: c.url,
          verification: c.verification,
        },
        parents: c.parents,
      };
    };
    return json(res, 200, {
      url: `${apiRepo}/compare/${baseName}...${headName}`,
      html_url: `${htmlBase}/compare/${baseName}...${headName}`,
      permalink_url: `${htmlBase}/compare/${owner}:${base.slice(0, 7)}...${owner}:${head.slice(0, 7)}`,
      diff_url: `${htmlBase}/compare/${baseName}...${headName}.diff`,
      patch_url: `${htmlBase}/compare/${baseName}...${headName}.patch`,
      base_commit: restCommit(base),
      merge_base_commit: restCommit(mergeBase),
      status,
      ahead_by: ahead.length,
      behind_by: behind.length,
      total_commits: ahead.length,
      commits: ahead.slice((page - 1) * perPage, page * perPage).map(restCommit),
      // As GitHub: the files come whole with the first page only.
      ...(page === 1 ? { files: files.slice(0, COMPARE_MAX_FILES) } : {}),
    });
  }

  function postPull(res: ServerResponse, input: Record<string, unknown>) {
    const { title, body, head, base, draft } = input;
    if (typeof title !== "string" || title === "" || typeof head !== "string")
      return unprocessable(res, "Validation Failed");
    const branch = head.startsWith(`${owner}:`) ? head.slice(owner.length + 1) : head;
    const headSha = fake.refs.get(`refs/heads/${branch}`);
    const baseSha = typeof base === "string" ? fake.refs.get(`refs/heads/${base}`) : undefined;
    if (headSha === undefined || baseSha === undefined || branch === base)
      return unprocessable(res, "Validation Failed", [
        {
          resource: "PullRequest",
          field: headSha === undefined ? "head" : "base",
          code: "invalid",
        },
      ]);
    if (fake.pulls.some((p) => p.head === branch && p.base === base && p.state === "open"))
      return unprocessable(res, "Validation Failed", [
        {
          resource: "PullRequest",
          code: "custom",
          message: `A pull request already exists for ${owner}:${branch}.`,
        },
      ]);
    if (isAncestor(headSha, baseSha))
      return unprocessable(res, "Validation Failed", [
        {
          resource: "PullRequest",
          code: "custom",
          message: `No commits between ${String(base)} and ${branch}`,
        },
      ]);
    const pull: FakePull = {
      number: fake.pulls.length + 1,
      title,
      body: typeof body === "string" ? body : null,
      head: branch,
      base: base as string,
      headSha,
      draft: draft === true,
      state: "open",
      labels: [],
      login: botLogin,
    };
    fake.pulls.push(pull);
    return created(res, "pull", pullJson(pull));
  }

  function listPulls(req: SeenRequest, res: ServerResponse) {
    const head = req.query.get("head");
    const base = req.query.get("base");
    const state = req.query.get("state") ?? "open";
    const listed = fake.pulls
      .filter((p) => head === null || `${owner}:${p.head}` === head)
      .filter((p) => base === null || p.base === base)
      .filter((p) => state === "all" || p.state === state)
      .sort((a, b) => b.number - a.number);
    const perPage = Math.min(Number(req.query.get("per_page") ?? 30) || 30, 100);
    const page = Math.max(Number(req.query.get("page") ?? 1) || 1, 1);
    return json(res, 200, listed.slice((page - 1) * perPage, page * perPage).map(pullJson));
  }

  function postLabels(res: ServerResponse, number: number, input: Record<string, unknown>) {
    const pull = fake.pulls.find((p) => p.number === number);
    if (!pull) return json(res, 404, { message: "Not Found" });
    if (!Array.isArray(input.labels)) return unprocessable(res, "Invalid request.");
    for (const name of input.labels.map(String))
      if (!pull.labels.includes(name)) pull.labels.push(name);
    return created(res, "labels", pullJson(pull).labels, 200);
  }

  function created(res: ServerResponse, kind: FakePullsCreate, value: unknown, status = 201) {
    if (fake.dropAfterCreate === true || fake.dropAfterCreate === kind)
      return void res.socket?.destroy();
    json(res, status, value);
  }

  for (const method of ["GET", "POST", "PATCH"]) app.rest.routePattern(method, ROUTE, handle);
  return fake;
}

function unprocessable(res: ServerResponse, message: string, errors?: unknown[]) {
  json(res, 422, {
    message,
    ...(errors ? { errors } : {}),
    documentation_url: "https://docs.github.com/rest",
  });
}

function failureBody(status: number) {
  const documentation_url = "https://docs.github.com/rest";
  if (status === 422) return { message: "Validation Failed", documentation_url };
  if (status === 429 || status === 403)
    return { message: "API rate limit exceeded", documentation_url };
  return { message: status >= 500 ? "Server Error" : "Refused", documentation_url };
}
