/**
 * Era verdicts kept across sessions (issue 30): a second host with the same store (as a new
 * VS Code session with the same `globalState`) starts a server seen before ONCE, where a first
 * start under `auto` spawns it twice (the SDK's probe runs on a disposable sibling). Spawns are
 * counted by the fixtures themselves (FIXTURE_RECORD). Real servers of both eras; the one fake
 * is the Memento, a Map standing in for VS Code's `globalState` (outside VS Code there is none).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import {
  EraVerdicts,
  MementoEraVerdictStore,
  VERDICT_LIFETIME_MS,
  verdictKey,
  type EraVerdict,
  type MementoLike,
} from '../../../src/mcp/connection/eraVerdicts';
import type { Launch, ServerDefinition } from '../../../src/config/common/launchDefinition';
import { startModernHttpFixture } from '../../fixtures/servers/modernHttpServer';
import { definition, FIXTURES, recordingHost, RecordingLog, stdioLaunch, waitFor } from './testHost';

const MODERN_STDIO = path.join(FIXTURES, 'modernStdioServer.js');

/** VS Code's globalState as far as the store uses it; kept as JSON, as VS Code keeps it. */
class MapMemento implements MementoLike {
  readonly data = new Map<string, string>();
  get<T>(key: string): T | undefined {
    const text = this.data.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.data.set(key, JSON.stringify(value));
  }
}

/**
 * VS Code's `globalState` with its echo: the extension host keeps the extension's state as one
 * object, and every write is sent back to it by the main thread, where it replaces that object
 * (ExtensionMemento's `onDidChangeStorage` handler; the main thread's storage fires for its own
 * writes). `deliverEcho` delivers the oldest write not yet echoed, as a late round trip would.
 */
class EchoingMemento implements MementoLike {
  private state: Record<string, unknown> = {};
  private readonly echoes: string[] = [];
  get<T>(key: string): T | undefined {
    return this.state[key] as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.state = { ...this.state, [key]: JSON.parse(JSON.stringify(value)) };
    this.echoes.push(JSON.stringify(this.state));
  }
  deliverEcho(): void {
    const next = this.echoes.shift();
    if (next !== undefined) this.state = JSON.parse(next);
  }
  /** What the storage holds once every write arrived: the last one written. */
  stored<T>(key: string): T | undefined {
    const last = this.echoes.at(-1);
    return last === undefined ? this.get<T>(key) : (JSON.parse(last)[key] as T | undefined);
  }
}

function spawns(record: string): number {
  return fs.existsSync(record)
    ? fs
        .readFileSync(record, 'utf8')
        .trim()
        .split('\n')
        .filter((l) => JSON.parse(l).event === 'start').length
    : 0;
}

describe('Era verdicts across sessions', function () {
  this.timeout(30000);
  const open: McpServerConnection[] = [];
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-era-'));
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.dispose()));
  });

  /** A new host (a new session of the extension) over `memento`, and a connection of it. */
  const session = (memento: MapMemento, def: ServerDefinition) => {
    const log = new RecordingLog();
    const host = { ...recordingHost(), eraVerdicts: new MementoEraVerdictStore(memento) };
    const c = new McpServerConnection(def, host, log);
    open.push(c);
    return { c, log, traces: host.traces };
  };

  const cases: { era: 'legacy' | 'modern'; launch: (record: string) => Launch }[] = [
    { era: 'legacy', launch: (record) => stdioLaunch({ FIXTURE_RECORD: record }) },
    { era: 'modern', launch: (record) => ({ type: 'stdio', command: 'node', args: [MODERN_STDIO], env: { FIXTURE_RECORD: record }, cwd: undefined }) },
  ];
  for (const { era, launch } of cases) {
    it(`a ${era} server seen in an earlier session starts with one spawn, and the log and state say the era was remembered`, async () => {
      const memento = new MapMemento();
      const first = session(memento, definition(launch(path.join(dir, 'first.jsonl'))));
      await first.c.start();
      assert.equal(first.c.state.kind === 'running' && first.c.state.era, era);
      assert.equal(spawns(path.join(dir, 'first.jsonl')), 2, 'first-ever start: the probe sibling, then the session');
      assert.deepEqual(first.c.state.kind === 'running' && first.c.state.eraSource, { kind: 'probed' });
      assert.match(first.log.text('info'), /, era probed now\./);
      await first.c.dispose();

      // Another session: a new host and connection, the same globalState; the env VALUE differs
      // (only variable names are part of the launch's key).
      const record = path.join(dir, 'second.jsonl');
      const second = session(memento, definition(launch(record)));
      await second.c.start();
      assert.equal(second.c.state.kind === 'running' && second.c.state.era, era);
      assert.equal(spawns(record), 1, 'a server seen before is spawned once');
      const source = second.c.state.kind === 'running' ? second.c.state.eraSource : undefined;
      assert.equal(source?.kind, 'remembered');
      assert.match(
        second.log.text('info'),
        era === 'modern' ? /, era remembered from \d{4}-\d\d-\d\d, confirmed now\./ : /, era remembered from \d{4}-\d\d-\d\d\./,
      );
    });
  }

  it('a wrong legacy verdict (the server now serves 2026-07-28 only) falls back to probing in the same start, and is replaced', async () => {
    const memento = new MapMemento();
    const record = path.join(dir, 'events.jsonl');
    const def = definition({ type: 'stdio', command: 'node', args: [MODERN_STDIO], env: { FIXTURE_LEGACY: 'reject', FIXTURE_RECORD: record }, cwd: undefined });
    new MementoEraVerdictStore(memento).set(verdictKey(def), { era: 'legacy', at: Date.now() - 60_000 });
    const { c, log } = session(memento, def);
    await c.start();
    assert.equal(c.state.kind === 'running' && c.state.era, 'modern', JSON.stringify(c.state));
    assert.deepEqual(c.state.kind === 'running' && c.state.eraSource, { kind: 'probed' });
    assert.match(
      log.text('info'),
      /Starting on the remembered era \(2025 era, initialize handshake, remembered from .*\) failed .*; probing the server's era again\./,
    );
    assert.equal(new MementoEraVerdictStore(memento).get(verdictKey(def))?.era, 'modern');
    // The refused session, then the probe sibling and the session of the retry.
    assert.equal(spawns(record), 3);
  });

  it('a wrong modern verdict for a 2025 server is corrected by the probe on the session itself: still one spawn', async () => {
    const memento = new MapMemento();
    const record = path.join(dir, 'events.jsonl');
    const def = definition(stdioLaunch({ FIXTURE_RECORD: record }));
    new MementoEraVerdictStore(memento).set(verdictKey(def), { era: 'modern', at: Date.now() - 60_000 });
    const { c } = session(memento, def);
    await c.start();
    assert.equal(c.state.kind === 'running' && c.state.era, 'legacy', JSON.stringify(c.state));
    assert.equal(spawns(record), 1);
    assert.deepEqual(c.state.kind === 'running' && c.state.eraSource, { kind: 'probed' });
    assert.equal(new MementoEraVerdictStore(memento).get(verdictKey(def))?.era, 'legacy');
  });

  it('a server that dies at start on a remembered verdict is not spawned again by a probe; the verdict is forgotten for the next start', async () => {
    const memento = new MapMemento();
    const counter = path.join(dir, 'starts');
    const def = definition({
      type: 'stdio',
      command: 'node',
      args: [path.join(FIXTURES, 'faultServer.js')],
      env: { FAULT_MODE: 'crash-on-start', FAULT_COUNTER_FILE: counter },
      cwd: undefined,
    });
    new MementoEraVerdictStore(memento).set(verdictKey(def), { era: 'legacy', at: Date.now() - 60_000 });
    const { c } = session(memento, def);
    await c.start();
    assert.equal(c.state.kind, 'error');
    assert.equal(fs.readFileSync(counter, 'utf8').trim().split('\n').length, 1);
    assert.equal(new MementoEraVerdictStore(memento).get(verdictKey(def)), undefined);
  });

  it('a verdict past its lifetime is not used: the start probes (two spawns) and dates the verdict anew', async () => {
    const memento = new MapMemento();
    const record = path.join(dir, 'events.jsonl');
    const def = definition(stdioLaunch({ FIXTURE_RECORD: record }));
    const old = Date.now() - VERDICT_LIFETIME_MS - 60_000;
    new MementoEraVerdictStore(memento, () => old).set(verdictKey(def), { era: 'legacy', at: old });
    const { c } = session(memento, def);
    await c.start();
    assert.equal(c.state.kind === 'running' && c.state.era, 'legacy');
    assert.equal(spawns(record), 2);
    assert.ok(new MementoEraVerdictStore(memento).get(verdictKey(def))!.at > old);
  });

  it('over Streamable HTTP, a legacy verdict older than a day is re-checked in the background: an upgraded server is found', async () => {
    const http = await startModernHttpFixture();
    try {
      const memento = new MapMemento();
      const def = definition({ type: 'http', url: http.url, headers: {} });
      new MementoEraVerdictStore(memento).set(verdictKey(def), { era: 'legacy', at: Date.now() - 2 * 24 * 3_600_000 });
      const { c, log } = session(memento, def);
      await c.start();
      // This start trusted the verdict (the server still serves 2025 clients)…
      assert.equal(c.state.kind === 'running' && c.state.era, 'legacy');
      // …and the check behind it found the server speaks 2026-07-28 now: the next start uses it.
      await waitFor(() => new MementoEraVerdictStore(memento).get(verdictKey(def))?.era === 'modern', 'the verdict to turn modern');
      assert.match(log.text('info'), /now speaks MCP 2026-07-28/);
      await c.restart();
      assert.equal(c.state.kind === 'running' && c.state.era, 'modern');
    } finally {
      await Promise.all(open.splice(0).map((c) => c.dispose()));
      await http.close();
    }
  });

  it('a configured protocolEra neither uses nor writes verdicts, and says so', async () => {
    const memento = new MapMemento();
    const def = definition(stdioLaunch(), { protocolEra: 'legacy' });
    const { c, log } = session(memento, def);
    await c.start();
    assert.deepEqual(c.state.kind === 'running' && c.state.eraSource, { kind: 'configured' });
    assert.match(log.text('info'), /, era set by config\./);
    assert.equal(memento.data.size, 0);
  });
});

describe('Era verdict keys and store', () => {
  const base = definition(stdioLaunch({ TOKEN: 'value-one' }));

  it('key the launch by command, args, cwd and env NAMES: a secret value changes nothing and is never stored', () => {
    assert.equal(verdictKey(base), verdictKey(definition(stdioLaunch({ TOKEN: 'value-two' }))));
    assert.notEqual(verdictKey(base), verdictKey(definition(stdioLaunch({ OTHER: 'value-one' }))));
    assert.notEqual(verdictKey(base), verdictKey(definition(stdioLaunch({ TOKEN: 'value-one' }, { cwd: '/elsewhere' } as Partial<Launch>))));
    assert.notEqual(verdictKey(base), verdictKey(definition(stdioLaunch({ TOKEN: 'value-one' }, { args: ['other.js'] } as Partial<Launch>))));
    const memento = new MapMemento();
    new EraVerdicts(new MementoEraVerdictStore(memento)).remember(base, 'legacy', true);
    const stored = [...memento.data.values()].join('');
    assert.ok(!stored.includes('value-one') && !stored.includes('TOKEN') && !stored.includes('node'), stored);
  });

  it('key an HTTP server by its URL without user and password', () => {
    const http = (url: string) => definition({ type: 'http', url, headers: { Authorization: 'Bearer abc' } });
    assert.equal(verdictKey(http('https://me:secret@example.com/mcp')), verdictKey(http('https://example.com/mcp')));
    assert.notEqual(verdictKey(http('https://example.com/mcp')), verdictKey(http('https://example.com/other')));
  });

  it('a start on a remembered legacy verdict keeps its date (so it still expires); a probe dates it anew', () => {
    const memento = new MapMemento();
    let now = 1_000_000;
    const verdicts = new EraVerdicts(new MementoEraVerdictStore(memento, () => now), () => now);
    verdicts.remember(base, 'legacy', true);
    now += 3_600_000;
    verdicts.remember(base, 'legacy', false);
    assert.equal(verdicts.get(base)?.at, 1_000_000);
    verdicts.remember(base, 'legacy', true);
    assert.equal(verdicts.get(base)?.at, now);
    verdicts.forget(base);
    assert.equal(verdicts.get(base), undefined);
  });

  it("keeps each verdict when VS Code's echo of an earlier write comes after a later one (servers starting together)", () => {
    const memento = new EchoingMemento();
    const store = new MementoEraVerdictStore(memento);
    const now = Date.now();
    store.set('first', { era: 'legacy', at: now });
    store.set('second', { era: 'modern', at: now });
    // The echo of the first write arrives: the extension's state goes back to holding only `first`.
    memento.deliverEcho();
    assert.equal(store.get('second')?.era, 'modern', 'the second verdict is still read');
    store.set('third', { era: 'legacy', at: now });
    memento.deliverEcho();
    memento.deliverEcho();
    for (const key of ['first', 'second', 'third']) assert.ok(store.get(key), `${key} is read`);
    const stored = memento.stored<Record<string, EraVerdict>>(MementoEraVerdictStore.KEY)!;
    assert.deepEqual(Object.keys(stored).sort(), ['first', 'second', 'third'], 'and stored, for the next session');
    // A forgotten verdict stays forgotten, whatever an echo brings back.
    store.set('second', undefined);
    memento.deliverEcho();
    memento.deliverEcho();
    assert.equal(store.get('second'), undefined);
  });

  it('keeps what another window wrote meanwhile, and drops verdicts past their lifetime', () => {
    const memento = new MapMemento();
    const now = Date.now();
    const a = new MementoEraVerdictStore(memento);
    const b = new MementoEraVerdictStore(memento);
    a.set('one', { era: 'legacy', at: now });
    b.set('two', { era: 'modern', at: now });
    b.set('old', { era: 'modern', at: now - VERDICT_LIFETIME_MS - 1 });
    a.set('three', { era: 'legacy', at: now });
    const kept = memento.get<Record<string, EraVerdict>>(MementoEraVerdictStore.KEY)!;
    assert.deepEqual(Object.keys(kept).sort(), ['one', 'three', 'two']);
  });
});
