/**
 * Every notification goes through src/shared/notifications.ts, which makes server and config
 * text plain (no live `command:` links): a direct call to VS Code's notification API anywhere
 * else in src/ would bypass it.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../../..');
const GATEWAY = 'src/shared/notifications.ts';
const DIRECT = /window\s*\.\s*show(?:Error|Warning|Information)Message\s*\(|ProgressLocation\s*\.\s*Notification/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : name.endsWith('.ts') ? [full] : [];
  });
}

describe('notifications', () => {
  it(`are shown only through ${GATEWAY}`, () => {
    const direct: string[] = [];
    for (const file of sourceFiles(path.join(REPO, 'src'))) {
      const rel = path.relative(REPO, file).split(path.sep).join('/');
      if (rel === GATEWAY) continue;
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (DIRECT.test(line)) direct.push(`${rel}:${i + 1}: ${line.trim()}`);
        DIRECT.lastIndex = 0;
      });
    }
    assert.deepEqual(direct, []);
  });
});
