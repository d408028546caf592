// `/runs/<id>`: the link webhook reports carried before they named the workspace. Through
// sign-in when signed out, then on to the run's page in its workspace; a run the user may not
// see is the ordinary 404 page.
import { runPagePath } from "@secondshift/vocabulary";
import { notFound, redirect } from "next/navigation";
import { caller, trpcCode } from "../../../trpc/server.tsx";
import { requireUser } from "../../../trpc/session.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function RunLink({ params }: { params: Promise<{ runId: string }> }) {
  const { runId } = await params;
  if (!UUID.test(runId)) notFound();
  await requireUser(`/runs/${runId}`);
  const found = await (await caller()).runs.locate({ runId }).catch((error: unknown) => {
    if (trpcCode(error) === "NOT_FOUND") notFound();
    throw error;
  });
  redirect(runPagePath(found.workspaceId, found.runId));
}
