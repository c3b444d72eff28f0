/**
 * Where the shipped tool call's extra time goes: one interleaved in-process run in which the
 * connection as shipped (the activated bundle's own, recording on) takes turns with copies of
 * it that each have ONE part switched off, so the difference of each copy's p50 to the shipped
 * one is what that part costs on the call's path. A diagnostic, not the benchmark: no goal is
 * judged here, and nothing here changes what `npm run bench` measures.
 *
 *   node out/test/bench/suspects.js [stdio|http] [iterations] [warmup] [runs]
 *   SUSPECTS=noTrace,bare …   only these beside the base (pairs are the least noisy)
 *   BASE=bare SUSPECTS=bareOpts …   the base is another contestant than the shipped connection
 *
 * The copies are built with the bundle's own McpServerConnection class (`shipped.constructor`)
 * and the Workbench's own ConnectionHost (`shipped.host`), with one field replaced:
 * - copy: nothing replaced (an A/A control: it must come out at the shipped p50, else the
 *   harness itself is biased)
 * - noActivity: the host's trace callback is a no-op (the tracer still builds its records, but
 *   the Workbench's onTrace, the Activity log's intake and its batch timer are gone)
 * - noTrace: no trace callback at all (the transport is not instrumented; on HTTP the stream-cut
 *   hook stays, as shipped)
 * - noFeatures: no client features (sampling/elicitation handlers, their capabilities)
 * - noLiveness: no ping timer
 * - noProgress: tools/call without the progress handler (so no progress token)
 * - direct: the shipped client's own `request`, skipping the connection's layers (toolCalls,
 *   session renewal), with the same request options
 * - srcSdk: the connection compiled file by file (out/src) on the node_modules SDK instead of
 *   the bundle's copy (dist/deps.js), same host
 * - bare: the bare SDK client (bareClient.ts), for the ratio
 * - bareOpts / bareOwned (stdio): the bare SDK Client with the connection's request options
 *   (progress handler, so a progress token) / with our stdio transport (own process group,
 *   stderr piped) instead of the SDK's; bareOwnedNoGroup: the latter without its own process
 *   group and session (setsid), which the shipped transport needs to end a server's children
 */
import { McpServerConnection } from '../../src/mcp/connection/serverConnection';
import type { ConnectionHost, ServerLog } from '../../src/mcp/connection/connectionTypes';
import type { ServerDefinition } from '../../src/config/common/launchDefinition';
import type { SpawnOptions } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { OwnedStdioTransport } from '../../src/mcp/process/ownedStdioTransport';
import { requestOptionsFor } from '../../src/mcp/connection/requestLimits';
import { DEFAULT_TIMEOUTS } from '../../src/config/common/serverConfig';
import { connectBareHttp, connectBareStdio } from './bareClient';
import { activateExtension, deactivateExtension, stdioEntry } from './host';
import { fixtureEnv, startHttpFixtureProcess, STDIO_FIXTURE } from './scenario';
import { interleave, median, summarize } from './stats';

const ARGS = { text: 'benchmark' };
/** The module object itself (not an ESM namespace copy), so that replacing `spawn` reaches every caller. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const childProcess = require('node:child_process') as typeof import('node:child_process');

type Internals = { host: ConnectionHost; log: ServerLog; constructor: new (d: ServerDefinition, h: ConnectionHost, l: ServerLog) => McpServerConnection };

async function main(): Promise<void> {
  const [kind = 'stdio', iterationsS = '4000', warmupS = '500', runsS = '3'] = process.argv.slice(2);
  const iterations = Number(iterationsS);
  const warmup = Number(warmupS);
  const runs = Number(runsS);
  const only = process.env.SUSPECTS?.split(',');
  const fixture = kind === 'http' ? await startHttpFixtureProcess() : undefined;
  const host = await activateExtension();
  const deltas: Record<string, number[]> = {};
  const p50s: Record<string, number[]> = {};
  for (let run = 0; run < runs; run++) {
    await host.configure({ 'bench-shipped': fixture ? { type: 'http', url: fixture.url } : stdioEntry(STDIO_FIXTURE) });
    const shipped = host.running('bench-shipped');
    const inner = shipped as unknown as Internals;
    const Ctor = inner.constructor;
    const made: McpServerConnection[] = [];
    const variant = async (name: string, overrides: Partial<ConnectionHost>, ctor = Ctor): Promise<McpServerConnection> => {
      const def = { ...shipped.definition, id: `bench-${name}`, name: `bench-${name}`, label: `bench-${name}` };
      const c = new ctor(def, { ...inner.host, ...overrides }, inner.log);
      await c.start();
      if (c.state.kind !== 'running') throw new Error(`${name}: ${JSON.stringify(c.state)}`);
      made.push(c);
      return c;
    };
    const call = (c: McpServerConnection) => () => c.callTool('echo', ARGS);
    const extraClients: Client[] = [];
    let bare: Awaited<ReturnType<typeof connectBareStdio>> | undefined;
    const noProgressOptions = (c: McpServerConnection) => {
      const own = c.requestOptions.bind(c);
      c.requestOptions = (method, options) => ({ ...own(method, options), onprogress: undefined });
      return c;
    };
    const makers: Record<string, () => Promise<() => Promise<unknown>>> = {
      copy: async () => call(await variant('copy', {})),
      noActivity: async () => call(await variant('noActivity', { trace: () => undefined })),
      noTrace: async () => call(await variant('noTrace', { trace: undefined })),
      noFeatures: async () => call(await variant('noFeatures', { clientFeatures: undefined })),
      noLiveness: async () => call(await variant('noLiveness', { pingIntervalMs: undefined })),
      noProgress: async () => call(noProgressOptions(await variant('noProgress', {}))),
      direct: async () => () => shipped.client!.request({ method: 'tools/call', params: { name: 'echo', arguments: ARGS } }, shipped.requestOptions('tools/call')),
      srcSdk: async () => call(await variant('srcSdk', {}, McpServerConnection as unknown as Internals['constructor'])),
      bare: async () => {
        bare = fixture ? await connectBareHttp(fixture.url) : await connectBareStdio(process.execPath, [STDIO_FIXTURE], fixtureEnv());
        return () => bare!.callTool('echo', ARGS);
      },
    };
    /** The bare SDK Client plus one thing the connection adds (stdio only). */
    const bareWith = async (transport: 'sdk' | 'owned' | 'ownedNoGroup', options: boolean): Promise<() => Promise<unknown>> => {
      const client = new Client({ name: 'bench-bare', version: '0' });
      const params = { command: process.execPath, args: [STDIO_FIXTURE], env: fixtureEnv() as Record<string, string> };
      // ownedNoGroup: our transport with the server left in this process's session (spawn's
      // `detached` forced off while it starts), to weigh the process group (setsid) alone.
      const spawn = childProcess.spawn;
      if (transport === 'ownedNoGroup') {
        (childProcess as { spawn: unknown }).spawn = (command: string, args: string[], options: SpawnOptions) => spawn(command, args, { ...options, detached: false });
      }
      try {
        await client.connect(transport === 'sdk' ? new StdioClientTransport({ ...params, stderr: 'ignore' }) : new OwnedStdioTransport({ ...params, stderr: 'pipe' }));
      } finally {
        (childProcess as { spawn: unknown }).spawn = spawn;
      }
      extraClients.push(client);
      return () => client.request({ method: 'tools/call', params: { name: 'echo', arguments: ARGS } }, options ? requestOptionsFor(DEFAULT_TIMEOUTS, 'tools/call') : undefined);
    };
    makers.shipped = async () => call(shipped);
    if (!fixture) {
      makers.bareOpts = () => bareWith('sdk', true);
      makers.bareOwned = () => bareWith('owned', false);
      makers.bareOwnedNoGroup = () => bareWith('ownedNoGroup', false);
    }
    const baseName = process.env.BASE ?? 'shipped';
    const contestants: Record<string, () => Promise<unknown>> = baseName === 'shipped' ? { shipped: call(shipped) } : { [baseName]: await makers[baseName]() };
    for (const [name, make] of Object.entries(makers)) if (name !== baseName && (!only || only.includes(name))) contestants[name] = await make();
    const samples = await interleave(contestants, iterations, warmup);
    const base = summarize(samples[baseName]).p50;
    const line: string[] = [];
    for (const [name, s] of Object.entries(samples)) {
      const p50 = summarize(s).p50;
      (p50s[name] ??= []).push(p50 * 1000);
      (deltas[name] ??= []).push((base - p50) * 1000);
      line.push(`${name} ${(p50 * 1000).toFixed(0)}`);
    }
    process.stderr.write(`run ${run + 1}: p50 µs ${line.join(', ')}\n`);
    await Promise.all([bare?.close(), ...extraClients.map((c) => c.close()), ...made.map((c) => c.dispose()), host.configure({})]);
  }
  process.stdout.write(`| part switched off (${kind}) | p50 µs [runs] | base − it, µs [runs] | × bare |\n| --- | --- | --- | --- |\n`);
  for (const name of Object.keys(p50s)) {
    const fmt = (v: number[]) => `${median(v).toFixed(1)} [${v.map((x) => x.toFixed(1)).join(' ')}]`;
    const ratio = p50s.bare ? p50s[name].map((p, i) => p / p50s.bare[i]) : [];
    process.stdout.write(`| ${name} | ${fmt(p50s[name])} | ${name === (process.env.BASE ?? 'shipped') ? '—' : fmt(deltas[name])} | ${p50s.bare ? median(ratio).toFixed(3) : ''} |\n`);
  }
  await deactivateExtension();
  await fixture?.stop();
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
