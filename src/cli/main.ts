/**
 * `mcp-workbench`: the command line of MCP Workbench, bundled to dist/cli.js. It runs saved MCP
 * tests (`*.mcptest.json`) with the same pure runner as the editor, for CI.
 *
 *   mcp-workbench test [files…] [--reporter pretty|junit|tap] [--update-snapshots] [--input id=value]…
 *   mcp-workbench test [files…] --concurrency N [--rate R] [--iterations K]   (load mode: p50/p99 per step)
 *
 * Exit status: 0 every test passed, 1 a test failed (or its server did not start), 2 bad usage or
 * a test file that cannot be read.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ConnectionHost } from '../mcp/connection/connectionTypes';
import { report, REPORTERS, totals, type FileResult, type ReporterName } from '../mcpTests/common/reporters';
import { runTestFile } from '../mcpTests/common/runFile';
import { DEFAULT_ITERATIONS, formatLoad, type LoadOptions } from '../mcpTests/common/loadRun';
import { snapshotPathOf } from '../mcpTests/common/snapshots';
import { findTestFiles, projectConfig, readIfExists } from './projectFiles';
import { CHECK_USAGE, checkCommand } from './checkCommand';
import { revealControlCharacters } from '../shared/common/untrustedText';

declare const MCPWB_CLI_VERSION: string | undefined;
const VERSION = typeof MCPWB_CLI_VERSION === 'string' ? MCPWB_CLI_VERSION : '0.0.0-dev';

export const USAGE = `Usage:
  mcp-workbench test [files or folders…] [--reporter pretty|junit|tap] [--update-snapshots] [--input <id>=<value>]… [--grep <text>]
      Runs saved MCP tests (*.mcptest.json; default: every one under the current folder).
      --reporter          pretty (default), junit (JUnit XML) or tap (TAP 13), on stdout
      --update-snapshots  write the snapshots that are missing or differ instead of failing
      --input id=value    the value of \${input:id} (or set MCPWB_INPUT_<ID> in the environment)
      --grep text         run only the tests whose name contains the text
      --concurrency N     load mode: each test runs --iterations times (default ${DEFAULT_ITERATIONS}), N runs at a time,
      --rate R            at most R runs started a second; prints p50 / p99 / max per step (exit 1 if a run failed)
      --iterations K      load mode: how many times each test runs
${CHECK_USAGE}
  mcp-workbench --version | --help
Exit status: 0 all tests passed (check: no error finding), 1 a test failed (check: an error finding), 2 bad usage or an unreadable test file.`;

export interface CliIo {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  stdout(text: string): void;
  stderr(text: string): void;
}

interface TestArgs {
  paths: string[];
  reporter: ReporterName;
  updateSnapshots: boolean;
  inputs: Record<string, string>;
  /** Only tests whose name contains this text. */
  grep?: string;
  /** Load mode, when --concurrency, --rate or --iterations is given. */
  load?: LoadOptions;
}

function parseTestArgs(args: string[]): TestArgs | string {
  const parsed: TestArgs = { paths: [], reporter: 'pretty', updateSnapshots: false, inputs: {} };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? args[++i];
    if (flag === '--reporter') {
      const name = value();
      if (!REPORTERS.includes(name as ReporterName)) return `--reporter must be one of ${REPORTERS.join(', ')}${name ? `, not "${name}"` : ''}.`;
      parsed.reporter = name as ReporterName;
    } else if (flag === '--update-snapshots' || flag === '-u') parsed.updateSnapshots = true;
    else if (flag === '--input') {
      const pair = value();
      const eq = pair?.indexOf('=') ?? -1;
      if (!pair || eq <= 0) return '--input needs <id>=<value>.';
      parsed.inputs[pair.slice(0, eq)] = pair.slice(eq + 1);
    } else if (flag === '--grep') {
      parsed.grep = value();
      if (!parsed.grep) return '--grep needs the text a test name contains.';
    } else if (flag === '--concurrency' || flag === '--rate' || flag === '--iterations') {
      const n = Number(value());
      if (!Number.isFinite(n) || n <= 0 || (flag !== '--rate' && !Number.isInteger(n)))
        return `${flag} needs a positive ${flag === '--rate' ? 'number' : 'whole number'}.`;
      const load = (parsed.load ??= { concurrency: 1, iterations: DEFAULT_ITERATIONS });
      if (flag === '--concurrency') load.concurrency = n;
      else if (flag === '--rate') load.rate = n;
      else load.iterations = n;
    } else if (flag.startsWith('-')) return `Unknown option ${flag}.`;
    else parsed.paths.push(arg);
  }
  if (parsed.load && (parsed.updateSnapshots || parsed.reporter !== 'pretty'))
    return 'Load mode (--concurrency, --rate, --iterations) prints its own table: it takes no --reporter and writes no snapshots.';
  return parsed;
}

/**
 * Runs the command line; resolves to the exit status. Everything it prints goes through
 * `revealControlCharacters`: findings and results carry server text, and an escape sequence in a
 * tool name must not drive the terminal or a CI log viewer (retitle it, hide lines, forge links).
 */
export async function main(argv: string[], terminal: CliIo): Promise<number> {
  const io: CliIo = {
    ...terminal,
    stdout: (text) => terminal.stdout(revealControlCharacters(text)),
    stderr: (text) => terminal.stderr(revealControlCharacters(text)),
  };
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v') {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  if (command === 'check') return checkCommand(rest, io);
  if (command !== 'test') {
    io.stderr(`${command ? `Unknown command "${command}".` : 'No command given.'}\n${USAGE}\n`);
    return 2;
  }
  const args = parseTestArgs(rest);
  if (typeof args === 'string') {
    io.stderr(`${args}\n${USAGE}\n`);
    return 2;
  }
  const files: string[] = [];
  for (const p of args.paths.length ? args.paths : ['.']) {
    const full = path.resolve(io.cwd, p);
    if (!fs.existsSync(full)) {
      io.stderr(`${p} does not exist.\n`);
      return 2;
    }
    files.push(...(fs.statSync(full).isDirectory() ? findTestFiles(full) : [full]));
  }
  if (!files.length) {
    io.stderr(`No *.mcptest.json files found in ${args.paths.join(', ') || io.cwd}.\n`);
    return 2;
  }
  const results: FileResult[] = [];
  let badFiles = 0;
  let loadFailed = false;
  for (const file of files) {
    const name = path.relative(io.cwd, file) || file;
    const text = readIfExists(file);
    if (text === undefined) {
      results.push({ file: name, tests: [], error: 'The file cannot be read.', durationMs: 0 });
      badFiles++;
      continue;
    }
    const { folder, configs } = projectConfig(path.dirname(file));
    const stderr: string[] = [];
    const workspace = folder ?? path.dirname(file);
    const host: ConnectionHost = {
      clientInfo: { name: 'mcp-workbench-cli', version: VERSION },
      roots: () => [{ uri: pathToFileURL(workspace).href, name: path.basename(workspace) }],
      baseEnv: async () => ({ ...io.env }),
      serverLogLevel: () => undefined,
    };
    const snapshotFile = snapshotPathOf(file);
    const outcome = await runTestFile({
      file: name,
      text,
      snapshotText: readIfExists(snapshotFile),
      env: { fileDir: path.dirname(file), workspaceFolder: folder, configs, env: io.env, inputs: args.inputs, userHome: os.homedir() },
      updateSnapshots: args.updateSnapshots,
      load: args.load,
      only: args.grep === undefined ? undefined : (test) => test.includes(args.grep!),
      host,
      log: { log: () => undefined, stderr: (line) => stderr.push(line) },
    });
    if (outcome.problems.some((p) => p.severity === 'error')) badFiles++;
    // A server that did not start says why on its stderr more often than in its answer.
    if (outcome.result.error && stderr.length) outcome.result.error += `\nLast lines of the server's stderr:\n${stderr.slice(-10).join('\n')}`;
    if (outcome.snapshotText !== undefined) {
      fs.mkdirSync(path.dirname(snapshotFile), { recursive: true });
      fs.writeFileSync(snapshotFile, outcome.snapshotText);
      io.stderr(`Wrote ${path.relative(io.cwd, snapshotFile)}\n`);
    }
    results.push(outcome.result);
    if (outcome.load) {
      loadFailed ||= outcome.load.failedRuns > 0;
      io.stdout(formatLoad(name, outcome.load));
    } else if (args.load && outcome.result.error) io.stdout(`Load: ${name}: ${outcome.result.error}\n`);
  }
  if (args.load) return badFiles ? 2 : loadFailed || results.some((r) => r.error) ? 1 : 0;
  io.stdout(report(args.reporter, results));
  if (badFiles) return 2;
  const { failed, fileErrors } = totals(results);
  return failed || fileErrors ? 1 : 0;
}
