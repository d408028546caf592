// The input of a workspace procedure that takes no fields of its own (`noInput`,
// `z.object({})`): zod 4 types an empty object as an index signature of `never`, which rejects
// `{ workspaceId }` at compile time although the API accepts exactly that.
export type WorkspaceOnly = Record<string, never> & { workspaceId: string };

export function workspaceOnly(workspaceId: string): WorkspaceOnly {
  return { workspaceId } as WorkspaceOnly;
}
