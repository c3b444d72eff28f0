import * as assert from 'node:assert/strict';
import { actionOnChange, displayPath, normalizeWatch, splitWatchGlob, Throttle, watchRoots, watchTargets } from '../../../src/debug/common/devWatch';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('dev.watch policy', () => {
  describe('globs', () => {
    it('normalizes watch values', () => {
      assert.deepEqual(normalizeWatch('src/**'), ['src/**']);
      assert.deepEqual(normalizeWatch(['a', '', 3, 'b']), ['a', 'b']);
      assert.deepEqual(normalizeWatch('  '), []);
      assert.deepEqual(normalizeWatch(undefined), []);
    });

    it('splits globs into a folder and a pattern', () => {
      assert.deepEqual(splitWatchGlob('src/**/*.ts', '/proj'), { base: '/proj/src', pattern: '**/*.ts' });
      assert.deepEqual(splitWatchGlob('./dist/*.js', '/proj/'), { base: '/proj/dist', pattern: '*.js' });
      assert.deepEqual(splitWatchGlob('${workspaceFolder}/lib/**', '/proj/sub', { workspaceFolder: '/proj' }), { base: '/proj/lib', pattern: '**' });
      assert.deepEqual(splitWatchGlob('/abs/file.txt', '/proj'), { base: '/abs', pattern: 'file.txt' });
      assert.deepEqual(splitWatchGlob('**/*.py', '/proj'), { base: '/proj', pattern: '**/*.py' });
      assert.deepEqual(splitWatchGlob('src\\**\\*.ts', 'C:\\proj'), { base: 'C:/proj/src', pattern: '**/*.ts' });
    });

    it('relative globs start at the server cwd, else its workspace folder, else the fallback', () => {
      assert.deepEqual(watchRoots({ cwd: '/proj/server', workspaceFolder: '/proj', fallback: '/home' }), { cwd: '/proj/server', workspaceFolder: '/proj' });
      assert.deepEqual(watchRoots({ workspaceFolder: '/proj', fallback: '/home' }), { cwd: '/proj', workspaceFolder: '/proj' });
      assert.deepEqual(watchRoots({ fallback: '/home' }), { cwd: '/home', workspaceFolder: undefined });
    });

    it('watches each glob from its deepest plain folder', () => {
      assert.deepEqual(
        watchTargets(['src/**/*.ts', '${workspaceFolder}/shared/*.json', 'index.js', '/elsewhere/lib/*.py'], { cwd: '/proj/server', workspaceFolder: '/proj' }),
        [
          { base: '/proj/server/src', pattern: '**/*.ts' },
          { base: '/proj/shared', pattern: '*.json' },
          { base: '/proj/server', pattern: 'index.js' },
          { base: '/elsewhere/lib', pattern: '*.py' },
        ],
      );
    });

    it('names a changed file relative to the cwd, then the workspace folder, else in full', () => {
      assert.equal(displayPath('/proj/server/src/x.ts', ['/proj/server', '/proj']), 'src/x.ts');
      assert.equal(displayPath('/proj/shared/a.json', ['/proj/server', '/proj/']), 'shared/a.json');
      assert.equal(displayPath('/elsewhere/a.json', ['/proj/server', undefined]), '/elsewhere/a.json');
      // A sibling folder that merely shares the prefix is not "inside".
      assert.equal(displayPath('/proj/server2/a.ts', ['/proj/server']), '/proj/server2/a.ts');
      assert.equal(displayPath('C:\\proj\\src\\x.ts', ['C:\\proj']), 'src/x.ts');
    });
  });

  describe('what a change does', () => {
    it('restarts running, starting and failed servers; leaves stopped ones and debug sessions alone', () => {
      assert.equal(actionOnChange('running', false), 'restart');
      assert.equal(actionOnChange('starting', false), 'restart');
      assert.equal(actionOnChange('error', false), 'restart');
      assert.equal(actionOnChange('stopped', false), 'stopped');
      assert.equal(actionOnChange('needsAuth', false), 'stopped');
      assert.equal(actionOnChange('running', true), 'debugSession');
      assert.equal(actionOnChange('stopped', true), 'debugSession');
    });
  });

  describe('Throttle', () => {
    it('runs once per burst, with the last value and the count of triggers', async () => {
      const runs: [string, number][] = [];
      const t = new Throttle<string>(
        async (file, count) => {
          runs.push([file, count]);
        },
        30,
        (e) => {
          throw e;
        },
      );
      for (const f of ['a', 'b', 'c', 'd', 'e']) t.trigger(f);
      assert.ok(t.busy);
      await sleep(150);
      assert.deepEqual(runs, [['e', 5]]);
      assert.ok(!t.busy);
      t.dispose();
    });

    it('waits for the burst to end: a trigger within the delay postpones the run', async () => {
      let runs = 0;
      const t = new Throttle<void>(
        async () => {
          runs++;
        },
        60,
        (e) => {
          throw e;
        },
      );
      t.trigger();
      await sleep(30);
      t.trigger();
      await sleep(40);
      assert.equal(runs, 0, '70 ms after the first trigger, 40 after the last');
      await sleep(100);
      assert.equal(runs, 1);
      t.dispose();
    });

    it('queues exactly one more run for any number of triggers during a run', async () => {
      const runs: [string, number][] = [];
      let release: () => void = () => undefined;
      const t = new Throttle<string>(
        (file, count) => {
          runs.push([file, count]);
          return new Promise<void>((r) => {
            release = r;
          });
        },
        20,
        (e) => {
          throw e;
        },
      );
      t.trigger('first');
      await sleep(80);
      assert.equal(runs.length, 1);
      t.trigger('x');
      t.trigger('y');
      t.trigger('z');
      await sleep(80);
      assert.equal(runs.length, 1, 'nothing runs while a run is in progress');
      release();
      await sleep(100);
      assert.deepEqual(runs, [
        ['first', 1],
        ['z', 3],
      ]);
      release();
      await sleep(80);
      assert.equal(runs.length, 2, 'and no more after that');
      t.dispose();
    });

    it('hands a failed run to onError instead of dropping it, and keeps running later bursts', async () => {
      const errors: unknown[] = [];
      let runs = 0;
      const t = new Throttle<void>(
        async () => {
          if (++runs === 1) throw new Error('restart failed');
        },
        5,
        (e) => errors.push(e),
      );
      t.trigger();
      await sleep(50);
      assert.deepEqual(
        errors.map((e) => (e as Error).message),
        ['restart failed'],
      );
      t.trigger();
      await sleep(50);
      assert.equal(runs, 2, 'a failure does not stop later runs');
      assert.equal(errors.length, 1);
      t.dispose();
    });

    it('runs nothing after dispose, not even what was queued', async () => {
      let runs = 0;
      let release: () => void = () => undefined;
      const t = new Throttle<void>(
        () => {
          runs++;
          return new Promise<void>((r) => {
            release = r;
          });
        },
        10,
        (e) => {
          throw e;
        },
      );
      t.trigger();
      await sleep(50);
      t.trigger();
      t.dispose();
      release();
      await sleep(60);
      t.trigger();
      await sleep(40);
      assert.equal(runs, 1);
    });
  });
});
