import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { TRPCReactProvider } from "../trpc/react.tsx";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "SecondShift", template: "%s · SecondShift" },
  referrer: "no-referrer",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request, never prerendered: its scripts must carry this
  // request's CSP nonce (proxy.ts), which a page built ahead of time cannot have.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <TRPCReactProvider>{children}</TRPCReactProvider>
      </body>
    </html>
  );
}
