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
