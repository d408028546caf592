// Makes sure the image the tests use exists (built from Debian packages, no registry).
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

export default function setup(): void {
  const image = process.env.TEST_SANDBOX_IMAGE ?? "secondshift-sandbox:test";
  const script = resolve(import.meta.dirname, "../../../../scripts/build-sandbox-image.sh");
  execFileSync("bash", [script, image], { stdio: "inherit" });
}
