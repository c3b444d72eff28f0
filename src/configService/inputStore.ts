/**
 * Values for `${input:id}`. Asked once, then remembered: `password: true` values in
 * SecretStorage (never in settings or logs), others in the workspace state.
 *
 * Each value is bound to the targets it was entered for (what the server runs or connects to,
 * see common/launchTarget.ts), stored next to it: a config edit that points the server
 * elsewhere (a `git pull` changing its `url` or `command`) gets the value asked for again,
 * with a note saying where it would now go, instead of having it sent there unasked. Values
 * stored by earlier versions have no binding; what they were typed for is unknown, so they are
 * asked for once too.
 */
import * as vscode from 'vscode';
import type { InputDefinition } from '../config/common/serverConfig';
import { bind, rebindReason, valueFor, type BoundValue } from '../config/common/launchTarget';

const PLAIN_KEY = 'mcpWorkbench.inputs';
/** Targets of the plain values, by key (workspace state, like the values). */
const PLAIN_TARGETS = 'mcpWorkbench.inputTargets';
const SECRET_KEYS = 'mcpWorkbench.secretInputKeys';
const SECRET_PREFIX = 'mcpWorkbench.input:';
/** Targets of a secret value (a JSON array), in SecretStorage next to it: both live as long. */
const SECRET_TARGETS_PREFIX = 'mcpWorkbench.inputTargets:';

export class InputStore {
  private readonly values = new Map<string, BoundValue>();
  /** Writes one after the other: two servers sharing an input may be answered at once. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  /** Loads stored values so definition building can read them synchronously. */
  async load(): Promise<void> {
    this.values.clear();
    const plain = this.state.get<Record<string, string>>(PLAIN_KEY, {});
    const plainTargets = this.state.get<Record<string, unknown>>(PLAIN_TARGETS, {});
    for (const [k, v] of Object.entries(plain)) this.values.set(k, { value: v, targets: targetList(plainTargets[k]) });
    for (const key of this.state.get<string[]>(SECRET_KEYS, [])) {
      const value = await this.secrets.get(SECRET_PREFIX + key);
      if (value === undefined) continue;
      const targets = await this.secrets.get(SECRET_TARGETS_PREFIX + key);
      this.values.set(key, { value, targets: targetList(parseJson(targets)) });
    }
  }

  /** Whether a value is stored, and which (wherever it was entered for): not for starting servers. */
  get(key: string): string | undefined {
    return this.values.get(key)?.value;
  }

  /** The stored value if it was entered for `target`; otherwise it has to be asked for again. */
  valueFor(key: string, target: string): string | undefined {
    return valueFor(this.values.get(key), target);
  }

  /**
   * Asks the user for one input, for a server whose target is `target`; resolves false when
   * they dismiss it. A value stored for another target is named in a note, never reused.
   */
  async prompt(key: string, input: InputDefinition, serverLabel: string, target: string): Promise<boolean> {
    const title = vscode.l10n.t('Input for MCP server "{0}"', serverLabel);
    const stored = this.values.get(key);
    const reason = rebindReason(stored, target);
    const note =
      reason?.kind === 'moved'
        ? vscode.l10n.t("The server's destination changed from {0} to {1}: enter the value again to send it there.", reason.from, target)
        : reason?.kind === 'unbound'
          ? vscode.l10n.t('Stored before MCP Workbench remembered where inputs go: enter it again to send it to {0}.', target)
          : undefined;
    const described = input.description ?? input.id;
    const text = note ? `${note} ${described}` : described;
    let value: string | undefined;
    if (input.type === 'pickString' && input.options?.length) {
      value = await vscode.window.showQuickPick(input.options, { title, placeHolder: text, ignoreFocusOut: true });
    } else {
      value = await vscode.window.showInputBox({
        title,
        prompt: text,
        // A plain value the user typed before is offered again; a password never is.
        value: !input.password && stored ? stored.value : input.default,
        password: input.password,
        ignoreFocusOut: true,
      });
    }
    if (value === undefined) return false;
    await this.set(key, value, input.password === true, target);
    return true;
  }

  /** Stores a value entered (or confirmed) for `target`. */
  set(key: string, value: string, secret: boolean, target: string): Promise<void> {
    const write = this.writes.then(() => this.write(key, value, secret, target));
    this.writes = write.catch(() => undefined);
    return write;
  }

  private async write(key: string, value: string, secret: boolean, target: string): Promise<void> {
    const bound = bind(this.values.get(key), value, target);
    this.values.set(key, bound);
    if (secret) {
      await this.secrets.store(SECRET_PREFIX + key, value);
      await this.secrets.store(SECRET_TARGETS_PREFIX + key, JSON.stringify(bound.targets));
      const keys = new Set(this.state.get<string[]>(SECRET_KEYS, []));
      keys.add(key);
      await this.state.update(SECRET_KEYS, [...keys]);
    } else {
      await this.state.update(PLAIN_KEY, { ...this.state.get<Record<string, string>>(PLAIN_KEY, {}), [key]: value });
      await this.state.update(PLAIN_TARGETS, { ...this.state.get<Record<string, unknown>>(PLAIN_TARGETS, {}), [key]: bound.targets });
    }
  }

  async clear(): Promise<void> {
    await this.writes;
    for (const key of this.state.get<string[]>(SECRET_KEYS, [])) {
      await this.secrets.delete(SECRET_PREFIX + key);
      await this.secrets.delete(SECRET_TARGETS_PREFIX + key);
    }
    await this.state.update(SECRET_KEYS, undefined);
    await this.state.update(PLAIN_KEY, undefined);
    await this.state.update(PLAIN_TARGETS, undefined);
    this.values.clear();
  }
}

function parseJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Stored targets, or none (values from before binding, or a damaged record: asked again). */
function targetList(raw: unknown): string[] {
  return Array.isArray(raw) ? raw.filter((t): t is string => typeof t === 'string') : [];
}
