/**
 * The shipped path: the extension's own bundle (dist/extension.js), activated in this process
 * under the `vscode` stub, with servers configured through the `mcpWorkbench.servers` setting.
 * Connections are then built by the extension itself, exactly as in VS Code: the Workbench
 * makes the ServerRegistry with its ConnectionHost, whose trace hook fires `onTrace`, which
 * registerActivity feeds into the real ActivityLog (plus the Activity tree's throttled refresh
 * and the request documents' listener). Recording is therefore on, as shipped; nothing here
 * can turn it off. The Servers tree is the real ServerTreeProvider (`api.testing.serverTree`).
 *
 * Only `vscode` is faked (see vscodeStub.ts). Output channels are the stub's counting ones.
 */
import * as path from 'node:path';
import type { McpWorkbenchApi } from '../../src/api';
import type { McpServerConnection } from '../../src/mcp/connection/serverConnection';
import type { ActivityLog } from '../../src/traffic/common/activityLog';
import { createVscodeStub, installVscodeStub, type StubControl } from './vscodeStub';

export const REPO = path.resolve(__dirname, '../../..');
export const BUNDLE = path.join(REPO, 'dist/extension.js');

export interface ExtensionHost {
  readonly api: McpWorkbenchApi;
  readonly stub: StubControl;
  /** Replaces the configured servers (the `mcpWorkbench.servers` setting) and applies it as VS Code would. */
  configure(servers: Record<string, unknown>): Promise<void>;
  /** A configured server's connection once it runs. */
  running(name: string): McpServerConnection;
  /** The Activity view's log (registered by the extension as `_mcpWorkbench.activityLog`). */
  activityLog(): ActivityLog;
  /** The extension context's `globalState` (the era verdicts live there: see eraVerdicts.ts). */
  readonly globalState: { update(key: string, value: unknown): PromiseLike<void> };
  deactivate(): Promise<void>;
}

let active: ExtensionHost | undefined;

/** Activates the bundle once per process (the extension keeps one Workbench per activation). */
export async function activateExtension(bundle = BUNDLE): Promise<ExtensionHost> {
  if (active) return active;
  const { api: vscodeApi, control } = createVscodeStub(path.join(REPO, 'package.json'));
  installVscodeStub(vscodeApi);
  control.settings.set('mcpWorkbench.servers', {});
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const extension = require(bundle) as { activate(context: unknown): McpWorkbenchApi; deactivate(): Promise<void> };
  const context = control.context(REPO) as { globalState: ExtensionHost['globalState'] };
  const api = extension.activate(context);
  await api.ready;
  const host: ExtensionHost = {
    api,
    stub: control,
    globalState: context.globalState,
    async configure(servers) {
      control.settings.set('mcpWorkbench.servers', servers);
      // In VS Code the settings change reaches ConfigSources and reloads; reload() is that same call, awaited.
      await api.reload();
    },
    running(name) {
      const connection = api.server(name);
      if (!connection) throw new Error(`no server "${name}" configured`);
      if (connection.state.kind !== 'running') throw new Error(`server "${name}" is ${JSON.stringify(connection.state)}`);
      return connection;
    },
    activityLog() {
      const command = control.commands.get('_mcpWorkbench.activityLog');
      if (!command) throw new Error('the extension did not register _mcpWorkbench.activityLog');
      return command() as ActivityLog;
    },
    async deactivate() {
      await extension.deactivate();
      active = undefined;
    },
  };
  active = host;
  return host;
}

/** Deactivates the extension if this process activated it (stops its servers). */
export async function deactivateExtension(): Promise<void> {
  await active?.deactivate();
}

/** A stdio server entry as a user writes it, running the fixture under this Node. */
export function stdioEntry(script: string, env: Record<string, string> = {}): Record<string, unknown> {
  return { type: 'stdio', command: process.execPath, args: [script], env };
}
