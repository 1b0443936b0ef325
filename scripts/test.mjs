#!/usr/bin/env node
// Runs every check and test of the project, then prints one closing line: "N passed, N failed".
// Static checks (types, lint, format) count as one test each; vitest and Playwright report
// their own counts through their JSON reporters. vitest keeps both cores busy, so it runs alone;
// Playwright's single worker mostly waits on the browser, so the static checks run beside it
// (their output is printed once they are done, not mixed into Playwright's).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const bin = (name) => path.join('node_modules', '.bin', name);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-test-reports-'));
const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
const failures = [];
// Printed again just before the closing line, since only the end of a long run may be read.
const details = [];

/** Runs a step; with `log`, its output also goes to that file (read back when it fails). */
function run(label, command, args, env = {}, log = null) {
  console.log(`\n=== ${label}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  const result = log
    ? spawnSync(
        'bash',
        ['-c', '"$@" 2>&1 | tee "$LOG"; exit "${PIPESTATUS[0]}"', '--', command, ...args],
        {
          stdio: 'inherit',
          env: { ...process.env, ...env, LOG: log },
        },
      )
    : spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(
    `=== ${label}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return result.status === 0;
}

/** Runs a step in the background, its output kept; resolves to whether it passed, and that output. */
function runQuietly(label, command, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    const done = (ok) =>
      resolve({
        ok,
        text: `\n=== ${label}: ${[command, ...args].join(' ')}\n${Buffer.concat(output).toString()}=== ${label}: ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      });
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      done(false);
    });
    child.on('close', (code) => done(code === 0));
  });
}

/** Types, lint and format, one after the other; each counts as one test. */
async function staticChecks() {
  const steps = [
    ['typecheck', bin('tsc'), ['-b']],
    ['lint', bin('eslint'), ['.', '--max-warnings=0']],
    ['format', bin('prettier'), ['--check', '.']],
  ];
  const results = [];
  for (const [label, command, args] of steps) {
    results.push({ label, ...(await runQuietly(label, command, args)) });
  }
  return results;
}

/** Runs a step with its output shown as it comes, without blocking what runs beside it. */
function runLive(label, command, args, env = {}) {
  console.log(`\n=== ${label}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    const done = (ok) => {
      console.log(
        `=== ${label}: ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      resolve(ok);
    };
    child.on('error', () => done(false));
    child.on('close', (code) => done(code === 0));
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const wants = (step) => only.length === 0 || only.includes(step);

if (wants('unit')) {
  const out = path.join(reports, 'vitest.json');
  const log = path.join(reports, 'vitest.log');
  const ok = run(
    'vitest',
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile=${out}`],
    {},
    log,
  );
  const report = readJson(out);
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    if (report.numFailedTests) failures.push(`vitest: ${report.numFailedTests} failed`);
    for (const file of report.testResults ?? []) {
      if (file.status !== 'failed') continue;
      const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      const why = file.message || failedTests[0]?.failureMessages?.[0] || '';
      details.push(
        `${path.relative(process.cwd(), file.name)}: ${failedTests.map((t) => t.fullName).join(' | ') || 'suite failed'}\n  ${why.split('\n').slice(0, 6).join('\n  ')}`,
      );
    }
  }
  if (!ok && (!report || report.numFailedTests === 0)) {
    failed += 1;
    failures.push('vitest did not complete');
    // Errors outside any test (unhandled rejections, a worker gone) are only in vitest's output.
    const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
    // eslint-disable-next-line no-control-regex
    const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
    const marks = [/Unhandled (Error|Rejection)/, /FAIL /, /Error:/].map((m) => plain.search(m));
    const at = marks.find((i) => i >= 0) ?? -1;
    details.push(
      `vitest output ${at >= 0 ? 'from its first error' : 'end'}:\n${(at >= 0 ? plain.slice(at) : plain).slice(0, 4000).slice(-4000)}`,
    );
  }
}

const statics = wants('static') ? staticChecks() : Promise.resolve([]);

if (wants('e2e')) {
  const out = path.join(reports, 'playwright.json');
  const ok = await runLive('playwright', bin('playwright'), ['test'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: out,
  });
  const report = readJson(out);
  if (report?.stats) {
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    if (report.stats.unexpected) failures.push(`playwright: ${report.stats.unexpected} failed`);
  }
  if (!ok && (!report?.stats || report.stats.unexpected === 0)) {
    failed += 1;
    failures.push('playwright did not complete');
  }
}

for (const result of await statics) {
  console.log(result.text);
  if (result.ok) passed += 1;
  else {
    failed += 1;
    failures.push(result.label);
  }
}

if (details.length) console.log(`\nFailed suites:\n${details.join('\n')}`);
if (failures.length) console.log(`\nFailures: ${failures.join('; ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
