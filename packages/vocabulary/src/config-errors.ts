// A problem in a repository's `.secondshift.yaml` (or a prompt file it names), located for the
// person who has to fix it. packages/config's parser and repo-sync write these; the repository
// row keeps them as JSON; the API returns them through `readConfigErrors`, so every screen reads
// one checked shape.
import * as z from "zod/mini";

export const repoConfigErrorSchema = z.object({
  file: z.string(),
  /** 1-based. */
  line: z.number(),
  column: z.number(),
  /** Where in the document, e.g. `jobs.nightly.tools.mcp[0].label` ("" for the whole file). */
  path: z.string(),
  message: z.string(),
});

export type RepoConfigError = z.infer<typeof repoConfigErrorSchema>;

/**
 * The stored errors, read defensively: the column is JSON, and a row written by an older
 * version may hold something else. An item that is not a whole error is left out.
 */
export function readConfigErrors(value: unknown): RepoConfigError[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    const parsed = repoConfigErrorSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}
