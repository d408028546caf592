// Resolves a host once and checks every answer. The rule for mixed answers is strict: if ANY
// answer is non-public the whole host is refused, rather than quietly using the public ones.
// A name that resolves to both public and private addresses is either misconfigured or a
// rebinding attempt, and refusing it means no later fallback (Happy Eyeballs, retry on the
// next address) can ever land on the private one.
import { lookup } from "node:dns/promises";
import { decideAddress } from "./address.ts";
import { addressNotPublic, dnsFailed } from "./errors.ts";
import type { ResolvedAddress, ResolvedPolicy, Resolver } from "./policy.ts";

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

export const systemResolver: Resolver = async (hostname) =>
  lookup(hostname, { all: true, verbatim: true });

export async function resolveChecked(
  hostname: string,
  policy: ResolvedPolicy,
): Promise<CheckedAddress[]> {
  // An IP literal is its own answer: no lookup at all.
  const literal = decideAddress(hostname, policy, hostname);
  if (literal.range !== "invalid") {
    if (!literal.allowed) throw addressNotPublic(hostname, literal.address, literal.range);
    return [{ address: literal.address, family: literal.family }];
  }

  let answers: ResolvedAddress[];
  try {
    answers = await (policy.resolver ?? systemResolver)(hostname);
  } catch (cause) {
    throw dnsFailed(hostname, cause);
  }
  if (answers.length === 0) throw dnsFailed(hostname, new Error("no addresses"));

  const checked: CheckedAddress[] = [];
  for (const answer of answers) {
    const decision = decideAddress(answer.address, policy, hostname);
    if (!decision.allowed) throw addressNotPublic(hostname, decision.address, decision.range);
    checked.push({ address: decision.address, family: decision.family });
  }
  return checked;
}
