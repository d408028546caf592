// Adds up the Vitest JSON reports in .test-results/ (one per workspace) and the typecheck and
// lint and format statuses, prints a line per suite and, last, `N passed, N failed`. A workspace with a
// test script but no report crashed before reporting and counts as a failure.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const results = join(root, ".test-results");
let passed = 0;
let failed = 0;
let skipped = 0;

for (const check of ["typecheck", "lint", "format"]) {
  const file = join(results, `${check}.status`);
  const ok = existsSync(file) && readFileSync(file, "utf8").trim() === "0";
  ok ? passed++ : failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${check}`);
}

const workspaces = ["apps", "packages"].flatMap((dir) =>
  existsSync(join(root, dir)) ? readdirSync(join(root, dir)).map((name) => [dir, name]) : [],
);
// Top-level workspaces: e2e (test) and deploy (the smoke test, run as its own `smoke` step).
for (const name of ["e2e", "deploy"])
  if (existsSync(join(root, name, "package.json"))) workspaces.push([".", name]);

for (const [dir, name] of workspaces) {
  const pkgFile = join(root, dir, name, "package.json");
  const scripts = existsSync(pkgFile) ? JSON.parse(readFileSync(pkgFile, "utf8")).scripts : {};
  if (!scripts?.test && !scripts?.smoke) continue;
  const report = join(results, dir === "." ? `${name}.json` : `${dir}-${name}.json`);
  const label = dir === "." ? name : `${dir}/${name}`;
  if (!existsSync(report)) {
    failed++;
    console.log(`FAIL ${label}: no test report (the suite crashed before reporting)`);
    continue;
  }
  const data = JSON.parse(readFileSync(report, "utf8"));
  // Files that failed to load have no assertions but a failed status.
  const brokenFiles = (data.testResults ?? []).filter(
    (f) => f.status === "failed" && (f.assertionResults ?? []).length === 0,
  ).length;
  passed += data.numPassedTests;
  failed += data.numFailedTests + brokenFiles;
  skipped += (data.numPendingTests ?? 0) + (data.numTodoTests ?? 0);
  const bad = data.numFailedTests + brokenFiles;
  console.log(`${bad ? "FAIL" : "ok  "} ${label}: ${data.numPassedTests} passed, ${bad} failed`);
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
