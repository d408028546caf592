// Batched calls over HTTP: capped, and never carrying an auth call (sign-in, setup and
// invitations are unauthenticated and may each cost an argon2id hash: one request, one hash).
import { mintToken } from "@secondshift/crypto";
import { dbTest } from "@secondshift/db/testing/vitest";
import { MAX_BATCH_CALLS } from "@secondshift/vocabulary";
import { describe, expect } from "vitest";
import { startTestApi } from "./testing/index.ts";

const test = dbTest.extend("api", { scope: "file" }, async ({ db }, { onCleanup }) => {
  const api = await startTestApi(db);
  onCleanup(() => api.close());
  return api;
});

/** A tRPC batch POST of `paths`, each with the same JSON input, as the batch link sends it. */
function postBatch(origin: string, paths: string[], input: unknown) {
  const body = Object.fromEntries(paths.map((_, i) => [String(i), { json: input }]));
  return fetch(`${origin}/api/trpc/${paths.join(",")}?batch=1`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify(body),
  });
}

describe("batched calls", () => {
  test("a batch of 100 invitation accepts with well-formed unknown tokens is refused whole, before any procedure runs", async ({
    api,
  }) => {
    const input = { token: mintToken("invitation").token, name: "X", password: "long enough pw" };
    const accepts = Array<string>(100).fill("auth.invitations.accept");
    const res = await postBatch(api.origin, accepts, input);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("BAD_REQUEST");
    expect(body.error.message).toContain(String(MAX_BATCH_CALLS));
  });

  test("an auth call in a batch of two is refused with words; alone (a batch of one) it runs", async ({
    api,
  }) => {
    const signIn = { email: "nobody@example.test", password: "wrong password" };
    const mixed = await postBatch(api.origin, ["auth.signIn", "auth.signIn"], signIn);
    expect(mixed.status).toBe(400);
    expect(await mixed.text()).toContain("one at a time");
    const alone = await postBatch(api.origin, ["auth.signIn"], signIn);
    // The procedure ran: a wrong password, not a refused batch.
    expect(alone.status).toBe(401);
  });

  test(`a batch of more than ${MAX_BATCH_CALLS} calls is refused; one of ${MAX_BATCH_CALLS} reaches the procedures`, async ({
    api,
  }) => {
    const getBatch = (count: number) => {
      const input = Object.fromEntries(
        Array.from({ length: count }, (_, i) => [String(i), { json: { workspaceId: "w" } }]),
      );
      const paths = Array(count).fill("workspace.get").join(",");
      return fetch(
        `${api.origin}/api/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`,
      );
    };
    const over = await getBatch(MAX_BATCH_CALLS + 1);
    expect(over.status).toBe(400);
    expect(await over.text()).toContain(`at most ${MAX_BATCH_CALLS} calls`);
    const within = await getBatch(MAX_BATCH_CALLS);
    // Signed out: every call answers UNAUTHORIZED, which shows the batch was taken.
    expect(within.status).toBe(401);
    expect(await within.text()).toContain("UNAUTHORIZED");
  });
});
