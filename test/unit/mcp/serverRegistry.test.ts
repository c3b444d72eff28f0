/** The registry applying config changes to real stdio fixture servers. */
import * as assert from 'node:assert/strict';
import type { ServerDefinition } from '../../../src/config/common/launchDefinition';
import { ServerRegistry, type RegistryPolicy } from '../../../src/mcp/serverRegistry';
import { definition, recordingHost, RecordingLog, stdioLaunch, waitFor } from './testHost';

describe('ServerRegistry', function () {
  this.timeout(20000);
  let defs: ServerDefinition[] = [];
  let registry: ServerRegistry;
  let policy: RegistryPolicy & { blocked?: string; provide?: boolean };
  /** Each server's log, as its output channel would show it (one per server id, as ServerOutputs keeps them). */
  let logs: Map<string, RecordingLog>;
  const pid = async (id: string) => {
    const c = registry.get(id)!;
    return (c.client as unknown as { transport?: { pid?: number } })?.transport?.pid;
  };

  beforeEach(() => {
    policy = {
      autoStart: () => true,
      blockedReason: (d) => (d.source.scope === 'workspace' ? policy.blocked : undefined),
      collectInputs: async () => false,
      reportError: (e) => assert.fail(`unexpected background error: ${String(e)}`),
    };
    logs = new Map();
    const logOf = (d: ServerDefinition) => logs.get(d.id) ?? logs.set(d.id, new RecordingLog()).get(d.id)!;
    registry = new ServerRegistry(recordingHost(), logOf, policy);
  });
  afterEach(() => registry.dispose());

  it('a server slow to start does not hold back the next change of config', async () => {
    // It never answers `initialize`: its start ends only at its connect timeout (120 s here, far
    // beyond this test's 20 s, so the second change cannot have waited for it).
    const slow = definition(stdioLaunch({ FIXTURE_HANG_INITIALIZE: '1' }), { id: 'slow', timeouts: { connect: 120 } });
    const first = registry.apply([slow]);
    await waitFor(() => registry.get('slow')?.state.kind === 'starting', 'the slow start');
    await registry.apply([slow, definition(stdioLaunch(), { id: 'quick' })]);
    assert.equal(registry.get('quick')!.state.kind, 'running');
    const state = registry.get('slow')!.state;
    assert.equal(state.kind, 'starting', `the second change came while the first server was still starting (${JSON.stringify(state)})`);
    await registry.stop('slow');
    await first;
  });

  it('a server slow to start holds back neither the servers a change of what is held back releases nor the next change of config', async () => {
    // What a window does as it opens: the chat models' answer releases the servers that waited
    // for it (applyHeldBack) while another server may still be starting (120 s here, far beyond
    // this test's 20 s).
    let heldBack: string | undefined = 'deciding who runs them';
    policy.heldBackReason = (d) => (d.source.scope === 'workspace' ? heldBack : undefined);
    const slow = definition(stdioLaunch({ FIXTURE_HANG_INITIALIZE: '1' }), { id: 'slow', timeouts: { connect: 120 } });
    const shared = definition(stdioLaunch(), { id: 'shared', source: { scope: 'workspace', label: '.vscode/mcp.json' } });
    const first = registry.apply([slow, shared]);
    await waitFor(() => registry.get('slow')?.state.kind === 'starting', 'the slow start');
    assert.deepEqual(registry.get('shared')!.state, { kind: 'stopped', reason: 'deciding who runs them' });
    heldBack = undefined;
    await registry.applyHeldBack();
    assert.equal(registry.get('shared')!.state.kind, 'running', 'released and started');
    await registry.apply([slow, shared, definition(stdioLaunch(), { id: 'quick' })]);
    assert.equal(registry.get('quick')!.state.kind, 'running');
    const state = registry.get('slow')!.state;
    assert.equal(state.kind, 'starting', `all of it came while the slow server was still starting (${JSON.stringify(state)})`);
    await registry.stop('slow');
    await first;
  });

  it('starts added servers, restarts only changed ones and stops removed ones', async () => {
    defs = [definition(stdioLaunch(), { id: 'a' }), definition(stdioLaunch(), { id: 'b' }), definition(stdioLaunch(), { id: 'c' })];
    await registry.apply(defs);
    assert.deepEqual(
      registry.all().map((c) => c.state.kind),
      ['running', 'running', 'running'],
    );
    const [pidA, pidB] = [await pid('a'), await pid('b')];
    const c = registry.get('c')!;
    defs = [
      definition(stdioLaunch(), { id: 'a', label: 'renamed' }),
      definition(stdioLaunch({ CHANGED: '1' }), { id: 'b' }),
      definition(stdioLaunch(), { id: 'd' }),
    ];
    await registry.apply(defs);
    assert.deepEqual(
      registry.all().map((x) => x.definition.id),
      ['a', 'b', 'd'],
    );
    assert.equal(await pid('a'), pidA, 'unchanged server keeps its process');
    assert.equal(registry.get('a')!.definition.label, 'renamed');
    assert.notEqual(await pid('b'), pidB, 'changed server restarted');
    assert.equal(registry.get('b')!.state.kind, 'running');
    assert.equal(registry.get('d')!.state.kind, 'running');
    assert.equal(c.state.kind, 'stopped');
    // Why a server stopped or restarted on its own is said in its log.
    assert.match(logs.get('c')!.text('info'), /Stopped: no longer in the configuration \(/);
    assert.match(logs.get('b')!.text('info'), /Its launch changed in the configuration \(.*\): restarting\./);
    assert.doesNotMatch(logs.get('a')!.text('info'), /configuration/, 'a relabel is not a change of launch');
  });

  it('onDidApply fires after every reload, also for an edit outside the launch (dev.watch) that restarts nothing', async () => {
    defs = [definition(stdioLaunch(), { id: 'a' })];
    await registry.apply(defs);
    const before = await pid('a');
    let applied = 0;
    let changed = 0;
    registry.onDidApply(() => applied++);
    registry.onDidChange(() => changed++);
    defs = [definition(stdioLaunch(), { id: 'a', entry: { type: 'stdio', command: 'node', dev: { watch: ['src/**'] } } })];
    await registry.apply(defs);
    assert.equal(applied, 1);
    assert.equal(changed, 0, 'no server added, removed, changed or restarted');
    assert.equal(await pid('a'), before);
    assert.deepEqual(registry.get('a')!.definition.entry?.dev?.watch, ['src/**']);
  });

  it('keeps a user-stopped server stopped across config changes', async () => {
    defs = [definition(stdioLaunch(), { id: 'a' })];
    await registry.apply(defs);
    await registry.stop('a');
    defs = [definition(stdioLaunch({ X: '1' }), { id: 'a' })];
    await registry.apply(defs);
    assert.equal(registry.get('a')!.state.kind, 'stopped');
  });

  it('does not start blocked or disabled servers, and starts them when allowed', async () => {
    policy.blocked = 'the workspace is not trusted';
    defs = [
      definition(stdioLaunch(), { id: 'ws', source: { scope: 'workspace', label: '.vscode/mcp.json' } }),
      definition(stdioLaunch(), { id: 'user' }),
      definition(stdioLaunch(), { id: 'off', disabled: true }),
    ];
    await registry.apply(defs);
    assert.deepEqual(registry.get('ws')!.state, { kind: 'stopped', reason: 'the workspace is not trusted' });
    assert.equal(registry.get('user')!.state.kind, 'running');
    assert.deepEqual(registry.get('off')!.state, { kind: 'stopped', reason: 'disabled in config' });
    policy.blocked = undefined;
    await registry.startWanted();
    assert.equal(registry.get('ws')!.state.kind, 'running');
    assert.equal(registry.get('off')!.state.kind, 'stopped');
    defs = defs.map((d) => (d.id === 'off' ? { ...d, disabled: false } : d));
    await registry.apply(defs);
    await waitFor(() => registry.get('off')!.state.kind === 'running', 'the re-enabled server');
  });

  it('does not auto-start a held-back server, starts it on request, and applies a change of what is held back', async () => {
    let heldBack: string | undefined = 'run by another host';
    policy.heldBackReason = (d) => (d.source.scope === 'workspace' ? heldBack : undefined);
    defs = [definition(stdioLaunch(), { id: 'ws', source: { scope: 'workspace', label: '.vscode/mcp.json' } }), definition(stdioLaunch(), { id: 'user' })];
    await registry.apply(defs);
    assert.deepEqual(registry.get('ws')!.state, { kind: 'stopped', reason: 'run by another host' });
    assert.equal(registry.get('user')!.state.kind, 'running');
    await registry.restartAll();
    assert.equal(registry.get('ws')!.state.kind, 'stopped', 'Restart All leaves a held-back server alone');

    heldBack = undefined;
    await registry.applyHeldBack();
    assert.equal(registry.get('ws')!.state.kind, 'running', 'no longer held back: started as auto-start would');
    const userPid = await pid('user');

    heldBack = 'run by another host';
    await registry.applyHeldBack();
    assert.deepEqual(registry.get('ws')!.state, { kind: 'stopped', reason: 'run by another host' }, 'held back again: stopped, with why');
    assert.equal(await pid('user'), userPid, 'servers not held back are left alone');

    await registry.start('ws');
    assert.equal(registry.get('ws')!.state.kind, 'running', "the user's Start runs it all the same");
    defs = [definition(stdioLaunch({ X: '1' }), { id: 'ws', source: { scope: 'workspace', label: '.vscode/mcp.json' } }), defs[1]];
    await registry.apply(defs);
    assert.equal(registry.get('ws')!.state.kind, 'running', 'a server the user started follows config changes');
    await registry.stop('ws');
    assert.deepEqual(registry.get('ws')!.state, { kind: 'stopped', reason: 'run by another host' }, 'stopped by the user: still says who runs it');
  });

  it('runs a server again when what is held back flips back while its stop is under way', async () => {
    // Seen in CI (coexistence, VS Code 1.139.1, a loaded machine): "VS Code runs them" then at once
    // "MCP Workbench runs them" left the shared servers stopped, with no reason, for good.
    let heldBack: string | undefined;
    policy.heldBackReason = (d) => (d.source.scope === 'workspace' ? heldBack : undefined);
    defs = [definition(stdioLaunch(), { id: 'ws', source: { scope: 'workspace', label: '.vscode/mcp.json' } })];
    await registry.apply(defs);
    assert.equal(registry.get('ws')!.state.kind, 'running');
    heldBack = 'run by another host';
    const first = registry.applyHeldBack();
    // The stop has begun (the state says stopped before the process is gone): now flip back.
    await waitFor(() => registry.get('ws')!.state.kind === 'stopped', 'the stop to begin');
    heldBack = undefined;
    const second = registry.applyHeldBack();
    await Promise.all([first, second]);
    await waitFor(() => registry.get('ws')!.state.kind === 'running', 'the server running again');
  });

  it('keeps other stopped reasons when what is held back changes', async () => {
    let heldBack: string | undefined = 'run by another host';
    policy.heldBackReason = () => heldBack;
    defs = [definition(stdioLaunch(), { id: 'off', disabled: true })];
    await registry.apply(defs);
    assert.deepEqual(registry.get('off')!.state, { kind: 'stopped', reason: 'disabled in config' });
    heldBack = undefined;
    await registry.applyHeldBack();
    assert.deepEqual(registry.get('off')!.state, { kind: 'stopped', reason: 'disabled in config' });
  });

  it('asks for missing inputs and starts the completed definition its owner applies', async () => {
    let provided = false;
    const launch = stdioLaunch({ KEY: 'from-input' });
    // What the config service does once inputs are given: apply the definitions resolved with them.
    policy.collectInputs = async () => {
      provided = true;
      void registry.apply([definition(launch, { id: 'a' })]);
      return true;
    };
    await registry.apply([definition(stdioLaunch(), { id: 'a', missingInputs: ['key'] })]);
    await waitFor(() => registry.get('a')!.state.kind === 'running', 'the server to start after input');
    assert.ok(provided);
    assert.deepEqual(registry.get('a')!.definition.launch, launch);
  });

  it('forEachConnection disposes per-connection listeners when a server leaves the registry', async () => {
    const live = new Set<string>();
    defs = [definition(stdioLaunch(), { id: 'a' }), definition(stdioLaunch(), { id: 'b' })];
    policy.autoStart = () => false;
    await registry.apply(defs);
    const scope = registry.forEachConnection((c) => {
      live.add(c.definition.id);
      return { dispose: () => live.delete(c.definition.id) };
    });
    assert.deepEqual([...live].sort(), ['a', 'b'], 'existing connections');
    defs = [definition(stdioLaunch(), { id: 'b' }), definition(stdioLaunch(), { id: 'c' })];
    await registry.apply(defs);
    assert.deepEqual([...live].sort(), ['b', 'c'], 'a removed, c added');
    registry.addTransient(definition(stdioLaunch(), { id: 't' }));
    assert.ok(live.has('t'));
    await registry.removeTransient('t');
    assert.ok(!live.has('t'), 'transient removed');
    scope.dispose();
    assert.deepEqual([...live], [], "disposing the scope disposes every connection's listeners");
    const again = registry.forEachConnection((c) => ({ dispose: () => live.delete(c.definition.id) }));
    live.add('b').add('c');
    await registry.dispose();
    assert.deepEqual([...live], [], 'disposing the registry ends every scope');
    again.dispose();
  });
});
