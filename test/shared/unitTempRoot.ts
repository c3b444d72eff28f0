// Loaded by mocha before any unit test (.mocharc `require`): every temp folder the unit tests
// or the fixture servers they spawn create (os.tmpdir() reads TMPDIR/TEMP/TMP on each call, and
// children inherit them) lands in one folder per run, removed when the run ends. Before this,
// each `npm test` left dozens of `mcpwb-*`, `fixture-*` and `mcp-faults-*` folders in /tmp.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

//
// With `mocha --parallel` this file is loaded by the main process and again by each worker: the
// workers inherit the main process's folder (MCPWB_UNIT_TMP_ROOT) and leave its removal to it,
// since a worker runs root hooks once per test file and is killed, not exited, at the end.
const inherited = process.env.MCPWB_UNIT_TMP_ROOT;
const root = inherited ?? fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-unit-'));
process.env.MCPWB_UNIT_TMP_ROOT = root;
for (const name of ['TMPDIR', 'TEMP', 'TMP']) process.env[name] = root;

function removeRoot(): void {
  if (inherited || process.env.MCPWB_KEEP_TMP) return;
  try {
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // A child still writing there; the OS cleans its temp folder eventually.
  }
}

export const mochaHooks = { afterAll: removeRoot };
process.on('exit', removeRoot);
