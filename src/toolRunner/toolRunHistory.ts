/**
 * The Run Tool panel's memory of a tool, kept in the workspace state: the history of runs
 * (shown again, compared two at a time) and the named argument presets. The shapes and caps
 * are in `common/runHistory.ts`; this is the glue that stores them, asks for a preset's name
 * and tells the webview. Every write re-reads the stored list, so two windows of one
 * workspace only lose a race, not data. Arguments are stored without secret fields.
 */
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import {
  addToHistory,
  deletePreset,
  diffSubject,
  historyKey,
  parseHistory,
  parsePresets,
  presetName,
  presetsKey,
  savePreset,
  summarize,
  DEFAULT_HISTORY_LIMITS,
  type ArgumentPreset,
  type HistoryEntry,
  type HistorySummary,
} from './common/runHistory';
import { diffJson } from './common/jsonDiff';
import { diffAfterRerun, type KeptChange } from './common/rerunDiff';
import { historyOutcome } from './common/toolCall';
import type { RunDiff, ToWebview } from './common/toolRunnerProtocol';
import { showErrorMessage, showInformationMessage } from '../shared/notifications';

export interface HistoryHost {
  /** The tool as the server lists it now (its outputSchema checks earlier results again). */
  tool(): Tool;
  /** The arguments without the fields the input schema marks secret. */
  withoutSecrets(args: Record<string, unknown>): Record<string, unknown>;
  post(message: ToWebview): void;
}

export class ToolRunHistory {
  /** The last diff shown, resent when the webview is re-created. */
  lastDiff: RunDiff | undefined;
  /** The last re-run diff with changes (see diffRerun). */
  private lastChange: KeptChange | undefined;

  constructor(
    private readonly state: vscode.Memento,
    private readonly serverName: string,
    private readonly toolName: string,
    private readonly host: HistoryHost,
  ) {}

  entries(): HistoryEntry[] {
    return parseHistory(this.state.get(historyKey(this.serverName, this.toolName)));
  }

  summaries(): HistorySummary[] {
    return this.entries().map(summarize);
  }

  /** Adds a finished run (its arguments already without secrets) and updates the list. */
  async record(entry: HistoryEntry): Promise<void> {
    const history = addToHistory(this.entries(), entry, DEFAULT_HISTORY_LIMITS);
    await this.state.update(historyKey(this.serverName, this.toolName), history);
    this.host.post({ type: 'history', entries: history.map(summarize) });
  }

  /** Shows an earlier run in the panel. */
  show(id: string): void {
    const entry = this.entries().find((e) => e.id === id);
    if (!entry) {
      void showErrorMessage(vscode.l10n.t('That run is no longer in the history of "{0}".', this.toolName));
      return;
    }
    this.host.post({ type: 'run', entry: summarize(entry), outcome: historyOutcome(entry, this.host.tool()) });
  }

  /** Compares two runs and shows the changes; undefined when one is gone. */
  diffRuns(beforeId: string, afterId: string, reason?: string): RunDiff | undefined {
    const diff = this.compare(beforeId, afterId, reason);
    if (diff) this.showDiff(diff);
    return diff;
  }

  /**
   * A dev-loop re-run's diff against the run it repeated; when the result did not change, the
   * last real change stays shown, labelled as such (common/rerunDiff.ts). Returns what is shown.
   */
  diffRerun(beforeId: string, afterId: string, reason: string): RunDiff | undefined {
    const fresh = this.compare(beforeId, afterId, reason);
    if (!fresh) return undefined;
    const { shown, kept } = diffAfterRerun(fresh, this.lastChange, vscode.l10n.t('{0}: the result did not change. Shown: the last change.', reason));
    this.lastChange = kept;
    this.showDiff(shown);
    return shown;
  }

  private compare(beforeId: string, afterId: string, reason?: string): RunDiff | undefined {
    const entries = this.entries();
    const before = entries.find((e) => e.id === beforeId);
    const after = entries.find((e) => e.id === afterId);
    if (!before || !after) {
      void showErrorMessage(vscode.l10n.t('One of the two runs is no longer in the history of "{0}".', this.toolName));
      return undefined;
    }
    return { before: summarize(before), after: summarize(after), diff: diffJson(diffSubject(before), diffSubject(after)), ...(reason ? { reason } : {}) };
  }

  private showDiff(diff: RunDiff): void {
    this.lastDiff = diff;
    this.host.post({ type: 'diff', diff });
  }

  presets(): ArgumentPreset[] {
    return parsePresets(this.state.get(presetsKey(this.serverName, this.toolName)));
  }

  /** Saves arguments as a named preset (secrets removed); asks for the name when none is given. */
  async savePreset(args: Record<string, unknown>, name?: string): Promise<string | undefined> {
    const existing = this.presets();
    const tool = this.host.tool();
    const typed =
      name ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Save Arguments as Preset'),
        prompt: vscode.l10n.t('A name for these arguments of "{0}" (kept for this workspace; secret fields are not saved)', tool.title ?? tool.name),
        placeHolder: vscode.l10n.t('e.g. small input'),
        validateInput: (value) => (presetName(value) ? undefined : vscode.l10n.t('Type a name.')),
      }));
    const clean = typed === undefined ? undefined : presetName(typed);
    if (!clean) return undefined;
    const presets = savePreset(existing, { name: clean, args: this.host.withoutSecrets(args) });
    await this.state.update(presetsKey(this.serverName, this.toolName), presets);
    this.host.post({ type: 'presets', presets });
    if (name === undefined && existing.some((p) => p.name === clean)) void showInformationMessage(vscode.l10n.t('Replaced the preset "{0}".', clean));
    return clean;
  }

  async deletePreset(name: string): Promise<void> {
    const presets = deletePreset(this.presets(), name);
    await this.state.update(presetsKey(this.serverName, this.toolName), presets.length ? presets : undefined);
    this.host.post({ type: 'presets', presets });
  }
}
