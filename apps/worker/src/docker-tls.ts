// The worker's TLS client identity for a remote Docker engine, in Docker's own layout:
// DOCKER_CERT_PATH/ca.pem (the CA that signed the engine's certificate), cert.pem and key.pem
// (the worker's client certificate and its key). Read once at start, checked so that a wrong
// file is named now rather than at the first run. No error or log line carries a file's content.
import { createPrivateKey, X509Certificate, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { AppError } from "@secondshift/errors";

export interface ClientTls {
  /** The folder the files came from (safe to show). */
  readonly certPath: string;
  readonly ca: Buffer;
  readonly cert: Buffer;
  /** Not enumerable: a settings object that is logged or serialised never shows the key. */
  readonly key: Buffer;
}

const ROLES = {
  "ca.pem": "the CA certificate that signed the engine's certificate",
  "cert.pem": "the worker's client certificate",
  "key.pem": "the private key of cert.pem",
} as const;

type TlsFile = keyof typeof ROLES;

function tlsError(message: string): AppError {
  return new AppError(
    "BAD_REQUEST",
    `${message} DOCKER_CERT_PATH must hold ca.pem (${ROLES["ca.pem"]}), cert.pem (${ROLES["cert.pem"]}) and key.pem (${ROLES["key.pem"]}); docs/DEPLOY.md, section 3.`,
    { reason: "DOCKER_TLS_INVALID" },
  );
}

function readTlsFile(folder: string, name: TlsFile): Buffer {
  const path = join(folder, name);
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "does not exist"
        : code === "EACCES"
          ? "is not readable by the worker's user"
          : `cannot be read (${code ?? "error"})`;
    throw tlsError(`${path} (${ROLES[name]}) ${why}.`);
  }
}

function certificate(folder: string, name: TlsFile, pem: Buffer): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch {
    throw tlsError(`${join(folder, name)} is not a PEM certificate.`);
  }
}

function privateKey(folder: string, pem: Buffer): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch {
    throw tlsError(`${join(folder, "key.pem")} is not a PEM private key (or is encrypted).`);
  }
}

export function readClientTls(certPath: string | undefined): ClientTls {
  const folder = certPath?.trim() ?? "";
  if (folder === "" || !isAbsolute(folder))
    throw tlsError(
      folder === ""
        ? "DOCKER_TLS_VERIFY=1 needs DOCKER_CERT_PATH, the folder of the worker's client certificate."
        : `DOCKER_CERT_PATH must be an absolute path (got ${folder}).`,
    );
  const ca = readTlsFile(folder, "ca.pem");
  const cert = readTlsFile(folder, "cert.pem");
  const key = readTlsFile(folder, "key.pem");
  certificate(folder, "ca.pem", ca);
  const client = certificate(folder, "cert.pem", cert);
  if (!client.checkPrivateKey(privateKey(folder, key)))
    throw tlsError(`${join(folder, "key.pem")} is not the key of cert.pem.`);
  const tls = { certPath: folder, ca, cert } as ClientTls;
  Object.defineProperty(tls, "key", { value: key, enumerable: false });
  return Object.freeze(tls);
}
