/**
 * The `mcp` debug type inside a real VS Code with its JavaScript debugger (ms-vscode.js-debug):
 * a breakpoint in a tool handler is hit through the extension's connection, the result
 * arrives after continuing, watched files restart the debuggee, stopping restores the normal
 * connection. The build has no Python debugger: debugpy plans are covered by unit tests only.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpWorkbenchApi } from '../../../src/api';
import { McpDebugConfigurationProvider, McpDynamicConfigurationProvider, type DebugServers } from '../../../src/debug/debugConfigurationProvider';
import type { HttpLaunch, StdioLaunch } from '../../../src/config/common/launchDefinition';
import { activateApi, EXTENSION_ID, folderUri, pidOf, retryOnceIfV8Aborted, running, setUserSetting, textOf, waitFor } from '../helpers';
import { alive } from '../../shared/processAlive';
import { fakeLoginShell } from '../../shared/fakeLoginShell';

const REPO = process.env.MCPWB_REPO ?? path.resolve(process.env.MCPWB_FIXTURES ?? '', '..', '..', '..');
const DEBUGGEE = path.join(REPO, 'test', 'fixtures', 'debuggee', 'debuggeeServer.js');
const BREAKPOINT_LINE = fs
  .readFileSync(DEBUGGEE, 'utf8')
  .split('\n')
  .findIndex((l) => l.includes('BREAKPOINT: echo'));
const HTTP_DEBUGGEE = path.join(REPO, 'test', 'fixtures', 'debuggee', 'httpDebuggee.js');
const HTTP_BREAKPOINT_LINE = fs
  .readFileSync(HTTP_DEBUGGEE, 'utf8')
  .split('\n')
  .findIndex((l) => l.includes('BREAKPOINT: http echo'));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Seen {
  session: vscode.DebugSession;
  message: { type: string; event?: string; body?: Record<string, unknown> };
}

suite('Debugging MCP servers (mcp debug type)', function () {
  this.timeout(90000);
  let api: McpWorkbenchApi;
  const seen: Seen[] = [];
  const started: vscode.DebugSession[] = [];
  const terminated = new Set<string>();
  const disposables: vscode.Disposable[] = [];

  suiteSetup(async () => {
    api = await activateApi();
    disposables.push(
      vscode.debug.registerDebugAdapterTrackerFactory('*', {
        createDebugAdapterTracker: (session) => ({ onDidSendMessage: (message) => seen.push({ session, message }) }),
      }),
      vscode.debug.onDidStartDebugSession((s) => started.push(s)),
      vscode.debug.onDidTerminateDebugSession((s) => terminated.add(s.id)),
    );
  });

  suiteTeardown(async () => {
    await vscode.debug.stopDebugging();
    vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    disposables.forEach((d) => d.dispose());
  });

  const childOf = (parent: vscode.DebugSession) => started.find((s) => s.parentSession?.id === parent.id && s.type === 'pwa-node');
  /** js-debug runs each target in a session of its own below the attach session. */
  const descendsFrom = (s: vscode.DebugSession | undefined, ancestor: vscode.DebugSession): boolean =>
    !!s && (s.id === ancestor.id || descendsFrom(s.parentSession, ancestor));
  const allEnded = (root: vscode.DebugSession) => {
    const left = started.filter((s) => descendsFrom(s, root) && !terminated.has(s.id));
    if (left.length) throw new Error(`still running: ${left.map((s) => `${s.type} "${s.name}"`).join(', ')}`);
    return true;
  };

  async function startMcp(config: Record<string, unknown>): Promise<vscode.DebugSession> {
    const folder = vscode.workspace.getWorkspaceFolder(folderUri('folder-a'));
    const before = started.length;
    assert.ok(await vscode.debug.startDebugging(folder, { type: 'mcp', request: 'launch', ...config } as vscode.DebugConfiguration), 'startDebugging');
    return waitFor(() => started.slice(before).find((s) => s.type === 'mcp' && s.name === config.name), 'the mcp session');
  }

  async function stopped(from: number): Promise<Seen> {
    return waitFor(() => seen.slice(from).find((s) => s.message.type === 'event' && s.message.event === 'stopped'), 'the debuggee to stop at the breakpoint');
  }

  test('the debugger contribution: attributes, initial configurations, snippets are valid', () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON;
    const dbg = pkg.contributes.debuggers.find((d: { type: string }) => d.type === 'mcp');
    assert.ok(dbg, 'a debugger of type mcp');
    assert.ok(pkg.activationEvents.includes('onDebugResolve:mcp'));
    assert.ok(pkg.activationEvents.includes('onDebugDynamicConfigurations:mcp'));
    const props = dbg.configurationAttributes.launch.properties;
    for (const key of ['server', 'command', 'args', 'env', 'cwd', 'url', 'urlTimeout', 'attachTimeout', 'runtime', 'sourceMaps', 'outFiles', 'watch'])
      assert.ok(props[key], key);
    for (const c of dbg.initialConfigurations) {
      assert.equal(c.type, 'mcp');
      assert.equal(c.request, 'launch');
      assert.ok(c.name && (c.server || c.command));
    }
    assert.ok(dbg.configurationSnippets.length >= 3);
    assert.ok(
      dbg.configurationSnippets.some((s: { body: { url?: string; command?: string } }) => s.body.url && s.body.command),
      'an HTTP server snippet',
    );
    for (const s of dbg.configurationSnippets) {
      assert.ok(s.label && s.description, 'label and description');
      assert.equal(s.body.type, 'mcp');
      assert.equal(s.body.request, 'launch');
      assert.ok(s.body.name && (s.body.server || s.body.command), JSON.stringify(s.body));
      // Every key of a snippet body is a declared attribute.
      for (const key of Object.keys(s.body)) assert.ok(['type', 'request', 'name'].includes(key) || props[key], `${s.label}: ${key}`);
    }
    const cmd = pkg.contributes.commands.find((c: { command: string }) => c.command === 'mcpWorkbench.debugServer');
    assert.deepEqual([cmd.category, cmd.icon], ['MCP', '$(debug-alt)']);
  });

  test('dynamic and initial configurations: "Debug MCP server: <name>" for every stdio server', async () => {
    await running(api, 'fixture-stdio');
    const servers: DebugServers = {
      stdioServers: () =>
        api
          .servers()
          .map((c) => c.definition)
          .filter((d) => d.launch.type === 'stdio'),
      find: (key) => api.server(key)?.definition,
    };
    const dynamic = new McpDynamicConfigurationProvider(servers).provideDebugConfigurations();
    const stdioNames = api
      .servers()
      .filter((c) => c.definition.launch.type === 'stdio')
      .map((c) => c.definition.label)
      .sort();
    assert.deepEqual(
      dynamic.map((c) => c.name).sort(),
      stdioNames.map((n) => `Debug MCP server: ${n}`),
    );
    assert.ok(dynamic.every((c) => c.type === 'mcp' && c.request === 'launch' && api.server(c.server!)));
    const folderA = vscode.workspace.getWorkspaceFolder(folderUri('folder-a'))!;
    const initial = new McpDebugConfigurationProvider(servers).provideDebugConfigurations(folderA);
    assert.ok(initial.some((c) => c.server === 'fixture-stdio'));
    assert.ok(initial.every((c) => !c.server || api.server(c.server)?.definition.source.folder !== 'folder-b'));
  });

  test('a breakpoint in a tool handler is hit through Run Tool; continue delivers the result; watch restarts', () =>
    retryOnceIfV8Aborted(api, async () => {
      assert.ok(BREAKPOINT_LINE > 0, 'marker line found');
      const watchDir = path.join(folderUri('folder-a').fsPath, '.debug-watch');
      fs.mkdirSync(watchDir, { recursive: true });
      const bp = new vscode.SourceBreakpoint(new vscode.Location(vscode.Uri.file(DEBUGGEE), new vscode.Position(BREAKPOINT_LINE, 0)));
      vscode.debug.addBreakpoints([bp]);
      const parent = await startMcp({ name: 'Debug debuggee', command: 'node', args: [DEBUGGEE], watch: [path.join(watchDir, '*.txt')] });
      try {
        const c = await running(api, 'Debug debuggee');
        assert.match((c.launchOverride?.launch as StdioLaunch).args[0], /^--inspect-brk=127\.0\.0\.1:\d+$/);
        const child = await waitFor(() => childOf(parent), 'the attached pwa-node child session');
        assert.equal(child.configuration.request, 'attach');
        assert.equal(child.configuration.continueOnAttach, true);

        // Run the tool the way the extension does; it must stop at the breakpoint.
        const from = seen.length;
        const call = c.callTool('echo', { text: 'under the debugger' });
        const stop = await stopped(from);
        assert.ok(descendsFrom(stop.session, child), 'stopped in the attached session');
        const trace = await stop.session.customRequest('stackTrace', { threadId: stop.message.body!.threadId, startFrame: 0, levels: 1 });
        const top = trace.stackFrames[0];
        assert.equal(top.line, BREAKPOINT_LINE + 1);
        // In the browser-based VS Code the path comes back inside a vscode-remote URI.
        assert.ok(String(top.source.path).endsWith('test/fixtures/debuggee/debuggeeServer.js'), top.source.path);
        await vscode.commands.executeCommand('workbench.action.debug.continue');
        assert.equal(textOf(await call), 'echo: under the debugger');

        // The Debug Console got the protocol trace and the server's stderr.
        const outputs = seen.filter((s) => s.session.id === parent.id && s.message.event === 'output').map((s) => String(s.message.body?.output));
        assert.ok(
          outputs.some((o) => o.includes('tools/call')),
          'trace in the Debug Console',
        );
        assert.ok(
          outputs.some((o) => o.includes('debuggee ready')),
          'stderr in the Debug Console',
        );

        // A change to a watched file restarts the debuggee; the breakpoint still holds.
        const pid1 = textOf(await c.callTool('pid', {}));
        fs.writeFileSync(path.join(watchDir, 'touch.txt'), String(Date.now()));
        const pid2 = await waitFor(
          async () => {
            if (c.state.kind !== 'running') return undefined;
            const pid = textOf(await c.callTool('pid', {}));
            return pid !== pid1 && pid;
          },
          'a new debuggee process after the watched file changed',
          30000,
        );
        assert.notEqual(pid2, pid1);
        const child2 = await waitFor(
          () => started.filter((s) => s.parentSession?.id === parent.id && s.type === 'pwa-node').find((s) => s.id !== child.id),
          'a new child session',
        );
        const from2 = seen.length;
        const call2 = c.callTool('echo', { text: 'again' });
        const stop2 = await stopped(from2);
        assert.ok(descendsFrom(stop2.session, child2), 'stopped in the new attached session');
        await stop2.session.customRequest('continue', { threadId: stop2.message.body!.threadId });
        assert.equal(textOf(await call2), 'echo: again');
      } finally {
        vscode.debug.removeBreakpoints([bp]);
        await vscode.debug.stopDebugging(parent);
        fs.rmSync(watchDir, { recursive: true, force: true });
      }
      // An inline server lives only as long as its session.
      await waitFor(() => !api.server('Debug debuggee'), 'the inline server to go away');
      await waitFor(() => allEnded(parent), 'every session of the debug run to end');
    }));

  test('an HTTP server started by a command: debugger attached, URL awaited, connection over HTTP; stop kills it', () =>
    retryOnceIfV8Aborted(api, async () => {
      assert.ok(HTTP_BREAKPOINT_LINE > 0, 'marker line found');
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/mcp`;
      const bp = new vscode.SourceBreakpoint(new vscode.Location(vscode.Uri.file(HTTP_DEBUGGEE), new vscode.Position(HTTP_BREAKPOINT_LINE, 0)));
      vscode.debug.addBreakpoints([bp]);
      const name = 'Debug HTTP debuggee';
      const parent = await startMcp({ name, command: 'node', args: [HTTP_DEBUGGEE, String(port)], url, urlTimeout: 30 });
      let pid = 0;
      try {
        const c = await running(api, name);
        const launch = c.launchOverride?.launch as HttpLaunch;
        assert.deepEqual([launch.type, launch.url], ['http', url]);
        assert.equal(c.state.kind === 'running' && c.state.transport, 'http');
        const child = await waitFor(() => childOf(parent), 'the attached pwa-node child session');
        assert.equal(child.configuration.request, 'attach');

        const from = seen.length;
        const call = c.callTool('echo', { text: 'over http' });
        const stop = await stopped(from);
        assert.ok(descendsFrom(stop.session, child), 'stopped in the attached session');
        const trace = await stop.session.customRequest('stackTrace', { threadId: stop.message.body!.threadId, startFrame: 0, levels: 1 });
        assert.equal(trace.stackFrames[0].line, HTTP_BREAKPOINT_LINE + 1);
        assert.ok(String(trace.stackFrames[0].source.path).endsWith('test/fixtures/debuggee/httpDebuggee.js'), trace.stackFrames[0].source.path);
        await vscode.commands.executeCommand('workbench.action.debug.continue');
        assert.equal(textOf(await call), 'echo: over http');
        pid = Number(textOf(await c.callTool('pid', {})));
        assert.ok(pid > 0 && alive(pid));

        // The process's stdout and stderr and the protocol trace reach the Debug Console.
        const outputs = await waitFor(() => {
          const o = seen.filter((s) => s.session.id === parent.id && s.message.event === 'output').map((s) => String(s.message.body?.output));
          return o.some((x) => x.includes('tools/call')) && o;
        }, 'the trace in the Debug Console');
        assert.ok(
          outputs.some((o) => o.includes(`LISTENING ${url}`)),
          'stdout in the Debug Console',
        );
        assert.ok(
          outputs.some((o) => o.includes('http debuggee ready')),
          'stderr in the Debug Console',
        );
      } finally {
        vscode.debug.removeBreakpoints([bp]);
        await vscode.debug.stopDebugging(parent);
      }
      await waitFor(() => !api.server(name), 'the inline server to go away');
      await waitFor(() => !alive(pid), 'the server process to be gone');
      await waitFor(() => allEnded(parent), 'every session of the debug run to end');
    }));

  test('a configured http server with "command" in the launch configuration: debugged at its url; stop restores its state', () =>
    retryOnceIfV8Aborted(api, async () => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/mcp`;
      const settings = vscode.workspace.getConfiguration('mcpWorkbench');
      const original = settings.inspect<Record<string, unknown>>('servers')?.globalValue;
      await setUserSetting('servers', { ...original, 'http-dev': { type: 'http', url } });
      let pid = 0;
      try {
        // Nothing listens at the url yet: the configured connection does not run.
        const c = await waitFor(() => {
          const x = api.server('http-dev');
          return x && x.state.kind !== 'starting' && x;
        }, 'the configured http server to settle');
        assert.notEqual(c.state.kind, 'running');
        const parent = await startMcp({ name: 'Debug http-dev', server: 'http-dev', command: 'node', args: [HTTP_DEBUGGEE, String(port)] });
        await waitFor(() => c.launchOverride && c.state.kind === 'running', 'the debuggee connection');
        assert.deepEqual(c.launchOverride!.launch, { ...c.definition.launch, url });
        await waitFor(() => childOf(parent), 'the attached child session');
        assert.equal(textOf(await c.callTool('echo', { text: 'configured' })), 'echo: configured');
        pid = Number(textOf(await c.callTool('pid', {})));
        assert.ok(pid > 0 && alive(pid));
        await vscode.debug.stopDebugging(parent);
        await waitFor(() => !c.launchOverride && c.state.kind !== 'running', 'the configured state back (not running, as before)');
        await waitFor(() => !alive(pid), 'the server process to be gone');
        await waitFor(() => allEnded(parent), 'every session of the debug run to end');
        assert.equal(api.server('http-dev'), c, 'the same configured connection');
      } finally {
        await setUserSetting('servers', original);
        await waitFor(() => !api.server('http-dev'), 'the temporary server to go away');
      }
    }));

  test("an HTTP server's command that only the login shell's new PATH has: the debug start asks the shell again and starts it", () =>
    retryOnceIfV8Aborted(api, async () => {
      // A Node runtime under a name of its own ("runtime": "node" says what it is), in a folder
      // only the login shell's PATH will have. The shell is a script of ours (fakeLoginShell).
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-login-shell-'));
      const bin = path.join(dir, 'bin');
      fs.mkdirSync(bin);
      fs.writeFileSync(path.join(bin, 'mcpwb-login-only-node'), '#!/bin/sh\nexec node "$@"\n', { mode: 0o755 });
      const { shell, setPath, starts, hold, release } = fakeLoginShell(dir, `/mcpwb-nothing-here:${process.env.PATH}`);
      const savedShell = process.env.SHELL;
      const settings = vscode.workspace.getConfiguration('mcpWorkbench');
      const before = {
        servers: settings.inspect<Record<string, unknown>>('servers')?.globalValue,
        shell: settings.inspect<boolean>('useLoginShellPath')?.globalValue,
      };
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/mcp`;
      let parent: vscode.DebugSession | undefined;
      try {
        process.env.SHELL = shell;
        await setUserSetting('useLoginShellPath', true);
        // A start makes this session read the shell, whose PATH (without the folder) is then kept.
        const c = await running(api, 'fixture-stdio');
        await vscode.commands.executeCommand('mcpWorkbench.restartServer', c.definition.id);
        await waitFor(() => starts() >= 1 && c.state.kind === 'running', 'a start with the login shell read');
        // The runtime installed since: only the shell's new PATH has it. A new session starts
        // from the kept PATH while the shell is asked again. The shell holds its answer until the
        // start has said it looks again, so the start surely meets the kept PATH first (the
        // language server may ask the shell the moment the setting changes).
        await setUserSetting('servers', { ...before.servers, 'http-login-only': { type: 'http', url } });
        setPath(`${bin}:${process.env.PATH}`);
        hold();
        await setUserSetting('useLoginShellPath', false);
        await setUserSetting('useLoginShellPath', true);
        const from = seen.length;
        const name = 'Debug http-login-only';
        // Not awaited yet: VS Code's startDebugging waits for the launch, which waits for the shell.
        const starting = startMcp({ name, server: 'http-login-only', command: 'mcpwb-login-only-node', runtime: 'node', args: [HTTP_DEBUGGEE, String(port)] });
        starting.catch(() => undefined);
        await waitFor(
          () =>
            seen
              .slice(from)
              .some(
                (s) =>
                  s.session.name === name &&
                  s.message.event === 'output' &&
                  String(s.message.body?.output).includes('is not on the PATH kept from the login shell'),
              ),
          'the start saying it looks for the command again',
        );
        release();
        parent = await starting;
        const d = await waitFor(() => {
          const x = api.server('http-login-only');
          return x?.launchOverride && x.state.kind === 'running' && x;
        }, "the debuggee connection, its command found on the shell's new PATH");
        assert.equal(textOf(await d.callTool('echo', { text: 'login only' })), 'echo: login only');
        await vscode.debug.stopDebugging(parent);
        await waitFor(() => allEnded(parent!), 'every session of the debug run to end');
      } finally {
        release();
        if (parent) await vscode.debug.stopDebugging(parent);
        process.env.SHELL = savedShell;
        await setUserSetting('useLoginShellPath', before.shell);
        await setUserSetting('servers', before.servers);
        await waitFor(() => !api.server('http-login-only'), 'the temporary server to go away');
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }));

  test('debugging a configured server replaces its connection; stopping restores the normal one', () =>
    retryOnceIfV8Aborted(api, async () => {
      const c = await running(api, 'fixture-stdio');
      const normalPid = pidOf(c);
      const parent = await startMcp({ name: 'Debug fixture-stdio', server: 'fixture-stdio' });
      await waitFor(() => c.launchOverride && c.state.kind === 'running', 'the debuggee connection');
      const debugPid = pidOf(c);
      assert.ok(debugPid && debugPid !== normalPid);
      assert.ok((c.launchOverride!.launch as StdioLaunch).args.some((a) => a.startsWith('--inspect-brk=127.0.0.1:')));
      await waitFor(() => childOf(parent), 'the attached child session');
      assert.equal(textOf(await c.callTool('echo', { text: 'via debuggee' })), 'echo: via debuggee');
      await vscode.debug.stopDebugging(parent);
      await waitFor(() => !c.launchOverride && c.state.kind === 'running' && pidOf(c) !== debugPid && pidOf(c), 'the normal connection back');
      assert.ok(!(c.definition.launch as StdioLaunch).args.some((a) => a.startsWith('--inspect')));
      await waitFor(() => allEnded(parent), 'every session of the debug run to end');
    }));

  test('the Debug Server command starts an mcp session for a server node', async () => {
    const c = await running(api, 'fixture-stdio');
    await retryOnceIfV8Aborted(api, async () => {
      const before = started.length;
      assert.ok(await vscode.commands.executeCommand('mcpWorkbench.debugServer', { serverId: c.definition.id }));
      const parent = await waitFor(() => started.slice(before).find((s) => s.type === 'mcp'), 'the mcp session');
      assert.equal(parent.name, 'Debug MCP server: fixture-stdio');
      await waitFor(() => c.launchOverride && c.state.kind === 'running', 'the debuggee connection');
      await vscode.debug.stopDebugging(parent);
      await waitFor(() => !c.launchOverride && c.state.kind === 'running', 'the normal connection back');
      await waitFor(() => allEnded(parent), 'every session of the debug run to end');
    });
  });
});
