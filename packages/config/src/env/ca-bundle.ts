// SECONDSHIFT_EXTRA_CA_CERTS: a PEM file of the operator's certificate authority (or several),
// trusted for outbound HTTPS besides the public roots — internal model providers, MCP servers,
// webhook receivers and git servers with certificates from a private CA. Read once, when the
// settings are parsed; each certificate is checked, so a wrong file stops the service at start
// with the file named, not at the first request.
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+?-----END CERTIFICATE-----/g;
const MAX_BUNDLE_BYTES = 1024 * 1024;

type Read = { certs: string[] } | { problem: string };

function readBundle(path: string): Read {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unreadable";
    return {
      problem: `cannot read ${path} (${code}); mount the CA file there or unset the setting`,
    };
  }
  if (text.length > MAX_BUNDLE_BYTES) return { problem: `${path} is larger than 1 MiB` };
  const certs = text.match(PEM_BLOCK) ?? [];
  if (certs.length === 0)
    return { problem: `${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)` };
  for (const [i, pem] of certs.entries()) {
    try {
      new X509Certificate(pem);
    } catch {
      return { problem: `certificate ${i + 1} in ${path} is not a valid X.509 certificate` };
    }
  }
  return { certs };
}

/** The certificates of the file the setting names; [] when it is unset or empty. */
export const extraCaCerts = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const path = value?.trim() ?? "";
    if (path === "") return [];
    const read = readBundle(path);
    if ("problem" in read) {
      ctx.addIssue({ code: "custom", message: read.problem });
      return z.NEVER;
    }
    return read.certs;
  });
