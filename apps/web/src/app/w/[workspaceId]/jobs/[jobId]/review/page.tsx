// The access review lives on the job's page; this address leads there.
import { redirect } from "next/navigation";

export default async function ReviewPage({
  params,
}: {
  params: Promise<{ workspaceId: string; jobId: string }>;
}) {
  const { workspaceId, jobId } = await params;
  redirect(
    `/w/${encodeURIComponent(workspaceId)}/jobs/${encodeURIComponent(jobId)}#review-heading`,
  );
}
