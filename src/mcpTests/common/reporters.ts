/**
 * Test results as text: `pretty` for a person at a terminal, `junit` (JUnit XML, which CI
 * services show as test results) and `tap` (Test Anything Protocol, version 13).
 */
import { formatDifference } from './jsonCompare';
import type { TestFailure, TestResult } from './testRunner';

/** The results of one file; `error` when it could not run at all (bad file, server did not start). */
export interface FileResult {
  file: string;
  tests: TestResult[];
  error?: string;
  durationMs: number;
  /** The server the tests ran against: `fixture-server 1.0.0, protocol 2025-11-25`. */
  server?: string;
}

export type ReporterName = 'pretty' | 'junit' | 'tap';
export const REPORTERS: readonly ReporterName[] = ['pretty', 'junit', 'tap'];

export function report(name: ReporterName, files: readonly FileResult[]): string {
  return name === 'junit' ? junit(files) : name === 'tap' ? tap(files) : pretty(files);
}

export function totals(files: readonly FileResult[]): { passed: number; failed: number; fileErrors: number } {
  const tests = files.flatMap((f) => f.tests);
  return {
    passed: tests.filter((t) => t.status === 'passed').length,
    failed: tests.filter((t) => t.status === 'failed').length,
    fileErrors: files.filter((f) => f.error).length,
  };
}

/** A failure as lines: its message, then one line per difference. */
export function failureLines(failure: TestFailure): string[] {
  const head = failure.step !== undefined ? `step ${failure.step + 1}: ${failure.message}` : failure.message;
  return [head, ...(failure.differences ?? []).map((d) => `  ${formatDifference(d)}`)];
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function pretty(files: readonly FileResult[]): string {
  const lines: string[] = [];
  for (const f of files) {
    lines.push(f.server ? `${f.file} (${f.server})` : f.file);
    if (f.error) lines.push(...f.error.split('\n').map((l, i) => `  ${i ? '  ' : '✗ '}${l}`));
    for (const t of f.tests) {
      lines.push(`  ${t.status === 'passed' ? '✓' : '✗'} ${t.name} (${Math.round(t.durationMs)} ms)`);
      for (const failure of t.failures) lines.push(...failureLines(failure).map((l) => `      ${l}`));
      for (const note of t.notes) lines.push(`      note: ${note}`);
    }
  }
  const { passed, failed, fileErrors } = totals(files);
  lines.push('', `${passed} passed, ${failed} failed${fileErrors ? `, ${fileErrors} file${fileErrors === 1 ? '' : 's'} could not run` : ''}`);
  return `${lines.join('\n')}\n`;
}

const XML_INVALID = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
function xml(text: string): string {
  return text.replace(XML_INVALID, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function junit(files: readonly FileResult[]): string {
  const { passed, failed, fileErrors } = totals(files);
  const total = files.reduce((n, f) => n + f.durationMs, 0);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-workbench" tests="${passed + failed + fileErrors}" failures="${failed}" errors="${fileErrors}" time="${seconds(total)}">`,
  ];
  for (const f of files) {
    const failures = f.tests.filter((t) => t.status === 'failed').length;
    out.push(
      `  <testsuite name="${xml(f.file)}" tests="${f.tests.length + (f.error ? 1 : 0)}" failures="${failures}" errors="${f.error ? 1 : 0}" time="${seconds(f.durationMs)}">`,
    );
    if (f.server) out.push(`    <properties><property name="server" value="${xml(f.server)}"/></properties>`);
    if (f.error) out.push(`    <testcase classname="${xml(f.file)}" name="(file)" time="0"><error message="${xml(f.error)}"/></testcase>`);
    for (const t of f.tests) {
      const open = `    <testcase classname="${xml(f.file)}" name="${xml(t.name)}" time="${seconds(t.durationMs)}"`;
      if (t.status === 'passed') {
        out.push(t.notes.length ? `${open}><system-out>${xml(t.notes.join('\n'))}</system-out></testcase>` : `${open}/>`);
        continue;
      }
      const text = t.failures.flatMap(failureLines).join('\n');
      out.push(`${open}>`, `      <failure message="${xml(failureLines(t.failures[0])[0])}">${xml(text)}</failure>`, '    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

function tap(files: readonly FileResult[]): string {
  const out = ['TAP version 13'];
  let n = 0;
  for (const f of files) {
    if (f.error) out.push(`not ok ${++n} - ${f.file} # could not run`, '  ---', `  message: ${JSON.stringify(f.error)}`, '  ...');
    for (const t of f.tests) {
      const title = `${f.file} › ${t.name}`.replace(/#/g, '\\#');
      if (t.status === 'passed') out.push(`ok ${++n} - ${title}`);
      else
        out.push(
          `not ok ${++n} - ${title}`,
          '  ---',
          '  failures:',
          ...t.failures.flatMap(failureLines).map((l) => `    - ${JSON.stringify(l.trim())}`),
          '  ...',
        );
    }
  }
  out.push(`1..${n}`);
  return `${out.join('\n')}\n`;
}
