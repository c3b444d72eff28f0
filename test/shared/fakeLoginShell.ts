/**
 * A login shell for tests, in `dir`: called as `shell -ilc <command>` (as readLoginShellPath calls
 * one), it counts its starts and runs the command with the PATH written in its file. Real enough
 * to be what the Workbench and its language server start; only the user's profile is left out.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface FakeLoginShell {
  /** The script, for `$SHELL`. */
  shell: string;
  /** The PATH the next start answers with. */
  setPath(value: string): void;
  /** How often it was started. */
  starts(): number;
  /** Starts from now on wait to answer until `release` (each still within the reader's timeout). */
  hold(): void;
  release(): void;
}

export function fakeLoginShell(dir: string, initialPath: string): FakeLoginShell {
  const shell = path.join(dir, 'shell');
  const pathFile = path.join(dir, 'path');
  const startsFile = path.join(dir, 'starts');
  const holdFile = path.join(dir, 'hold');
  fs.writeFileSync(
    shell,
    `#!/bin/sh\nprintf x >> "${startsFile}"\nwhile [ -f "${holdFile}" ]; do sleep 0.05; done\nPATH="$(cat "${pathFile}")"\nexport PATH\nexec /bin/sh -c "$2"\n`,
    { mode: 0o755 },
  );
  const setPath = (value: string) => fs.writeFileSync(pathFile, value);
  setPath(initialPath);
  return {
    shell,
    setPath,
    starts: () => (fs.existsSync(startsFile) ? fs.readFileSync(startsFile, 'utf8').length : 0),
    hold: () => fs.writeFileSync(holdFile, ''),
    release: () => fs.rmSync(holdFile, { force: true }),
  };
}
