import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "../../components/auth/auth-card.tsx";
import { safeNextPath } from "../../components/auth/next-path.ts";
import { SignInForm } from "../../components/auth/sign-in-form.tsx";
import { caller } from "../../trpc/server.tsx";
import { currentUser } from "../../trpc/session.ts";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string }>;
}) {
  const next = safeNextPath((await searchParams).next);
  if ((await (await caller()).auth.setupStatus()).needsSetup) redirect("/setup");
  if (await currentUser()) redirect(next ?? "/");
  return (
    <AuthCard title="Sign in">
      {next ? (
        <p className="mb-4 text-sm text-slate-600">Sign in to continue where you were.</p>
      ) : null}
      <SignInForm next={next} />
    </AuthCard>
  );
}
