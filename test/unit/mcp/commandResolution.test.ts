import * as assert from 'node:assert/strict';
import { describeMissingCommand, describeSearchedPath, mergePaths, readLoginShellPath, resolveCommand } from '../../../src/mcp/process/commandResolution';

describe('resolveCommand', () => {
  it('searches PATH in order on POSIX', () => {
    const files = new Set(['/b/node', '/c/node']);
    const r = resolveCommand('node', { pathValue: '/a:/b:/c', platform: 'linux', isExecutableFile: (f) => files.has(f) });
    assert.deepEqual(r, { resolved: '/b/node', searched: ['/a', '/b', '/c'], needsShell: false });
  });

  it('uses PATHEXT on Windows and runs .cmd shims through cmd', () => {
    const files = new Set(['C:\\node\\npx.cmd']);
    const r = resolveCommand('npx', { pathValue: 'C:\\bin;C:\\node', pathExt: '.COM;.EXE;.CMD', platform: 'win32', isExecutableFile: (f) => files.has(f) });
    assert.equal(r.resolved, 'C:\\node\\npx.cmd');
    assert.equal(r.needsShell, true);
    const exe = resolveCommand('node.exe', { pathValue: 'C:\\n', platform: 'win32', isExecutableFile: (f) => f === 'C:\\n\\node.exe' });
    assert.equal(exe.needsShell, false);
  });

  it('resolves relative paths against cwd and says what was searched', () => {
    const r = resolveCommand('./server', { pathValue: '/a', platform: 'linux', cwd: '/w', isExecutableFile: () => false });
    assert.equal(r.resolved, undefined);
    assert.match(describeMissingCommand('./server', r), /does not exist/);
    const missing = resolveCommand('uvx', { pathValue: '/usr/bin:/bin', platform: 'linux', isExecutableFile: () => false });
    assert.equal(describeMissingCommand('uvx', missing), '"uvx" not found on PATH. Install uv or set "command" to its full path.');
    assert.equal(describeSearchedPath('uvx', missing), 'command: uvx\nPATH searched (2 directories):\n  /usr/bin\n  /bin');
    const npx = resolveCommand('npx.cmd', { pathValue: 'C:\\x', platform: 'win32', isExecutableFile: () => false });
    assert.equal(describeMissingCommand('npx.cmd', npx), '"npx.cmd" not found on PATH. Install Node.js or set "command" to its full path.');
  });

  it('finds a real executable on this machine', () => {
    const r = resolveCommand('node', { pathValue: process.env.PATH ?? '' });
    assert.ok(r.resolved, 'node should be on PATH');
  });
});

describe('mergePaths', () => {
  it('puts the login shell PATH first only when it adds directories', () => {
    assert.equal(mergePaths('/usr/bin:/bin', '/usr/bin'), '/usr/bin:/bin');
    assert.equal(mergePaths('/usr/bin:/bin', '/home/u/.nvm/bin:/usr/bin'), '/home/u/.nvm/bin:/usr/bin:/bin');
    assert.equal(mergePaths('/usr/bin', undefined), '/usr/bin');
  });
});

describe('readLoginShellPath', () => {
  it('reads PATH from a real login shell', async function () {
    this.timeout(10000);
    const value = await readLoginShellPath('/bin/sh');
    assert.ok(value && value.split(':').includes('/usr/bin'), String(value));
  });

  it('gives up quietly when the shell does not exist', async () => {
    assert.equal(await readLoginShellPath('/no/such/shell'), undefined);
  });
});
