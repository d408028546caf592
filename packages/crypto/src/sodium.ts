// libsodium needs one asynchronous initialisation; everything else here is synchronous after it.
import sodium from "libsodium-wrappers";

let ready: Promise<typeof sodium> | undefined;

export function loadSodium(): Promise<typeof sodium> {
  ready ??= sodium.ready.then(() => sodium);
  return ready;
}
