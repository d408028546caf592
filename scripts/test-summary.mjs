// Prints the wall time of every phase of the test command (.test-results/phases.tsv, written by
// scripts/lib/phases.sh), then adds up the Vitest JSON reports in .test-results/ (one per
// workspace) and the typecheck, lint and format statuses, prints a line per suite and, last,
// `N passed, N failed`. A workspace with a test script but no report crashed before reporting
// and counts as a failure. --phases-only: the phase table alone (a setup step failed).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const results = join(root, ".test-results");

printPhases(join(results, "phases.tsv"));
if (process.argv.includes("--phases-only")) process.exit(0);

/** One line per phase: wall time, when it started (phases in lanes overlap), exit code. */
function printPhases(file) {
  if (!existsSync(file)) return;
  const rows = readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\t"))
    .map(([name, seconds, code, start]) => ({ name, seconds: +seconds, code, start: +start }))
    .sort((a, b) => a.start - b.start);
  const clock = (s) => {
    const t = Math.round(s);
    return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
  };
  console.log("\nphase                          wall    start  exit");
  for (const r of rows)
    console.log(
      `${r.name.padEnd(30)} ${clock(r.seconds).padStart(5)}  ${clock(r.start).padStart(6)}  ${r.code}`,
    );
  const end = Math.max(...rows.map((r) => r.start + r.seconds));
  console.log(`${"total".padEnd(30)} ${clock(end).padStart(5)}\n`);
}
let passed = 0;
let failed = 0;
let skipped = 0;
/** The failed tests, printed just above the last line so a truncated CI log still names them. */
const failures = [];

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
  failures.push(...failedTests(data, label));
  const bad = data.numFailedTests + brokenFiles;
  console.log(`${bad ? "FAIL" : "ok  "} ${label}: ${data.numPassedTests} passed, ${bad} failed`);
}

if (failures.length) {
  console.log(`\nfailed (${failures.length}):`);
  for (const line of failures.slice(0, 12)) console.log(line);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);

/** "suite file › test title: first line of the error" for each failed test or unloadable file. */
function failedTests(data, label) {
  const lines = [];
  for (const file of data.testResults ?? []) {
    const name = file.name.replace(root, "");
    const tests = file.assertionResults ?? [];
    if (file.status === "failed" && tests.length === 0)
      lines.push(`  ${label} ${name}: ${firstLine(file.message)}`);
    for (const test of tests.filter((t) => t.status === "failed"))
      lines.push(`  ${name} › ${test.title}: ${firstLine(test.failureMessages?.[0])}`);
  }
  return lines;
}

function firstLine(text) {
  const line =
    String(text ?? "")
      .split("\n")
      .find((l) => l.trim()) ?? "";
  return line.trim().slice(0, 240);
}
