// The one place where our AppError codes become tRPC errors, and where every error shape sent
// to a client is formatted: an internal error that is not an AppError says only "retry" (its
// message may hold details we did not write for users — P04), and no stack is ever sent.
import { isAppError, trpcCodes, type AppError } from "@secondshift/errors";
import { TRPCError, type TRPCDefaultErrorShape, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { ZodError, z } from "zod";

export function toTRPCError(error: AppError): TRPCError {
  return new TRPCError({
    code: trpcCodes[error.code] as TRPC_ERROR_CODE_KEY,
    message: error.message,
    cause: error,
  });
}

/** If a procedure failed with an AppError, the TRPCError it maps to. */
export function mappedError(error: TRPCError): TRPCError | null {
  return isAppError(error.cause) ? toTRPCError(error.cause) : null;
}

const GENERIC_MESSAGE = "The request failed on the server. Retry in a moment.";

export function formatError({ shape, error }: { shape: TRPCDefaultErrorShape; error: TRPCError }) {
  const app = isAppError(error.cause) ? error.cause : null;
  const hidden = error.code === "INTERNAL_SERVER_ERROR" && !app;
  return {
    message: hidden ? GENERIC_MESSAGE : shape.message,
    code: shape.code,
    data: {
      code: shape.data.code,
      httpStatus: shape.data.httpStatus,
      path: shape.data.path,
      reason: app?.reason ?? null,
      fieldErrors: error.cause instanceof ZodError ? z.flattenError(error.cause).fieldErrors : null,
    },
  };
}

/**
 * What the log gets for an unexpected error: its name, code and first message line, and the
 * stack frames — not the rest of the message, where a library may have rendered the call's
 * arguments (a password hash in a failed insert, say). P04.
 */
export function describeInternalError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const firstLine = error.message.split("\n").find((line) => line.trim() !== "") ?? "";
  const frames = (error.stack ?? "").split("\n").filter((line) => line.startsWith("    at "));
  return {
    name: error.name,
    code: (error as { code?: unknown }).code,
    message: firstLine.slice(0, 200),
    stack: frames.slice(0, 15).join("\n"),
  };
}
