import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

export const defaultSchemaPath = resolve(repoRoot, "prisma/schema.prisma");
export const defaultMigrationsDir = resolve(repoRoot, "prisma/migrations");
