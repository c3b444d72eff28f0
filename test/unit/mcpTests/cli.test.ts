/**
 * The built command line (dist/cli.js, what `npm install` links as `mcp-workbench`) run as CI runs
 * it: a child process on plain Node, against the real fixture servers. Exit 0 with valid JUnit XML
 * for the examples, 1 with the differing JSON path for wrong expectations, 2 for bad usage or files.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLI, REPO } from './helpers';

/** sax (strict mode) is a real XML parser; it comes with @vscode/l10n-dev's xml2js. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sax = require('sax') as { parser(strict: boolean): SaxParser };
interface SaxParser {
  onerror: (e: Error) => void;
  onopentag: (node: { name: string; attributes: Record<string, string> }) => void;
  write(text: string): SaxParser;
  close(): void;
}

function cli(args: string[], cwd = REPO, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 60000, env: { ...process.env, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The elements of an XML text; throws unless it is well-formed. */
function elements(xml: string): { name: string; attributes: Record<string, string> }[] {
  const found: { name: string; attributes: Record<string, string> }[] = [];
  const parser = sax.parser(true);
  parser.onerror = (e) => {
    throw e;
  };
  parser.onopentag = (node) => found.push(node);
  parser.write(xml).close();
  return found;
}

describe('saved MCP tests: the command line', function () {
  this.timeout(90000);

  before(function () {
    if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run node esbuild.mjs first`);
  });

  it('runs the examples: exit 0 and valid JUnit XML with every test passed', () => {
    const examples = fs
      .readdirSync(path.join(REPO, 'examples', 'mcp-tests'))
      .filter((n) => n.endsWith('.mcptest.json'))
      .map((n) => path.join('examples', 'mcp-tests', n));
    const r = cli(['test', ...examples, '--reporter', 'junit']);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const xml = elements(r.stdout);
    const suites = xml.filter((e) => e.name === 'testsuite');
    assert.equal(suites.length, examples.length);
    assert.equal(xml[0].name, 'testsuites');
    assert.equal(xml[0].attributes.failures, '0');
    assert.equal(xml[0].attributes.errors, '0');
    assert.equal(Number(xml[0].attributes.tests), xml.filter((e) => e.name === 'testcase').length);
    assert.ok(xml.filter((e) => e.name === 'testcase').length >= 8);
    assert.equal(xml.filter((e) => e.name === 'failure' || e.name === 'error').length, 0);
  });

  it('exits 1 on wrong expectations and shows the JSON path, in each reporter', () => {
    const wrong = path.join('test', 'fixtures', 'mcpTests', 'wrong.mcptest.json');
    const pretty = cli(['test', wrong]);
    assert.equal(pretty.status, 1, pretty.stderr);
    assert.match(pretty.stdout, /✗ a wrong sum/);
    assert.match(pretty.stdout, /\$\.structuredContent\.sum: differs \(expected 6, got 5\)/);
    assert.match(pretty.stdout, /\$\.tools\.retired: breaking: tool "retired" was removed/);
    assert.match(pretty.stdout, /0 passed, 5 failed/);
    const one = cli(['test', wrong, '--grep', 'wrong sum']);
    assert.equal(one.status, 1);
    assert.match(one.stdout, /0 passed, 1 failed/);
    const junit = cli(['test', wrong, '--reporter=junit']);
    assert.equal(junit.status, 1);
    assert.equal(elements(junit.stdout).filter((e) => e.name === 'failure').length, 5);
    const tap = cli(['test', wrong, '--reporter', 'tap']);
    assert.equal(tap.status, 1);
    assert.match(tap.stdout, /^TAP version 13\nnot ok 1 - .*a wrong sum\n/);
    assert.match(tap.stdout, /\n1\.\.5\n$/);
  });

  it('exits 2 for a bad file (with its line and column), an unknown option or command, and nothing to run', () => {
    const broken = cli(['test', path.join('test', 'fixtures', 'mcpTests', 'broken.mcptest.json')]);
    assert.equal(broken.status, 2);
    assert.match(broken.stdout, /broken\.mcptest\.json:5:54: "tests\.1\.steps\.0\.expcet" is not an allowed property\./);
    assert.equal(cli(['test', '--reporter', 'html']).status, 2);
    assert.equal(cli(['test', '--frobnicate']).status, 2);
    assert.equal(cli(['frobnicate']).status, 2);
    assert.equal(cli(['test', 'no/such/file.mcptest.json']).status, 2);
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-cli-empty-'));
    try {
      assert.equal(cli(['test'], empty).status, 2);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('prints no control characters: an escape sequence in what it echoes is shown as text, not run by the terminal', () => {
    // The unknown-command message echoes its argument; server text (tool names in findings and
    // results) goes out through the same writer.
    const r = cli(['\u001b]0;retitled\u0007\u001b[2Jcleared\u202Ereversed']);
    assert.equal(r.status, 2);
    assert.ok(!/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u202e]/.test(r.stderr), JSON.stringify(r.stderr.slice(0, 120)));
    assert.ok(r.stderr.includes('\\u001B]0;retitled\\u0007\\u001B[2Jcleared\\u202Ereversed'), r.stderr.slice(0, 200));
  });

  it("check: Check Server's findings, exit 1 on an error finding and 0 on none", () => {
    const server = path.join('out', 'test', 'fixtures', 'servers', 'checkServer.js');
    const bad = cli(['check', '--json', '--', 'node', server], REPO, { FIXTURE_CHECK: 'bad' });
    assert.equal(bad.status, 1, bad.stderr);
    const report = JSON.parse(bad.stdout) as { protocolVersion: string; findings: { check: string; severity: string; subject?: string }[] };
    assert.equal(report.protocolVersion, '2025-11-25');
    assert.deepEqual(
      report.findings
        .filter((f) => f.severity === 'error')
        .map((f) => f.check)
        .sort(),
      ['structured-content', 'tool-schema'],
    );
    const good = cli(['check', '--', 'node', server], REPO, { FIXTURE_CHECK: 'good' });
    assert.equal(good.status, 0, good.stdout + good.stderr);
    assert.match(good.stdout, /^Check of node \(check-good 1\.0\.0, protocol 2025-11-25\): no findings\n/);
    // A configured name, from the .mcp.json above the current folder.
    const named = cli(['check', 'fixture'], path.join(REPO, 'examples', 'mcp-tests'));
    assert.match(named.stdout, /^Check of fixture \(fixture-server 1\.0\.0/);
    assert.equal(cli(['check']).status, 2);
    assert.equal(cli(['check', 'a', '--url', 'http://x']).status, 2);
    assert.match(cli(['check', 'nothere'], path.join(REPO, 'examples', 'mcp-tests')).stderr, /No server "nothere" is configured/);
  });

  it('check: the skills of a server are read and verified, as Check Server does (one gathering for both)', () => {
    const server = path.join('out', 'test', 'fixtures', 'servers', 'skillsServer.js');
    const r = cli(['check', '--json', '--', 'node', server]);
    assert.equal(r.status, 1, r.stderr);
    const report = JSON.parse(r.stdout) as { findings: { check: string; severity: string; subject?: string }[] };
    assert.deepEqual(
      report.findings.filter((f) => f.check.startsWith('skill-')).map((f) => `${f.severity} ${f.check} ${f.subject}`),
      ['error skill-verify skill://broken-digest/SKILL.md'],
    );
  });

  it("check: what a model is shown: the tool list's cost, near-duplicates, instructions and secrets in descriptions", () => {
    const server = path.join('out', 'test', 'fixtures', 'servers', 'checkServer.js');
    const r = cli(['check', '--', 'node', server], REPO, { FIXTURE_CHECK: 'model' });
    assert.equal(r.status, 1, r.stderr);
    const lines = r.stdout.split('\n').filter((l) => /^ {2}\S/.test(l));
    const expected = [
      /^ {2}error {3}description-instructions: The description of the tool "get_weather" has an <IMPORTANT>-style tag addressed to the model/,
      /^ {2}error {3}description-instructions: The description of the tool "get_weather" names credential files/,
      /^ {2}error {3}description-instructions: The description of the tool "get_weather" tells the model to keep something from the user/,
      /^ {2}error {3}description-instructions: The inputSchema\.properties\.a\.description of the tool "add_numbers" tells the model to ignore its instructions/,
      /^ {2}error {3}description-instructions: The description of the tool "notes" has invisible characters/,
      /^ {2}error {3}description-secret: The description of the tool "connect_db" carries what looks like a credential \(credential assignment\)/,
      /^ {2}warning tool-list-cost: The tool list costs a model about 1\d,\d{3} tokens on every request .* Largest: "search_docs" ~1\d,\d{3} \(9\d%\)/,
      /^ {2}warning tool-near-duplicate: The tools "read_file" and "read_files" are easy for a model to confuse/,
      /^ {2}warning description-instructions: The description of the tool "add_numbers" tells the model which tool it must call/,
    ];
    for (const pattern of expected)
      assert.ok(
        lines.some((l) => pattern.test(l)),
        `no line matching ${pattern} in:\n${r.stdout}`,
      );
    assert.ok(!r.stdout.includes('sk_live'), 'the credential itself is never printed');
  });

  it('load mode: --concurrency, --rate and --iterations run each test many times and print p50 / p99 / max per step', () => {
    const example = path.join('examples', 'mcp-tests', 'fixture-2025.mcptest.json');
    const r = cli(['test', example, '--concurrency', '3', '--rate', '100', '--iterations', '4']);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^Load: examples\/mcp-tests\/fixture-2025\.mcptest\.json: \d+ runs, concurrency 3, at most 100 runs\/s, \d+\.\d s; 0 failed\n/);
    assert.match(r.stdout, /\n {2}step +n +errors +p50 +p99 +max\n/);
    assert.match(r.stdout, /\n {2}add twice, snapshot without the call counter › 2 callTool add +4 +0 +\d+(\.\d)? ms +\d+(\.\d)? ms +\d+(\.\d)? ms\n/);
    const wrong = cli(['test', path.join('test', 'fixtures', 'mcpTests', 'wrong.mcptest.json'), '--concurrency', '2', '--iterations', '2']);
    assert.equal(wrong.status, 1, wrong.stdout + wrong.stderr);
    assert.match(wrong.stdout, /\n {2}✗ a wrong sum: .*\n/);
    assert.equal(cli(['test', example, '--concurrency', '0']).status, 2);
    assert.equal(cli(['test', example, '--rate', 'fast']).status, 2);
    assert.equal(cli(['test', example, '--concurrency', '2', '--reporter', 'junit']).status, 2);
  });

  it('writes snapshots with --update-snapshots, then passes without it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-cli-update-'));
    try {
      const fixture = path.join(REPO, 'out', 'test', 'fixtures', 'servers', 'modernStdioServer.js');
      const file = path.join(dir, 'fresh.mcptest.json');
      fs.writeFileSync(
        file,
        JSON.stringify({
          server: { command: 'node', args: [fixture], protocolEra: 'modern' },
          tests: [
            { name: 'echo', steps: [{ callTool: { name: 'echo', arguments: { text: '${input:word}' } }, expect: { snapshot: true } }] },
            { name: 'surface', capabilitySnapshot: true },
          ],
        }),
      );
      const first = cli(['test', '--input', 'word=kept'], dir);
      assert.equal(first.status, 1, 'no snapshot is stored yet');
      assert.match(first.stdout, /no snapshot "echo › step 1" is stored; run with --update-snapshots to write it/);
      const update = cli(['test', '--update-snapshots', '--input', 'word=kept'], dir);
      assert.equal(update.status, 0, update.stdout + update.stderr);
      const stored = fs.readFileSync(path.join(dir, '__snapshots__', 'fresh.mcptest.json.snap.json'), 'utf8');
      assert.match(stored, /kept/);
      assert.match(stored, /"surface › capabilities"/);
      assert.equal(cli(['test', '--input', 'word=kept'], dir).status, 0);
      const changed = cli(['test', '--input', 'word=other'], dir);
      assert.equal(changed.status, 1);
      assert.match(changed.stdout, /\$\.content\[0\]\.text: differs/);
      // The input is never stored in the test file.
      assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /kept/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
