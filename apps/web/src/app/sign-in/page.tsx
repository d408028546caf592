import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "../../components/auth/auth-card.tsx";
import { SignInForm } from "../../components/auth/sign-in-form.tsx";
import { caller } from "../../trpc/server.tsx";
import { currentUser } from "../../trpc/session.ts";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage() {
  if ((await (await caller()).auth.setupStatus()).needsSetup) redirect("/setup");
  if (await currentUser()) redirect("/");
  return (
    <AuthCard title="Sign in">
      <SignInForm />
    </AuthCard>
  );
}
