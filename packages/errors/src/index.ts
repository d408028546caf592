export { AppError, errorCodes, isAppError, trpcCodes } from "./app-error.ts";
export type { AppErrorOptions, ErrorCode } from "./app-error.ts";
