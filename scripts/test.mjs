#!/usr/bin/env node
// Runs every check and test of the project, then prints one closing line: "N passed, N failed".
// Static checks (types, lint, format) count as one test each; vitest and Playwright report
// their own counts through their JSON reporters.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const bin = (name) => path.join('node_modules', '.bin', name);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-test-reports-'));
const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
const failures = [];

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(
    `=== ${label}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return result.status === 0;
}

function check(label, command, args) {
  if (run(label, command, args)) passed += 1;
  else {
    failed += 1;
    failures.push(label);
  }
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const wants = (step) => only.length === 0 || only.includes(step);

if (wants('static')) {
  check('typecheck', bin('tsc'), ['-b']);
  check('lint', bin('eslint'), ['.', '--max-warnings=0']);
  check('format', bin('prettier'), ['--check', '.']);
}

if (wants('unit')) {
  const out = path.join(reports, 'vitest.json');
  const ok = run('vitest', bin('vitest'), [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${out}`,
  ]);
  const report = readJson(out);
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    if (report.numFailedTests) failures.push(`vitest: ${report.numFailedTests} failed`);
  }
  if (!ok && (!report || report.numFailedTests === 0)) {
    failed += 1;
    failures.push('vitest did not complete');
  }
}

if (wants('e2e')) {
  const out = path.join(reports, 'playwright.json');
  const ok = run('playwright', bin('playwright'), ['test'], {
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

if (failures.length) console.log(`\nFailures: ${failures.join('; ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
