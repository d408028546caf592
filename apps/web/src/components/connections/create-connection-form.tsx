"use client";
// The owner adds a connection. The credential (token, private key) is write-only: it goes to
// the API once and is never shown back — the form clears it after sending.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { Button } from "../ui/button.tsx";
import { errorMessage, fieldErrors } from "../ui/error-message.ts";
import { Field, Label } from "../ui/field.tsx";
import { formText } from "../ui/form-data.ts";
import { StatusNote } from "../ui/status-note.tsx";
import {
  firstDiscoveryInWords,
  KIND_WORDS,
  type ConnectionAuthName,
  type ConnectionKindName,
} from "./words.ts";

type GithubAuth = "BEARER" | "GITHUB_APP";

interface Draft {
  kind: ConnectionKindName;
  label: string;
  endpoint: string;
  authType: ConnectionAuthName;
  authHeaderName: string | null;
  credential: string | null;
  settings: Record<string, unknown>;
}

const DEFAULT_ENDPOINT: Record<ConnectionKindName, string> = {
  MCP: "",
  HTTP: "",
  GITHUB: "https://api.github.com",
  SENTRY: "https://sentry.io",
};

function draftFrom(form: FormData, kind: ConnectionKindName, githubAuth: GithubAuth): Draft {
  const credential = formText(form, "credential") || null;
  const headerName = formText(form, "authHeaderName").trim();
  const base = {
    kind,
    label: formText(form, "label"),
    endpoint: formText(form, "endpoint"),
    credential,
    authHeaderName: null,
    settings: {},
  };
  if (kind === "GITHUB" && githubAuth === "GITHUB_APP") {
    return {
      ...base,
      authType: "GITHUB_APP",
      settings: {
        appId: formText(form, "appId").trim(),
        installationId: formText(form, "installationId").trim(),
      },
    };
  }
  if (kind === "SENTRY") {
    return {
      ...base,
      authType: credential ? "BEARER" : "NONE",
      settings: { organization: formText(form, "organization").trim() },
    };
  }
  if ((kind === "MCP" || kind === "HTTP") && headerName && credential) {
    return { ...base, authType: "HEADER", authHeaderName: headerName };
  }
  return { ...base, authType: credential ? "BEARER" : "NONE" };
}

export function CreateConnectionForm({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<ConnectionKindName>("MCP");
  const [githubAuth, setGithubAuth] = useState<GithubAuth>("BEARER");
  const [done, setDone] = useState<string | null>(null);
  // A new key after each success remounts the form: every field (the credential above all) is
  // cleared, also the uncontrolled ones React would otherwise keep.
  const [formKey, setFormKey] = useState(0);
  const create = useMutation(
    trpc.connections.create.mutationOptions({
      onSuccess: async ({ discovery }, input) => {
        setFormKey((k) => k + 1);
        setDone(
          `Connection "${input.label}" added. ${firstDiscoveryInWords(discovery, input.authType)} Its credential is stored and will not be shown again.`,
        );
        await queryClient.invalidateQueries({ queryKey: trpc.connections.list.queryKey() });
      },
    }),
  );
  const errors = fieldErrors(create.error);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setDone(null);
    create.mutate({ workspaceId, ...draftFrom(new FormData(form), kind, githubAuth) });
  }

  const isApp = kind === "GITHUB" && githubAuth === "GITHUB_APP";
  return (
    <form
      key={formKey}
      onSubmit={submit}
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4"
      aria-labelledby="new-connection"
    >
      <h2 id="new-connection" className="text-base font-semibold text-slate-900">
        Add a connection
      </h2>
      <div className="flex flex-col gap-1">
        <Label htmlFor="connection-kind">Kind</Label>
        <select
          id="connection-kind"
          value={kind}
          onChange={(e) => setKind(e.target.value as ConnectionKindName)}
          className="rounded-md border border-slate-300 px-3 py-2 text-sm"
        >
          {(Object.keys(KIND_WORDS) as ConnectionKindName[]).map((k) => (
            <option key={k} value={k}>
              {KIND_WORDS[k]}
            </option>
          ))}
        </select>
      </div>
      <Field
        label="Name"
        name="label"
        required
        error={errors.label}
        hint="Jobs name a connection by this label in .secondshift.yaml."
      />
      <Field
        key={kind}
        label="Endpoint"
        name="endpoint"
        type="url"
        required
        defaultValue={DEFAULT_ENDPOINT[kind]}
        error={errors.endpoint}
        hint={
          kind === "MCP"
            ? "The server's URL. Streamable HTTP is used, with SSE as the fallback."
            : kind === "HTTP"
              ? "The API's base URL."
              : undefined
        }
      />
      {kind === "GITHUB" ? (
        <fieldset className="flex flex-col gap-1">
          <legend className="text-sm font-medium text-slate-800">GitHub sign-in</legend>
          {(["BEARER", "GITHUB_APP"] as const).map((value) => (
            <label key={value} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="githubAuth"
                value={value}
                checked={githubAuth === value}
                onChange={() => setGithubAuth(value)}
              />
              {value === "BEARER" ? "Personal access token" : "GitHub App"}
            </label>
          ))}
        </fieldset>
      ) : null}
      {isApp ? (
        <>
          <Field label="App ID" name="appId" inputMode="numeric" required />
          <Field label="Installation ID" name="installationId" inputMode="numeric" required />
        </>
      ) : null}
      {kind === "SENTRY" ? <Field label="Organization slug" name="organization" required /> : null}
      {kind === "MCP" || kind === "HTTP" ? (
        <Field
          label="Header name (optional)"
          name="authHeaderName"
          hint="Leave empty to send the token as Authorization: Bearer."
          error={errors.authHeaderName}
        />
      ) : null}
      <CredentialInput isApp={isApp} error={errors.credential} />
      <div className="flex items-center gap-3">
        <Button type="submit" pending={create.isPending}>
          Add connection
        </Button>
        <StatusNote message={done} />
      </div>
      {create.error ? <StatusNote tone="bad" message={errorMessage(create.error)} /> : null}
    </form>
  );
}

function CredentialInput({ isApp, error }: { isApp: boolean; error: string | undefined }) {
  const label = isApp ? "Private key (PEM)" : "Token";
  const hint = "Write-only: stored encrypted and never shown again.";
  if (!isApp) {
    return (
      <Field
        label={label}
        name="credential"
        type="password"
        autoComplete="off"
        hint={hint}
        error={error}
      />
    );
  }
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor="connection-private-key">{label}</Label>
      <textarea
        id="connection-private-key"
        name="credential"
        required
        rows={4}
        autoComplete="off"
        spellCheck={false}
        aria-describedby="connection-private-key-hint"
        className="rounded-md border border-slate-300 px-3 py-2 font-mono text-xs"
      />
      <p id="connection-private-key-hint" className="text-xs text-slate-600">
        {hint}
      </p>
    </div>
  );
}
