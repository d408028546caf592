import { describe, expect, it } from "vitest";
import { AppError, isAppError } from "./app-error.ts";

describe("AppError", () => {
  it("maps codes to HTTP statuses and serialises without the cause", () => {
    const error = new AppError("UNAUTHORIZED", "The run token is not valid.", {
      reason: "RUN_TOKEN_INVALID",
      cause: new Error("secret detail"),
    });
    expect(error.httpStatus).toBe(401);
    expect(isAppError(error)).toBe(true);
    expect(JSON.stringify(error)).toBe(
      '{"error":{"code":"UNAUTHORIZED","reason":"RUN_TOKEN_INVALID","message":"The run token is not valid."}}',
    );
  });
});
