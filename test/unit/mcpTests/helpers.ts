/** Shared paths and a runner of test files on the real fixture servers for the saved-test suites. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTestFile, type RunFileOutcome } from '../../../src/mcpTests/common/runFile';
import { snapshotPathOf } from '../../../src/mcpTests/common/snapshots';
import { projectConfig } from '../../../src/cli/projectFiles';
import { recordingHost, RecordingLog } from '../mcp/testHost';

export const REPO = path.resolve(__dirname, '..', '..', '..', '..');
export const EXAMPLES = path.join(REPO, 'examples', 'mcp-tests');
export const FIXTURES = path.join(REPO, 'test', 'fixtures', 'mcpTests');
export const CLI = path.join(REPO, 'dist', 'cli.js');

export function exampleFiles(): string[] {
  return fs
    .readdirSync(EXAMPLES)
    .filter((n) => n.endsWith('.mcptest.json'))
    .sort()
    .map((n) => path.join(EXAMPLES, n));
}

/** Runs one file with the pure runner, as the command line does, reading its snapshots (never writing them). */
export function runFile(
  file: string,
  options: {
    updateSnapshots?: boolean;
    now?: () => number;
    env?: Record<string, string | undefined>;
    inputs?: Record<string, string>;
    text?: string;
    snapshotText?: string;
    only?: (name: string) => boolean;
  } = {},
): Promise<RunFileOutcome> {
  const { folder, configs } = projectConfig(path.dirname(file));
  const snapshot = snapshotPathOf(file);
  return runTestFile({
    file: path.relative(REPO, file),
    text: options.text ?? fs.readFileSync(file, 'utf8'),
    snapshotText: 'snapshotText' in options ? options.snapshotText : fs.existsSync(snapshot) ? fs.readFileSync(snapshot, 'utf8') : undefined,
    env: {
      fileDir: path.dirname(file),
      workspaceFolder: folder,
      configs,
      env: options.env ?? process.env,
      inputs: options.inputs ?? {},
      userHome: os.homedir(),
    },
    updateSnapshots: options.updateSnapshots ?? false,
    now: options.now,
    only: options.only,
    host: recordingHost(),
    log: new RecordingLog(),
  });
}
