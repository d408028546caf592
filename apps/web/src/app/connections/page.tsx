// Where /api/oauth/callback sends a failure it cannot tie to a connection (an unknown state, a
// signed-out browser): on to the user's first workspace's connections page, status kept —
// through sign-in first when the browser is signed out.
import { redirect } from "next/navigation";
import { requireUser } from "../../trpc/session.ts";

export default async function ConnectionsFallback({
  searchParams,
}: {
  searchParams: Promise<{ oauth?: string; reason?: string }>;
}) {
  const { oauth, reason } = await searchParams;
  const query = new URLSearchParams();
  if (oauth) query.set("oauth", oauth);
  if (reason) query.set("reason", reason);
  const suffix = query.size > 0 ? `?${query.toString()}` : "";
  // Signed out: sign-in comes back here, so the status is shown after signing in.
  const me = await requireUser(`/connections${suffix}`);
  const first = me.workspaces[0];
  if (!first) redirect("/");
  redirect(`/w/${first.id}/connections${suffix}`);
}
