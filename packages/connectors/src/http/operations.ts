// Owner-defined HTTP operations, read from Connection.settings.operations. The owner is
// trusted to define them; the model only fills parameters, which can become single path
// segments, query values or JSON body fields — never a new path, host or header.
import { connectorError } from "../shared/errors.ts";
import type { JsonSchema, ToolDescriptor } from "../types.ts";

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface HttpOperation {
  name: string;
  description?: string;
  method: HttpMethod;
  /** "/v1/items/{id}": literal segments and whole-segment placeholders only. */
  pathTemplate: string;
  parameters: JsonSchema;
  /** Parameter names sent as query string values. */
  query: string[];
  /** Parameter names sent as fields of a JSON body (POST/PUT/PATCH). */
  body: string[];
  mayChangeData: boolean;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const PLACEHOLDER = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

function invalid(detail: string): never {
  throw connectorError(
    "INVALID_SETTINGS",
    `The HTTP connection's operations are not valid: ${detail}. Ask the workspace owner to fix them.`,
  );
}

function names(value: unknown, what: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string" && NAME.test(v)))
    invalid(`${what} must be a list of parameter names`);
  return value as string[];
}

export function pathParams(template: string): string[] {
  return template.split("/").flatMap((seg) => {
    const m = PLACEHOLDER.exec(seg);
    return m?.[1] ? [m[1]] : [];
  });
}

function parseOperation(raw: unknown, index: number): HttpOperation {
  if (typeof raw !== "object" || raw === null) invalid(`operation ${index} is not an object`);
  const op = raw as Record<string, unknown>;
  const name = op.name;
  if (typeof name !== "string" || !NAME.test(name))
    invalid(`operation ${index} needs a name of letters, digits, _ or -`);
  const method = typeof op.method === "string" ? op.method.toUpperCase() : "";
  if (!(HTTP_METHODS as readonly string[]).includes(method))
    invalid(`${name}: method must be one of ${HTTP_METHODS.join(", ")}`);
  const template = op.pathTemplate;
  if (
    typeof template !== "string" ||
    !template.startsWith("/") ||
    /[?#\\]/.test(template) ||
    template
      .split("/")
      .some((s) => s === ".." || s === "." || (s.includes("{") && !PLACEHOLDER.test(s)))
  ) {
    invalid(
      `${name}: pathTemplate must be a path like /v1/items/{id} (placeholders are whole segments)`,
    );
  }
  const parameters = op.parameters ?? {
    type: "object",
    properties: {},
    additionalProperties: false,
  };
  if (
    typeof parameters !== "object" ||
    parameters === null ||
    (parameters as JsonSchema).type !== "object"
  )
    invalid(`${name}: parameters must be a JSON Schema of type object`);
  return {
    name,
    ...(typeof op.description === "string" ? { description: op.description } : {}),
    method: method as HttpMethod,
    pathTemplate: template,
    parameters: parameters as JsonSchema,
    query: names(op.query, `${name}: query`),
    body: names(op.body, `${name}: body`),
    // Unless the owner says otherwise, anything but a GET is assumed to change data.
    mayChangeData: typeof op.mayChangeData === "boolean" ? op.mayChangeData : method !== "GET",
  };
}

export function parseOperations(settings: Record<string, unknown>): HttpOperation[] {
  const raw = settings.operations;
  if (!Array.isArray(raw)) invalid("settings.operations must be a list");
  const ops = raw.map(parseOperation);
  const seen = new Set<string>();
  for (const op of ops) {
    if (seen.has(op.name)) invalid(`the name ${op.name} is used twice`);
    seen.add(op.name);
  }
  return ops;
}

export function operationDescriptor(op: HttpOperation): ToolDescriptor {
  return {
    name: op.name,
    ...(op.description ? { description: op.description } : {}),
    inputSchema: structuredClone(op.parameters),
    mayChangeData: op.mayChangeData,
  };
}
