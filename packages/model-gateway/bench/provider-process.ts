// The scripted provider in its own process, so that it does not share an event loop (or a
// core) with the load generator or the gateway under test. Prints its URL on stdout.
import { startScriptedProvider } from "../src/testing/scripted-provider.ts";

const provider = await startScriptedProvider();
// Keep request records from growing without bound during a long run.
setInterval(() => {
  provider.requests.length = 0;
  provider.billed.length = 0;
}, 1000).unref();
console.log(provider.url);
