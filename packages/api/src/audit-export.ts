// GET /api/audit/export?workspaceId=…&format=ndjson|csv&<filters>: the audit log as a file,
// streamed. Authenticated by the session cookie exactly like a procedure (same cookie, same
// resolveSession, same membership check: a workspace the caller is not a member of is 404) and
// authorized by the domain use case exportAuditEvents, which pages rows from the database by
// cursor; each page is written as it arrives, waiting for the socket to drain, so memory stays
// flat however long the log is.
import type { IncomingMessage, ServerResponse } from "node:http";
import { exportAuditEvents, type AuditEventView, type ActorContext } from "@secondshift/domain";
import { membershipRole, resolveSession } from "@secondshift/accounts";
import { errorCodes, isAppError } from "@secondshift/errors";
import type { Logger } from "@secondshift/logging";
import { stringify } from "csv-stringify/sync";
import { z } from "zod";
import type { ApiDeps } from "./context.ts";
import { readSessionCookie } from "./cookies.ts";
import { describeInternalError } from "./errors.ts";

export const AUDIT_EXPORT_PATH = "/api/audit/export";

const optionalText = (max: number) => z.string().min(1).max(max).optional();
const optionalDate = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .optional();

const exportQuery = z.object({
  workspaceId: z.uuid(),
  format: z.enum(["ndjson", "csv"]).default("ndjson"),
  actorId: optionalText(64),
  action: optionalText(64),
  connectionId: z.uuid().optional(),
  toolName: optionalText(200),
  targetType: optionalText(50),
  targetId: optionalText(64),
  since: optionalDate,
  until: optionalDate,
});

export const AUDIT_CSV_COLUMNS = [
  "id",
  "createdAt",
  "actorType",
  "actorId",
  "action",
  "targetType",
  "targetId",
  // Untrusted text (a job name from a repository): csvCell defuses a formula in it too.
  "targetLabel",
  "toolName",
  "connectionId",
  "outcome",
  "durationMs",
] as const;

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell a spreadsheet would run as a formula (= + - @, or a leading tab / CR) gets a leading
 * quote, so opening the export in Excel or Sheets cannot run anything (CSV injection).
 */
export function csvCell(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = value instanceof Date ? value.toISOString() : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function csvRows(rows: AuditEventView[], header: boolean): string {
  const cells = rows.map((row) => AUDIT_CSV_COLUMNS.map((column) => csvCell(row[column])));
  return stringify(header ? [[...AUDIT_CSV_COLUMNS], ...cells] : cells, { quoted_string: true });
}

function ndjsonRows(rows: AuditEventView[]): string {
  return rows.map((row) => `${JSON.stringify(row)}\n`).join("");
}

function refuse(res: ServerResponse, status: number, code: string, message: string) {
  res
    .writeHead(status, { "content-type": "application/json", "cache-control": "no-store" })
    .end(JSON.stringify({ error: { code, message } }));
}

async function authorize(
  deps: ApiDeps,
  req: IncomingMessage,
  workspaceId: string,
): Promise<ActorContext | { status: number; code: string; message: string }> {
  const session = await resolveSession(deps.accounts, readSessionCookie(req, deps.cookie));
  if (!session) return { status: 401, code: "UNAUTHORIZED", message: "Sign in to continue." };
  const role = await membershipRole(deps.accounts, session.userId, workspaceId);
  if (!role) return { status: 404, code: "NOT_FOUND", message: "Workspace was not found." };
  return {
    db: deps.accounts.db,
    actor: { userId: session.userId },
    workspaceId,
    now: deps.accounts.now,
  };
}

/** Writes a chunk; when the socket is full, waits for it to drain — or to close (client gone). */
async function write(res: ServerResponse, chunk: string): Promise<void> {
  if (res.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

async function stream(res: ServerResponse, pages: AsyncIterable<AuditEventView[]>, csv: boolean) {
  let first = true;
  for await (const rows of pages) {
    const chunk = csv ? csvRows(rows, first) : ndjsonRows(rows);
    first = false;
    await write(res, chunk);
    // The client went away: stop reading pages (leaving the loop ends the generator).
    if (res.destroyed) return;
  }
  if (csv && first) res.write(csvRows([], true));
  res.end();
}

export async function handleAuditExport(
  deps: ApiDeps,
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.method !== "GET") return refuse(res, 405, "METHOD_NOT_ALLOWED", "Use GET.");
  // A cross-site page could start a download (and an audit row) with the user's cookie; our
  // own pages and a typed-in address are fine.
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") {
    return refuse(res, 403, "FORBIDDEN", "Start the export from the SecondShift web app.");
  }
  const url = new URL(req.url ?? "", "http://local");
  const parsed = exportQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    return refuse(res, 400, "BAD_REQUEST", "Check the export's workspace, format and filters.");
  }
  const { workspaceId, format, ...filters } = parsed.data;
  try {
    const ctx = await authorize(deps, req, workspaceId);
    if ("status" in ctx) return refuse(res, ctx.status, ctx.code, ctx.message);
    const pages = await exportAuditEvents(ctx, filters);
    const csv = format === "csv";
    const day = new Date().toISOString().slice(0, 10);
    res.writeHead(200, {
      "content-type": csv ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="audit-${day}.${csv ? "csv" : "ndjson"}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    });
    await stream(res, pages, csv);
  } catch (error) {
    if (res.headersSent) {
      // Mid-stream: the file is cut short; the client sees a broken download, not a bad file.
      logger.error({ error: describeInternalError(error) }, "audit export failed mid-stream");
      res.destroy();
      return;
    }
    if (isAppError(error)) return refuse(res, errorCodes[error.code], error.code, error.message);
    logger.error({ error: describeInternalError(error) }, "audit export failed");
    refuse(res, 500, "INTERNAL", "The export failed on the server. Retry in a moment.");
  }
}
