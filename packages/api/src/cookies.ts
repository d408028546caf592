// The session cookie. In production (an https public URL) it is `__Host-ss_session`: Secure,
// Path=/, no Domain, so no sibling host or plain-http page can set or overwrite it. Browsers
// refuse `__Host-` cookies that are not Secure, so over plain http (development only) the same
// cookie is named `ss_session` instead.
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseCookie, stringifySetCookie } from "cookie";

export interface CookieSettings {
  name: string;
  secure: boolean;
  /** Browser-side lifetime; the server enforces idle and absolute expiry on its own. */
  maxAgeSeconds: number;
}

export function cookieSettings(publicUrl: string, absoluteMs: number): CookieSettings {
  const secure = new URL(publicUrl).protocol === "https:";
  return {
    name: secure ? "__Host-ss_session" : "ss_session",
    secure,
    maxAgeSeconds: Math.floor(absoluteMs / 1000),
  };
}

export function readSessionCookie(
  req: IncomingMessage,
  settings: CookieSettings,
): string | undefined {
  return sessionCookieFromHeader(req.headers.cookie, settings);
}

/** The session token in a `Cookie` header value (server-side rendering has only headers). */
export function sessionCookieFromHeader(
  header: string | null | undefined,
  settings: CookieSettings,
): string | undefined {
  return header ? parseCookie(header)[settings.name] : undefined;
}

export interface SessionCookieWriter {
  set(token: string): void;
  clear(): void;
}

export function sessionCookieWriter(
  res: ServerResponse,
  settings: CookieSettings,
): SessionCookieWriter {
  const write = (value: string, maxAge: number) =>
    res.appendHeader(
      "set-cookie",
      stringifySetCookie({
        name: settings.name,
        value,
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        secure: settings.secure,
        maxAge,
      }),
    );
  return {
    set: (token) => write(token, settings.maxAgeSeconds),
    clear: () => write("", 0),
  };
}
