// Compiles the schema once with ajv in strict mode (unknown keywords in our own schema are a
// bug, caught at load) and turns ajv errors into sentences that say what is allowed.
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import type { PathSegments } from "./positions.ts";
import { pointerToPath, shorten } from "./positions.ts";
import { repoConfigSchema } from "./schema.ts";

const ajv = new Ajv2020({
  strict: true,
  // `on.commentCommand` is `true` or a map; a type list reads better in errors than anyOf.
  allowUnionTypes: true,
  allErrors: true,
  verbose: true,
  coerceTypes: false,
  useDefaults: false,
});
export const validateRepoConfigSchema = ajv.compile(repoConfigSchema);

export interface SchemaProblem {
  path: PathSegments;
  atKey: boolean;
  message: string;
}

function describe(error: ErrorObject): string {
  const schema = error.parentSchema as { description?: string } | undefined;
  return schema?.description ? ` — ${schema.description}` : "";
}

function allowedKeys(error: ErrorObject): string {
  const properties = (error.parentSchema as { properties?: Record<string, unknown> } | undefined)
    ?.properties;
  return properties ? Object.keys(properties).join(", ") : "none";
}

export function schemaProblems(data: unknown): SchemaProblem[] {
  if (validateRepoConfigSchema(data)) return [];
  const problems: SchemaProblem[] = [];
  for (const error of validateRepoConfigSchema.errors ?? []) {
    const path = pointerToPath(error.instancePath, data);
    const params = error.params as Record<string, unknown>;
    switch (error.keyword) {
      case "additionalProperties":
        problems.push({
          path: [...path, String(params.additionalProperty)],
          atKey: true,
          message: `unknown key "${shorten(String(params.additionalProperty))}"; allowed keys here: ${allowedKeys(error)}`,
        });
        break;
      case "required":
        problems.push({
          path,
          atKey: false,
          message: `missing required key "${String(params.missingProperty)}"${describe(error)}`,
        });
        break;
      case "propertyNames":
        break; // reported by the inner "pattern" error, which carries the offending name
      case "pattern":
        if (params.propertyName !== undefined || error.propertyName !== undefined) {
          const name = String(error.propertyName ?? params.propertyName);
          problems.push({
            path: [...path, name],
            atKey: true,
            message: `"${shorten(name)}" is not a valid job key${describe(error)}`,
          });
        } else {
          problems.push({
            path,
            atKey: false,
            message: `has a value that is not allowed${describe(error)}`,
          });
        }
        break;
      case "enum":
        problems.push({
          path,
          atKey: false,
          message: `${JSON.stringify(shorten(String(error.data)))} is not allowed; allowed values: ${(params.allowedValues as unknown[]).map(String).join(", ")}${describe(error)}`,
        });
        break;
      case "const":
        problems.push({
          path,
          atKey: false,
          message: `must be ${JSON.stringify(params.allowedValue)}${describe(error)}`,
        });
        break;
      default:
        problems.push({
          path,
          atKey: false,
          message: `${error.message ?? "is not valid"}${describe(error)}`,
        });
    }
  }
  return problems;
}
