/**
 * The dev loop restarts a server only when a watched file's content changed (issue 29: a save
 * that changed nothing restarted it). Against real files in a temp folder.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { globRegExp, SEED_LIMITS, WatchedContent } from '../../../src/debug/common/watchedContent';

describe('dev.watch content', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-watched-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Writes files with an mtime in the past: seeding leaves files written after it started unknown. */
  function write(rel: string, text: string, ageMs = 60_000): string {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    const at = new Date(Date.now() - ageMs);
    fs.utimesSync(file, at, at);
    return file;
  }

  it('matches globs as VS Code does for *, **, ?, {a,b} and [..]', () => {
    const cases: [string, string, boolean][] = [
      ['*.js', 'index.js', true],
      ['*.js', 'lib/index.js', false],
      ['*.js', 'index.ts', false],
      ['**/*.ts', 'a.ts', true],
      ['**/*.ts', 'a/b/c.ts', true],
      ['**/*.ts', 'a/b/c.tsx', false],
      ['**', 'a/b/c', true],
      ['src/**/x.py', 'src/x.py', true],
      ['src/**/x.py', 'src/a/b/x.py', true],
      ['*.{js,mjs}', 'a.mjs', true],
      ['*.{js,mjs}', 'a.cjs', false],
      ['file?.txt', 'file1.txt', true],
      ['[ab].txt', 'a.txt', true],
      ['[!ab].txt', 'a.txt', false],
      ['[!ab].txt', 'c.txt', true],
      ['a+b(1).txt', 'a+b(1).txt', true],
      ['a.txt', 'aXtxt', false],
    ];
    for (const [glob, file, expected] of cases) assert.equal(globRegExp(glob).test(file), expected, `${glob} vs ${file}`);
  });

  it('a save that leaves the content as seeded is no change; a real edit is one, once', async () => {
    const file = write('server.js', 'console.log(1)\n');
    const content = new WatchedContent();
    await content.seed([{ base: dir, pattern: '*.js' }]);
    assert.equal(content.size, 1);
    // Ctrl+S on a clean file: the editor writes the same bytes again.
    fs.writeFileSync(file, 'console.log(1)\n');
    assert.equal(await content.changed(file), false, 'same bytes: not a change');
    fs.writeFileSync(file, 'console.log(2)\n');
    assert.equal(await content.changed(file), true, 'new bytes: a change');
    // The watcher's echo of that save, and the auto-save then Ctrl+S: the content is already known.
    assert.equal(await content.changed(file), false);
    assert.equal(await content.changed(file), false);
    // Back to the first content is a change again.
    fs.writeFileSync(file, 'console.log(1)\n');
    assert.equal(await content.changed(file), true);
  });

  it('a new file and a deleted file are changes; a file the seed did not read counts', async () => {
    write('a.js', 'a');
    const content = new WatchedContent();
    await content.seed([{ base: dir, pattern: '*.js' }]);
    const created = write('b.js', 'b', 0);
    assert.equal(await content.changed(created), true, 'created');
    fs.rmSync(path.join(dir, 'a.js'));
    assert.equal(await content.changed(path.join(dir, 'a.js')), true, 'deleted');
    assert.equal(await content.changed(path.join(dir, 'a.js')), false, 'deleted and still gone');
  });

  it('seeds only what the pattern matches, below its folder, skipping node_modules unless named', async () => {
    write('src/a.ts', 'a');
    write('src/deep/b.ts', 'b');
    write('src/deep/c.js', 'c');
    write('src/node_modules/dep/d.ts', 'd');
    const content = new WatchedContent();
    await content.seed([{ base: path.join(dir, 'src'), pattern: '**/*.ts' }]);
    assert.equal(content.size, 2);
    assert.equal(await content.changed(path.join(dir, 'src/deep/b.ts')), false);
    assert.equal(await content.changed(path.join(dir, 'src/deep/c.js')), true, 'not matched, so unknown');
    const flat = new WatchedContent();
    await flat.seed([{ base: path.join(dir, 'src'), pattern: '*.ts' }]);
    assert.equal(flat.size, 1, 'a flat pattern does not descend');
  });

  it('a file written after the seed started stays unknown, so its event counts', async () => {
    const file = write('late.js', 'new', 0);
    const content = new WatchedContent();
    // The seed "started" a minute ago: the file changed since, maybe after the server read it.
    await content.seed([{ base: dir, pattern: '*.js' }], Date.now() - 30_000);
    assert.equal(content.size, 0);
    assert.equal(await content.changed(file), true);
    // Written a second before the seed: within the margin for coarse file clocks, so unknown too.
    const recent = write('recent.js', 'recent', 1000);
    const now = new WatchedContent();
    await now.seed([{ base: dir, pattern: 'recent.js' }]);
    assert.equal(now.size, 0);
    assert.equal(await now.changed(recent), true);
  });

  it('an event before the seed reaches its file keeps what the event saw', async () => {
    const file = write('x.js', 'one');
    const content = new WatchedContent();
    fs.writeFileSync(file, 'two');
    const first = content.changed(file);
    await content.seed([{ base: dir, pattern: '*.js' }], Date.now() + 60_000);
    assert.equal(await first, true);
    assert.equal(await content.changed(file), false, 'the seed did not overwrite the newer hash');
  });

  it('events of one file are compared one after another (a save and its echo at once are one change)', async () => {
    const file = write('s.js', 'one');
    const content = new WatchedContent();
    await content.seed([{ base: dir, pattern: '*.js' }]);
    fs.writeFileSync(file, 'two');
    const results = await Promise.all([content.changed(file), content.changed(file), content.changed(file)]);
    assert.deepEqual(results, [true, false, false]);
  });

  it('leaves files over the size cap unknown', async () => {
    const big = write('big.js', 'x'.repeat(SEED_LIMITS.bytes + 1));
    const content = new WatchedContent();
    await content.seed([{ base: dir, pattern: '*.js' }]);
    assert.equal(content.size, 0);
    assert.equal(await content.changed(big), true);
  });
});
