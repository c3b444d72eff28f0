/**
 * Values for `${input:id}`. Asked once, then remembered: `password: true` values in
 * SecretStorage (never in settings or logs), others in the workspace state.
 */
import * as vscode from 'vscode';
import type { InputDefinition } from './common/serverConfig';

const PLAIN_KEY = 'mcpWorkbench.inputs';
const SECRET_KEYS = 'mcpWorkbench.secretInputKeys';
const SECRET_PREFIX = 'mcpWorkbench.input:';

export class InputStore {
  private readonly values = new Map<string, string>();

  constructor(private readonly secrets: vscode.SecretStorage, private readonly state: vscode.Memento) {}

  /** Loads stored values so definition building can read them synchronously. */
  async load(): Promise<void> {
    this.values.clear();
    const plain = this.state.get<Record<string, string>>(PLAIN_KEY, {});
    for (const [k, v] of Object.entries(plain)) this.values.set(k, v);
    for (const key of this.state.get<string[]>(SECRET_KEYS, [])) {
      const value = await this.secrets.get(SECRET_PREFIX + key);
      if (value !== undefined) this.values.set(key, value);
    }
  }

  get(key: string): string | undefined {
    return this.values.get(key);
  }

  /** Asks the user for one input; resolves false when they dismiss it. */
  async prompt(key: string, input: InputDefinition, serverLabel: string): Promise<boolean> {
    const title = vscode.l10n.t('Input for MCP server "{0}"', serverLabel);
    let value: string | undefined;
    if (input.type === 'pickString' && input.options?.length) {
      value = await vscode.window.showQuickPick(input.options, { title, placeHolder: input.description ?? input.id, ignoreFocusOut: true });
    } else {
      value = await vscode.window.showInputBox({
        title,
        prompt: input.description ?? input.id,
        value: input.default,
        password: input.password,
        ignoreFocusOut: true,
      });
    }
    if (value === undefined) return false;
    await this.set(key, value, input.password === true);
    return true;
  }

  async set(key: string, value: string, secret: boolean): Promise<void> {
    this.values.set(key, value);
    if (secret) {
      await this.secrets.store(SECRET_PREFIX + key, value);
      const keys = new Set(this.state.get<string[]>(SECRET_KEYS, []));
      keys.add(key);
      await this.state.update(SECRET_KEYS, [...keys]);
    } else {
      await this.state.update(PLAIN_KEY, { ...this.state.get<Record<string, string>>(PLAIN_KEY, {}), [key]: value });
    }
  }

  async clear(): Promise<void> {
    for (const key of this.state.get<string[]>(SECRET_KEYS, [])) await this.secrets.delete(SECRET_PREFIX + key);
    await this.state.update(SECRET_KEYS, undefined);
    await this.state.update(PLAIN_KEY, undefined);
    this.values.clear();
  }
}
