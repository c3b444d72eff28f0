/**
 * The config service: owns the server definitions. It reads the config sources, resolves them
 * into definitions (inputs, timeouts, protocol era, envFile secrets) and pushes each new set into
 * the server registry (`ServerRegistry.apply`) when config changes; the registry never asks for
 * them. The composition root (src/extension.ts) builds it and hands it to the Workbench, which
 * connects it to the registry it builds.
 */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { buildDefinitions, envFileSecrets, inputKey, type ConfigDocument } from '../config/common/definitionBuilder';
import { withoutDuplicateDiscoveries } from '../config/common/discoverySources';
import { assignLabels, type ServerDefinition } from '../config/common/launchDefinition';
import { DEFAULT_TIMEOUTS, protocolEraSetting, type TimeoutSettings } from '../config/common/serverConfig';
import { errorMessage } from '../shared/common/errors';
import { showErrorMessage } from '../shared/notifications';
import type { ConfigFiles, DefinitionTarget, InputValues, ServerDefinitions } from '../workbench';
import { DisposableStore } from '../shared/common/disposables';

/** Larger than any dotenv file; bigger ones are not read for their secrets. */
const MAX_ENV_FILE_BYTES = 1024 * 1024;

export class ConfigService implements ServerDefinitions {
  /** The config documents of the last load, for input prompts. */
  private documents: ConfigDocument[] = [];
  private target: DefinitionTarget | undefined;
  /**
   * Loads run one after another, each handed to the target before the next is read: the last
   * change wins. The target applies them in order; the servers they start do not hold back the
   * next read (never rejects: a failure is the caller's).
   */
  private loading: Promise<void> = Promise.resolve();
  private readonly disposables = new DisposableStore();

  constructor(
    private readonly sources: ConfigFiles,
    private readonly inputs: InputValues,
  ) {
    this.disposables.push(
      sources.onDidChange(() => this.reloadInBackground()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('mcpWorkbench.timeouts') || e.affectsConfiguration('mcpWorkbench.protocolEra')) this.reloadInBackground();
      }),
    );
  }

  pushTo(target: DefinitionTarget): void {
    this.target = target;
  }

  /** Reads config and applies it; resolves when the servers it starts, stops or restarts have done so. */
  reload(): Promise<void> {
    const handedOver = this.loading.then(async () => {
      const defs = await this.load();
      return { done: this.target?.apply(defs) ?? Promise.resolve() };
    });
    this.loading = handedOver.then(
      () => undefined,
      () => undefined,
    );
    return handedOver.then(({ done }) => done);
  }

  /** Re-reads config in the background; a failure is shown, never left unhandled. */
  reloadInBackground(): void {
    this.reload().catch((e) => this.reportReloadError(e));
  }

  reportReloadError(error: unknown): void {
    void showErrorMessage(vscode.l10n.t('MCP Workbench could not apply the configuration: {0}', errorMessage(error)));
  }

  /**
   * Asks for the inputs a server misses; once given, the definitions are read again (not awaited:
   * this runs inside the registry applying the last ones) and the completed one is pushed.
   */
  async collectInputs(def: ServerDefinition): Promise<boolean> {
    const doc = this.documents.find((d) => d.source.file === def.source.file && d.source.label === def.source.label);
    if (!doc) return false;
    for (const id of def.missingInputs ?? []) {
      const input = doc.parsed.inputs.find((i) => i.id === id);
      if (!input) return false;
      if (!(await this.inputs.prompt(inputKey(doc.source, id), input, def.label, def.target ?? ''))) return false;
    }
    this.reloadInBackground();
    return true;
  }

  private async load(): Promise<ServerDefinition[]> {
    this.documents = await this.sources.load();
    const configured = vscode.workspace.getConfiguration('mcpWorkbench').get<Partial<TimeoutSettings>>('timeouts', {});
    const defs = buildDefinitions(this.documents, {
      workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, path: f.uri.fsPath })),
      userHome: os.homedir(),
      env: process.env,
      defaultTimeouts: { ...DEFAULT_TIMEOUTS, ...configured },
      defaultProtocolEra: protocolEraSetting(vscode.workspace.getConfiguration('mcpWorkbench').get<string>('protocolEra')),
      inputValue: (doc, input, target) => this.inputs.valueFor(inputKey(doc.source, input.id), target),
    });
    const kept = withoutDuplicateDiscoveries(defs);
    if (kept.length !== defs.length) assignLabels(kept);
    await Promise.all(kept.map((def) => addEnvFileSecrets(def)));
    return kept;
  }

  dispose(): void {
    this.target = undefined;
    this.disposables.dispose();
  }
}

/**
 * The values of a stdio server's `envFile` reach its environment, and may be echoed in its
 * output: they are secrets like those of the config. (The file is read again at spawn time;
 * one that cannot be read here fails there, with the reason.)
 */
async function addEnvFileSecrets(def: ServerDefinition): Promise<void> {
  if (def.launch.type !== 'stdio' || !def.launch.envFile) return;
  // Only for servers that may start (trust is granted with a reload), and only a plain file
  // of dotenv size: a hostile config could name /dev/zero.
  if (def.source.scope === 'workspace' && !vscode.workspace.isTrusted) return;
  const file = def.launch.envFile;
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat?.isFile() || stat.size > MAX_ENV_FILE_BYTES) return;
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (text !== undefined) def.secrets = [...new Set([...def.secrets, ...envFileSecrets(text)])];
}
