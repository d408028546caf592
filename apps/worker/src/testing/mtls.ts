// Mutual TLS in front of the test's Docker engine: certificates made with openssl (a CA, the
// engine's certificate, the worker's client certificate and one from another CA), and a small
// TLS server on 127.0.0.1 that requires a client certificate from the CA and pipes each
// accepted connection to the engine's unix socket, as `dockerd --tlsverify` would serve it.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect as connectUnix, type AddressInfo, type Socket } from "node:net";
import { join } from "node:path";
import { createServer, type TLSSocket } from "node:tls";

function openssl(args: string[], cwd: string): void {
  execFileSync("openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
}

const EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];

function makeCa(dir: string, name: string): void {
  openssl(
    [
      "req",
      "-x509",
      ...EC,
      "-keyout",
      `${name}-key.pem`,
      "-out",
      `${name}.pem`,
      "-days",
      "2",
      "-subj",
      `/CN=${name}`,
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign",
    ],
    dir,
  );
}

/** Writes NAME-key.pem and NAME-cert.pem, signed by CA, with the given extensions. */
function issue(dir: string, ca: string, name: string, extensions: string): void {
  writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(
    ["req", ...EC, "-keyout", `${name}-key.pem`, "-out", `${name}.csr`, "-subj", `/CN=${name}`],
    dir,
  );
  openssl(
    [
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      `${ca}.pem`,
      "-CAkey",
      `${ca}-key.pem`,
      "-set_serial",
      `0x${randomBytes(8).toString("hex")}`,
      "-days",
      "2",
      "-extfile",
      `${name}.ext`,
      "-out",
      `${name}-cert.pem`,
    ],
    dir,
  );
}

/** A DOCKER_CERT_PATH folder: ca.pem (trusted for the engine), cert.pem, key.pem. */
function certFolder(dir: string, folder: string, ca: string, client: string): string {
  const path = join(dir, folder);
  mkdirSync(path, { recursive: true });
  copyFileSync(join(dir, `${ca}.pem`), join(path, "ca.pem"));
  copyFileSync(join(dir, `${client}-cert.pem`), join(path, "cert.pem"));
  copyFileSync(join(dir, `${client}-key.pem`), join(path, "key.pem"));
  return path;
}

export interface TestCertificates {
  ca: Buffer;
  /** The engine's certificate for IP 127.0.0.1, and one that names 127.0.0.2 instead. */
  server: { cert: Buffer; key: Buffer };
  wrongNameServer: { cert: Buffer; key: Buffer };
  /** DOCKER_CERT_PATH folders: the worker's, and one whose client certificate another CA signed. */
  clientDir: string;
  otherCaClientDir: string;
}

export function makeCertificates(dir: string): TestCertificates {
  makeCa(dir, "ca");
  makeCa(dir, "other-ca");
  const server = "extendedKeyUsage=serverAuth\n";
  issue(dir, "ca", "engine", `${server}subjectAltName=IP:127.0.0.1\n`);
  issue(dir, "ca", "elsewhere", `${server}subjectAltName=IP:127.0.0.2\n`);
  issue(dir, "ca", "worker", "extendedKeyUsage=clientAuth\n");
  issue(dir, "other-ca", "intruder", "extendedKeyUsage=clientAuth\n");
  const read = (name: string) => readFileSync(join(dir, name));
  return {
    ca: read("ca.pem"),
    server: { cert: read("engine-cert.pem"), key: read("engine-key.pem") },
    wrongNameServer: { cert: read("elsewhere-cert.pem"), key: read("elsewhere-key.pem") },
    clientDir: certFolder(dir, "worker", "ca", "worker"),
    otherCaClientDir: certFolder(dir, "intruder", "ca", "intruder"),
  };
}

export interface MtlsEndpoint {
  port: number;
  /** Connections that passed the handshake (and reached the engine). */
  accepted: () => number;
  /** Handshakes refused, with the TLS error's code or message. */
  refused: () => string[];
  close(): Promise<void>;
}

/** Listens on 127.0.0.1; only clients with a certificate from `ca` reach `socketPath`. */
export async function startMtlsEndpoint(options: {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
  socketPath: string;
}): Promise<MtlsEndpoint> {
  let accepted = 0;
  const refused: string[] = [];
  const server = createServer(
    {
      ca: options.ca,
      cert: options.cert,
      key: options.key,
      requestCert: true,
      rejectUnauthorized: true,
    },
    (socket: TLSSocket) => {
      accepted++;
      const engine = connectUnix(options.socketPath);
      socket.pipe(engine).pipe(socket);
      socket.on("error", () => engine.destroy());
      engine.on("error", () => socket.destroy());
    },
  );
  server.on("tlsClientError", (error: NodeJS.ErrnoException) =>
    refused.push(error.code ?? error.message),
  );
  const open = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    accepted: () => accepted,
    refused: () => [...refused],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections of the clients would hold close() open.
        for (const socket of open) socket.destroy();
      }),
  };
}
