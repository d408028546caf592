// Field schemas shared by the workspace areas: ids, paging, the Prisma enums.
import {
  ActorType,
  ConnectionAuth,
  ConnectionKind,
  JobStatus,
  ProviderKind,
  Role,
  RunStatus,
  RunTrigger,
} from "@secondshift/db";
import { z } from "zod";

/** Row ids are UUID v7; anything else cannot name a row. */
export const id = z.uuid();
/**
 * No input beyond the workspace. Loose on purpose: tRPC intersects a procedure's inputs, and
 * `z.object({})` types as Record<string, never>, which made `{ workspaceId }` impossible to pass
 * from a typed client (the web app). Extra keys are ignored either way.
 */
export const noInput = z.looseObject({});
export const pageInput = {
  cursor: id.optional(),
  limit: z.number().int().min(1).max(100).optional(),
};
export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

export const role = z.enum(Role);
export const jobStatus = z.enum(JobStatus);
export const runStatus = z.enum(RunStatus);
export const runTrigger = z.enum(RunTrigger);
export const connectionKind = z.enum(ConnectionKind);
export const connectionAuth = z.enum(ConnectionAuth);
export const providerKind = z.enum(ProviderKind);
export const actorType = z.enum(ActorType);
export const nothing = z.void();
