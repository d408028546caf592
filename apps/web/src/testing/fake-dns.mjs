// Preloaded into the web process by startWebApp (NODE_OPTIONS=--import): the save-time URL
// check resolves host names (netguard's resolver is dns.promises.lookup), and tests never use
// real DNS. Names come from SECONDSHIFT_TEST_HOSTS (JSON: name → addresses); any other name
// does not resolve. Nothing here is loaded outside tests. Plain .mjs: it runs before tsx.
import { createRequire, syncBuiltinESMExports } from "node:module";

const require = createRequire(import.meta.url);
const dnsPromises = require("node:dns/promises");
const table = {
  localhost: ["127.0.0.1"],
  ...JSON.parse(process.env.SECONDSHIFT_TEST_HOSTS ?? "{}"),
};

dnsPromises.lookup = async (hostname) => {
  const answer = table[String(hostname).toLowerCase().replace(/\.$/, "")];
  if (answer === undefined)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};
syncBuiltinESMExports();
