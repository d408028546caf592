// The save-time check of an owner's URL (webhook, model provider, connection, clone URL): the
// same decisions the send-time guard makes (scheme, host names, every resolved address, through
// decideAddress), taken early so an owner learns at once, in words naming the rule and the
// remedy. The send-time check stays authoritative: DNS can change after a save.
import { AppError } from "@secondshift/errors";
import { decideAddress } from "./address.ts";
import { isNetguardError } from "./errors.ts";
import { resolvePolicy, type OutboundPolicy, type ResolvedPolicy } from "./policy.ts";
import { systemResolver } from "./resolve.ts";
import { checkHostName, urlHostname } from "./target.ts";

/**
 * "http": netguard's HTTP guard (metadata and localhost names refused by name).
 * "git": repo-sync's clone check (addresses only, as checkRemote decides at fetch time).
 */
export type DestinationKind = "http" | "git";

export interface DestinationChecker {
  /** Every rule, the host resolved and each answer checked; throws an AppError that says why. */
  check(url: string, what: string, kind?: DestinationKind): Promise<void>;
  /** The rules that need no DNS (scheme, names, IP literals): the problem in words, or null. */
  problem(url: string, what: string, kind?: DestinationKind): string | null;
}

const ALLOW =
  "an operator can allow internal hosts with SECONDSHIFT_ALLOWED_PRIVATE_HOSTS or ranges with " +
  "SECONDSHIFT_ALLOWED_PRIVATE_CIDRS (see docs/DEPLOY.md)";
const RULE = "SecondShift refuses private, loopback, link-local and metadata addresses";

const RANGE_WORDS: Record<string, string> = {
  loopback: "a loopback",
  private: "a private",
  uniqueLocal: "a private",
  linkLocal: "a link-local",
  carrierGradeNat: "a shared (carrier-grade NAT)",
  unspecified: "an unspecified",
  broadcast: "a broadcast",
  multicast: "a multicast",
};

/** "a private", "a link-local (cloud metadata)", … for netguard's range names. */
function rangeWords(address: string, range: string): string {
  const inner = range.split(":").pop() ?? range;
  if (address === "169.254.169.254" || address === "fd00:ec2::254")
    return "a cloud metadata (link-local)";
  return RANGE_WORDS[inner] ?? "a non-public";
}

const refuse = (reason: string, message: string) =>
  new AppError("BAD_REQUEST", message, { reason });

function addressRefusal(what: string, address: string, range: string): AppError {
  return refuse(
    "URL_ADDRESS_NOT_ALLOWED",
    `${what} points to ${rangeWords(address, range)} address (${address}). ${RULE}; ${ALLOW}.`,
  );
}

function parse(url: string, what: string): URL {
  try {
    return new URL(url);
  } catch {
    throw refuse("URL_INVALID", `${what} must be a full URL such as https://api.example.com.`);
  }
}

/** Everything decidable without DNS; returns the host name to resolve, or null (a literal). */
function checkSyntax(
  url: URL,
  what: string,
  kind: DestinationKind,
  policy: ResolvedPolicy,
): string | null {
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw refuse("URL_INVALID", `${what} must use https://.`);
  if (url.protocol === "http:" && !policy.allowHttp) {
    throw refuse(
      "URL_HTTPS_REQUIRED",
      `${what} uses http://. SecondShift sends only over https in production; use an https:// URL.`,
    );
  }
  const host = urlHostname(url);
  const literal = decideAddress(host, policy, host);
  if (literal.range !== "invalid") {
    if (!literal.allowed) throw addressRefusal(what, literal.address, literal.range);
    return null;
  }
  if (kind === "http") checkName(host, what, policy);
  return host;
}

/** The send-time guard's refusal of metadata and localhost names, in save words. */
function checkName(host: string, what: string, policy: ResolvedPolicy): void {
  try {
    checkHostName(host, policy);
  } catch (error) {
    if (!isNetguardError(error, "HOST_NOT_ALLOWED")) throw error;
    const loopback = host === "localhost" || host.endsWith(".localhost");
    throw refuse(
      "URL_HOST_NOT_ALLOWED",
      `${what} points to ${host}, ${loopback ? "a loopback name" : "a cloud metadata service"}. ${RULE}; ${ALLOW}.`,
    );
  }
}

async function checkResolved(
  host: string,
  what: string,
  policy: ResolvedPolicy,
  resolver: NonNullable<ResolvedPolicy["resolver"]>,
) {
  const unresolved = () =>
    refuse(
      "URL_HOST_UNRESOLVED",
      `${what}: the host ${host} could not be resolved; check the name.`,
    );
  const answers = await resolver(host).catch(() => {
    throw unresolved();
  });
  if (answers.length === 0) throw unresolved();
  // Any refused answer refuses the host, as at send time.
  for (const answer of answers) {
    const decision = decideAddress(answer.address, policy, host);
    if (!decision.allowed) throw addressRefusal(what, decision.address, decision.range);
  }
}

export function createDestinationChecker(policy: OutboundPolicy): DestinationChecker {
  const resolved = resolvePolicy(policy);
  const resolver = resolved.resolver ?? systemResolver;
  return {
    async check(url, what, kind = "http") {
      const host = checkSyntax(parse(url, what), what, kind, resolved);
      if (host !== null) await checkResolved(host, what, resolved, resolver);
    },
    problem(url, what, kind = "http") {
      try {
        checkSyntax(parse(url, what), what, kind, resolved);
        return null;
      } catch (error) {
        if (error instanceof AppError) return error.message;
        throw error;
      }
    },
  };
}
