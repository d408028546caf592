// An owner-typed service URL (a model provider's base URL, a webhook target): a full http(s)
// URL with no credentials in it. Whether the host may be reached is netguard's decision at
// call time, not this parser's.
import { AppError } from "@secondshift/errors";

export function parseServiceUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError(
      "BAD_REQUEST",
      `${what} must be a full URL such as https://api.example.com.`,
      {
        reason: "URL_INVALID",
      },
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new AppError(
      "BAD_REQUEST",
      `${what} must use https (http only for allowed internal hosts).`,
      {
        reason: "URL_INVALID",
      },
    );
  }
  if (url.username || url.password) {
    throw new AppError("BAD_REQUEST", `${what} must not contain a user name or password.`, {
      reason: "URL_HAS_CREDENTIALS",
    });
  }
  return url;
}
