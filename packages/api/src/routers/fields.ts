// Field schemas shared by the workspace areas: ids, paging, the Prisma enums (roles and run
// statuses as the vocabulary spells them, the words the web app uses too).
import {
  ActorType,
  ConnectionAuth,
  ConnectionKind,
  JobStatus,
  ProviderKind,
  RunTrigger,
} from "@secondshift/db";
import { ROLES, RUN_STATUSES } from "@secondshift/vocabulary";
import { z } from "zod";

/** Row ids are UUID v7; anything else cannot name a row. */
export const id = z.uuid();
export const pageInput = {
  cursor: id.optional(),
  limit: z.number().int().min(1).max(100).optional(),
};
export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

export const role = z.enum(ROLES);
export const jobStatus = z.enum(JobStatus);
export const runStatus = z.enum(RUN_STATUSES);
export const runTrigger = z.enum(RunTrigger);
export const connectionKind = z.enum(ConnectionKind);
export const connectionAuth = z.enum(ConnectionAuth);
export const providerKind = z.enum(ProviderKind);
export const actorType = z.enum(ActorType);
export const nothing = z.void();
