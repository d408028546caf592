// Next's proxy (formerly middleware): a fresh CSP nonce for every page request. The policy goes
// on the request (Next reads the nonce from it and puts it on the scripts it renders) and on
// the response (the browser enforces it). See security-headers.ts.
import { NextResponse, type NextRequest } from "next/server";
import { NONCE_HEADER, pageContentSecurityPolicy } from "./security-headers.ts";

export function proxy(request: NextRequest) {
  const nonce = btoa(crypto.randomUUID());
  const policy = pageContentSecurityPolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(NONCE_HEADER, nonce);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  // Built assets are files, not documents: they need no nonce.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
