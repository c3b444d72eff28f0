/**
 * The extension's entry point, src/codeCacheLoader.ts (issue 30): it compiles the bundle with
 * V8's code cache made by an earlier activation, and never with a cache made for other code.
 * Real files, real V8; the bundles here are small CommonJS files written for the test.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cacheFileFor, loadWithCodeCache, threadSchedule } from '../../src/codeCacheLoader';

describe('the code cache loader (src/codeCacheLoader.ts)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'code-cache-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Loads `bundle` in a fresh Node process; what the loader said and what the bundle answers. */
  function inChild(bundle: string, storage: string): { use: string; answer: number } {
    const loader = path.resolve(__dirname, '../../src/codeCacheLoader.js');
    const script = `const l = require(${JSON.stringify(loader)}).loadWithCodeCache(${JSON.stringify(bundle)}, ${JSON.stringify(storage)}); console.log(JSON.stringify({ use: l.use, answer: l.exports.answer() }));`;
    return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { use: string; answer: number };
  }

  /** A bundle that requires a sibling file, a built-in, and exports what it read. */
  function writeBundle(answer: number, mtime: Date): string {
    fs.writeFileSync(path.join(dir, 'sibling.js'), 'module.exports = { sibling: true };');
    const bundle = path.join(dir, 'bundle.js');
    fs.writeFileSync(
      bundle,
      `'use strict';\nconst path = require('node:path');\nexports.answer = () => ${answer};\nexports.sibling = require('./sibling.js').sibling;\nexports.where = path.basename(__filename) + ':' + path.basename(__dirname) + ':' + (module.exports === exports) + ':' + require.resolve('./sibling.js');\n`,
    );
    fs.utimesSync(bundle, mtime, mtime);
    return bundle;
  }

  it('runs the file as require would, makes the cache on the first load and uses it on the next', async () => {
    const bundle = writeBundle(42, new Date(2026, 0, 1));
    const storage = path.join(dir, 'storage');
    const first = loadWithCodeCache(bundle, storage);
    assert.equal(first.use, 'made');
    assert.equal((first.exports as unknown as { answer(): number }).answer(), 42);
    assert.equal((first.exports as unknown as { sibling: boolean }).sibling, true);
    assert.equal((first.exports as unknown as { where: string }).where, `bundle.js:${path.basename(dir)}:true:${path.join(dir, 'sibling.js')}`);
    assert.equal(require.cache[bundle]?.exports, first.exports, 'registered in require.cache under its own name');
    await first.makeCache();
    assert.ok(fs.existsSync(cacheFileFor(bundle, storage)!), 'the cache was written');
    delete require.cache[bundle];
    // In another process: in this one V8 finds the code in its own compilation cache and would
    // not even look at the code cache.
    assert.deepEqual(inChild(bundle, storage), { use: 'used', answer: 42 });
  });

  it('never compiles a changed bundle with the old cache, even one of the same length', async () => {
    const storage = path.join(dir, 'storage');
    const old = writeBundle(41, new Date(2026, 0, 1));
    const first = loadWithCodeCache(old, storage);
    await first.makeCache();
    delete require.cache[old];
    // Same length, other code, other modification time (an update of the extension).
    const bundle = writeBundle(42, new Date(2026, 0, 2));
    assert.deepEqual(inChild(bundle, storage), { use: 'made', answer: 42 });
    const second = loadWithCodeCache(bundle, storage);
    await second.makeCache();
    assert.deepEqual(
      fs.readdirSync(storage).filter((f) => f.startsWith('code-cache-')),
      [path.basename(cacheFileFor(bundle, storage)!)],
      'the old cache is removed when the new one is written',
    );
    delete require.cache[bundle];
  });

  it('without a place to keep the cache, or with an unreadable one, compiles without it', () => {
    const bundle = writeBundle(7, new Date(2026, 0, 1));
    const off = loadWithCodeCache(bundle, undefined);
    assert.equal(off.use, 'off');
    delete require.cache[bundle];
    const storage = path.join(dir, 'storage');
    fs.mkdirSync(storage);
    fs.writeFileSync(cacheFileFor(bundle, storage)!, 'not a code cache');
    assert.deepEqual(inChild(bundle, storage), { use: 'rejected', answer: 7 });
  });

  it('reads a bundle that is not ASCII as UTF-8', () => {
    // esbuild writes ASCII, which the loader reads as latin1 (no decoding); anything else must
    // still come out as Node's loader would read it.
    const bundle = path.join(dir, 'utf8.js');
    const text = (source: string) => {
      fs.writeFileSync(bundle, source);
      const loaded = loadWithCodeCache(bundle, undefined).exports as unknown as { text: string };
      delete require.cache[bundle];
      return loaded.text;
    };
    assert.equal(text("exports.text = 'déjà vu ✓ 🙂';\n"), 'déjà vu ✓ 🙂');
    assert.equal(text("exports.text = 'd\\u00e9j\\u00e0 vu \\u2713 \\ud83d\\ude42';\n"), 'déjà vu ✓ 🙂', 'as esbuild writes it');
  });

  it("reads this thread's CPU and wait time, in ns, as activation reports them (Linux)", function () {
    if (process.platform !== 'linux') this.skip();
    const start = threadSchedule();
    assert.ok(start, 'no /proc/thread-self/schedstat');
    // Work until the thread has run 20 ms more (however long the machine makes that take).
    const process0 = process.cpuUsage();
    let now = start;
    const deadline = Date.now() + 10_000;
    while (now[0] - start[0] < 20e6 && Date.now() < deadline) {
      for (let i = 0; i < 1e5; i++) Math.sqrt(i);
      now = threadSchedule()!;
    }
    const ranMs = (now[0] - start[0]) / 1e6;
    const processMs = Object.values(process.cpuUsage(process0)).reduce((a, b) => a + b, 0) / 1e3;
    assert.ok(ranMs >= 20, `the thread ran ${ranMs} ms`);
    // The thread's CPU time is part of the process's (ns against µs: a unit slip fails one or the other).
    assert.ok(ranMs <= processMs + 10 && processMs < ranMs * 50, `thread ${ranMs} ms, process ${processMs} ms`);
    assert.ok(now[1] >= start[1], 'the wait time went back');
  });
});
