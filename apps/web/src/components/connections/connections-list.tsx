"use client";
// The workspace's connections: kind, endpoint, authentication and whether the owner must
// reconnect. Credentials are never part of what the API returns; "set" is all the page knows.
import { useSuspenseQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../trpc/react.tsx";
import { AddressProblem } from "../ui/address-problem.tsx";
import { Badge } from "../ui/badge.tsx";
import { EmptyState } from "../ui/states.tsx";
import { Table, Td, Th, Tr } from "../ui/table.tsx";
import { AUTH_WORDS, KIND_WORDS, reconnectState } from "./words.ts";

export function ConnectionsList({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.connections.list.queryOptions({ workspaceId }));
  if (data.length === 0) {
    return (
      <EmptyState title="No connections yet">
        An owner adds a connection (an MCP server, an HTTP API, GitHub or Sentry) so that jobs can
        ask to use its tools.
      </EmptyState>
    );
  }
  return (
    <Table caption="Connections">
      <thead>
        <tr>
          <Th>Name</Th>
          <Th>Kind</Th>
          <Th>Endpoint</Th>
          <Th>Authentication</Th>
          <Th>Tools allowed</Th>
          <Th>State</Th>
        </tr>
      </thead>
      <tbody>
        {data.map((c) => {
          const reconnect = reconnectState(c);
          return (
            <Tr key={c.id}>
              <Td>
                <Link
                  href={`/w/${workspaceId}/connections/${c.id}`}
                  className="font-medium text-indigo-700 underline"
                >
                  {c.label}
                </Link>
              </Td>
              <Td>{KIND_WORDS[c.kind]}</Td>
              <Td className="break-all">
                <span className="font-mono text-xs">{c.endpoint}</span>
                <AddressProblem problem={c.addressProblem} />
              </Td>
              <Td>{AUTH_WORDS[c.authType]}</Td>
              <Td>
                {c.allowedTools.length} of {c.discoveredTools.length}
              </Td>
              <Td>
                {reconnect ? (
                  <Badge tone="bad">Reconnect needed</Badge>
                ) : (
                  <Badge tone="good">Ready</Badge>
                )}
              </Td>
            </Tr>
          );
        })}
      </tbody>
    </Table>
  );
}
