// First-run setup. Once an account exists, this page only points to sign-in.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "../../components/auth/auth-card.tsx";
import { SetupForm } from "../../components/auth/setup-form.tsx";
import { caller } from "../../trpc/server.tsx";

export const metadata: Metadata = { title: "Set up" };

export default async function SetupPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string | string[] }>;
}) {
  const status = await (await caller()).auth.setupStatus();
  if (!status.needsSetup) redirect("/sign-in");
  const { token } = await searchParams;
  return (
    <AuthCard title="Set up SecondShift">
      <SetupForm
        tokenRequired={status.tokenRequired}
        token={typeof token === "string" ? token : ""}
      />
    </AuthCard>
  );
}
