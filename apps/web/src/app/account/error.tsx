"use client";
// A failed account page shows its error inside the shell.
import { PageError, type PageErrorProps } from "../../components/ui/page-error.tsx";

export default function AccountError(props: PageErrorProps) {
  return <PageError {...props} />;
}
