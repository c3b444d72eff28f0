/**
 * The login shell's PATH kept across sessions (src/mcp/process/loginShellPath.ts), asked of a real
 * shell: a script that answers like a login shell with the PATH written in a file, and counts how
 * often it was started. The Memento is an in-memory map (VS Code's globalState is not there in
 * plain Node). The last test starts a real server whose command only the new PATH has.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LOGIN_SHELL_PATH_KEY, LoginShellPath } from '../../../src/mcp/process/loginShellPath';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { definition, recordingHost, RecordingLog, STDIO_FIXTURE, stdioLaunch } from './testHost';
import { fakeLoginShell } from '../../shared/fakeLoginShell';

class MapMemento {
  readonly values = new Map<string, unknown>();
  writes = 0;
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.writes++;
    this.values.set(key, value);
  }
}

describe('LoginShellPath', function () {
  this.timeout(20000);
  let dir: string;
  let shell: string;
  let setShellPath: (value: string) => void;
  let starts: () => number;

  before(function () {
    if (process.platform === 'win32') this.skip();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-login-shell-'));
    ({ shell, setPath: setShellPath, starts } = fakeLoginShell(dir, '/from/shell:/usr/bin:/bin'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('asks the shell once, keeps its answer, and serves it to every later start', async () => {
    const memento = new MapMemento();
    const paths = new LoginShellPath(memento, shell);
    assert.equal(await paths.get(), '/from/shell:/usr/bin:/bin');
    assert.equal(await paths.get(), '/from/shell:/usr/bin:/bin');
    assert.equal(starts(), 1);
    assert.deepEqual(memento.get(LOGIN_SHELL_PATH_KEY), { shell, path: '/from/shell:/usr/bin:/bin' });
  });

  it('a later session serves the kept PATH before the shell answers, then the new one', async () => {
    const memento = new MapMemento();
    await new LoginShellPath(memento, shell).get();
    setShellPath('/installed/since:/usr/bin:/bin');
    const next = new LoginShellPath(memento, shell);
    // The kept PATH resolves before the shell (a process) can answer.
    const first = await Promise.race([next.get().then((p) => ['kept', p]), next.fresh().then((p) => ['shell', p])]);
    assert.deepEqual(first, ['kept', '/from/shell:/usr/bin:/bin']);
    assert.equal(await next.fresh(), '/installed/since:/usr/bin:/bin');
    assert.equal(await next.get(), '/installed/since:/usr/bin:/bin');
    assert.equal(starts(), 2);
  });

  it('a session whose shell gives the kept PATH again writes nothing', async () => {
    const memento = new MapMemento();
    await new LoginShellPath(memento, shell).get();
    assert.equal(memento.writes, 1);
    assert.equal(await new LoginShellPath(memento, shell).fresh(), '/from/shell:/usr/bin:/bin');
    assert.equal(memento.writes, 1);
  });

  it('waits for the shell when the PATH kept is of another shell', async () => {
    const memento = new MapMemento();
    await memento.update(LOGIN_SHELL_PATH_KEY, { shell: '/bin/zsh', path: '/zsh/only' });
    assert.equal(await new LoginShellPath(memento, shell).get(), '/from/shell:/usr/bin:/bin');
  });

  it("known() gives the kept PATH without asking, then this session's answer, announced once", async () => {
    const memento = new MapMemento();
    await memento.update(LOGIN_SHELL_PATH_KEY, { shell, path: '/kept:/usr/bin' });
    const paths = new LoginShellPath(memento, shell);
    let told = 0;
    paths.onDidAnswer(() => told++);
    assert.equal(paths.known(), '/kept:/usr/bin');
    assert.equal(starts(), 0, 'known() starts no shell');
    assert.equal(await paths.fresh(), '/from/shell:/usr/bin:/bin');
    assert.equal(paths.known(), '/from/shell:/usr/bin:/bin');
    assert.equal(told, 1);
    await paths.fresh();
    assert.equal(told, 1, 'asked once a session, told once');
  });

  it("an answer asked before a reset is not taken as the next session's", async () => {
    const memento = new MapMemento();
    const paths = new LoginShellPath(memento, shell);
    let told = 0;
    paths.onDidAnswer(() => told++);
    const before = paths.fresh();
    paths.reset();
    setShellPath('/after/reset:/usr/bin');
    await before; // (its script may read either PATH)
    assert.equal(told, 0);
    assert.equal(await paths.fresh(), '/after/reset:/usr/bin');
    assert.equal(paths.known(), '/after/reset:/usr/bin');
    assert.equal(told, 1);
  });

  it('a server whose command only the new PATH has starts, with the kept PATH lacking it', async () => {
    const tools = path.join(dir, 'tools');
    fs.mkdirSync(tools);
    const command = path.join(tools, 'fixture-server-command');
    fs.writeFileSync(command, `#!/bin/sh\nexec "${process.execPath}" "${STDIO_FIXTURE}"\n`, { mode: 0o755 });
    const memento = new MapMemento();
    await memento.update(LOGIN_SHELL_PATH_KEY, { shell, path: '/usr/bin:/bin' });
    setShellPath(`${tools}:/usr/bin:/bin`);
    const paths = new LoginShellPath(memento, shell);
    const host = recordingHost();
    host.baseEnv = async (options) => ({ ...process.env, PATH: `${await (options?.fresh ? paths.fresh() : paths.get())}` });
    const log = new RecordingLog();
    const c = new McpServerConnection(definition(stdioLaunch({}, { command: 'fixture-server-command', args: [] })), host, log);
    try {
      await c.start();
      assert.equal(c.state.kind, 'running', JSON.stringify(c.state));
      // The log says why the start waited for the shell, before it says what it started.
      assert.match(log.text('info'), /"fixture-server-command" is not on the PATH kept from the login shell; reading the shell's PATH again\.\nStarting /);
    } finally {
      await c.dispose();
    }
  });
});
