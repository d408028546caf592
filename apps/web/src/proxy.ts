// Next's proxy (formerly middleware): a fresh CSP nonce for every page request. The policy goes
// on the request (Next reads the nonce from it and puts it on the scripts it renders) and on
// the response (the browser enforces it). See security-headers.ts. It also records the page
// asked for, so a signed-out visitor comes back to it after signing in (always overwritten:
// a client cannot set it).
import { NextResponse, type NextRequest } from "next/server";
import { NONCE_HEADER, PAGE_PATH_HEADER, pageContentSecurityPolicy } from "./security-headers.ts";

export function proxy(request: NextRequest) {
  const nonce = btoa(crypto.randomUUID());
  const policy = pageContentSecurityPolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(NONCE_HEADER, nonce);
  requestHeaders.set("content-security-policy", policy);
  requestHeaders.set(PAGE_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  // Built assets are files, not documents: they need no nonce.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
