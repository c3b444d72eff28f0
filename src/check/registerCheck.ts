/**
 * MCP: Check Server. Tests a running server the way a client would (fresh lists, each skill's
 * SKILL.md read and verified when it offers skills, and a call of
 * each read-only tool that has an `outputSchema` and needs no arguments), then runs the pure
 * checks of ./common over its lists and its recorded exchanges.
 *
 * The findings are shown natively, without a new view that would sit empty between checks:
 * a one-line notification with the counts; "Show" opens the report (a read-only virtual
 * markdown document, in the preview: spec links clickable, server text escaped); "Findings…"
 * is a Problems-like quick pick (severity icon, message, spec section) whose items open the
 * offending recorded message in the Inspector, or the spec section when nothing was recorded.
 * Diagnostics would need a file to hang on; a server has none.
 */
import * as vscode from 'vscode';
import type { ActivityLog } from '../traffic/common/activityLog';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { Workbench } from '../workbench';
import { revealControlCharacters } from '../shared/common/untrustedText';
import { showInformationMessage, showWarningMessage, withNotificationProgress } from '../shared/notifications';
import { DEFAULT_BUDGETS, isObject, type CheckBudgets, type CheckInput, type Finding } from './common/checkTypes';
import type { CheckReport } from './common/runChecks';
import { errorMessage } from '../shared/common/errors';
import { InspectorCommands } from '../inspector/common/commandIds';
import { CheckCommands } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';
import { DevCapabilityDiffs } from './devCapabilityDiff';

export const CHECK_SCHEME = 'mcp-check';

interface StoredCheck {
  serverId: string;
  label: string;
  markdown: string;
  report: CheckReport;
}

export function registerCheck(workbench: Workbench, log: ActivityLog): vscode.Disposable[] {
  const checks = new Map<string, StoredCheck>();
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const devDiffs = new DevCapabilityDiffs(workbench);
  const uriOf = (serverId: string) => vscode.Uri.from({ scheme: CHECK_SCHEME, path: `/${encodeURIComponent(serverId)}/check.md` });

  const pick = async (arg: unknown): Promise<McpServerConnection | undefined> => {
    const id = typeof arg === 'string' ? arg : isObject(arg) && typeof arg.serverId === 'string' ? arg.serverId : undefined;
    if (id) return workbench.registry.find(id);
    const running = workbench.registry.all().filter((c) => c.state.kind === 'running');
    if (!running.length) {
      void showInformationMessage(vscode.l10n.t('No MCP server is running. Start the server to check, then run MCP: Check Server again.'));
      return undefined;
    }
    if (running.length === 1) return running[0];
    const picked = await vscode.window.showQuickPick(
      running.map((c) => ({ label: revealControlCharacters(c.definition.label), description: c.definition.source.label, c })),
      { placeHolder: vscode.l10n.t('Server to check') },
    );
    return picked?.c;
  };

  const collect = async (
    c: McpServerConnection,
    budgets: CheckBudgets,
    progress: vscode.Progress<{ message?: string }>,
    token: vscode.CancellationToken,
  ): Promise<CheckInput | undefined> => {
    // The checks' code loads on the first check (dist/features.js, esbuild.mjs lazyFeatures).
    const { gatherCheckInput, StoppedWhileCheckedError } = await import('./common/gatherInput.js');
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      const devRestart = devDiffs.last(c.definition.id);
      return await gatherCheckInput(c, {
        budgets,
        secrets: c.definition.secrets,
        signal: abort.signal,
        messages: () =>
          log
            .entries()
            .filter((e) => e.serverId === c.definition.id)
            .reverse(),
        progress: (at) =>
          progress.report({
            message:
              at.step === 'list'
                ? vscode.l10n.t('listing tools, prompts and resources…')
                : at.step === 'call'
                  ? vscode.l10n.t('calling read-only tool {0} ({1}/{2})…', revealControlCharacters(at.tool), at.index, at.total)
                  : vscode.l10n.t('reading and verifying skills…'),
          }),
        ...(devRestart ? { extra: { devRestart } } : {}),
      });
    } catch (error) {
      if (error instanceof StoppedWhileCheckedError)
        throw new Error(vscode.l10n.t('{0} stopped while it was being checked.', c.definition.label), { cause: error });
      throw error;
    } finally {
      sub.dispose();
    }
  };

  const showFindings = async (arg?: unknown) => {
    const id = typeof arg === 'string' ? arg : undefined;
    const stored = id ? checks.get(id) : [...checks.values()].at(-1);
    if (!stored) {
      void showInformationMessage(vscode.l10n.t('No server was checked yet. Run MCP: Check Server first.'));
      return;
    }
    const { summaryOf } = await import('./common/runChecks.js');
    const icon = { error: 'error', warning: 'warning', info: 'info' } as const;
    const items = stored.report.findings.map((f) => ({
      label: `$(${icon[f.severity]}) ${revealControlCharacters(f.message).replace(/\$\(/g, '$\u200b(')}`,
      description: f.spec.title,
      detail: f.seq !== undefined ? vscode.l10n.t('Recorded message #{0}: opens in the Inspector', f.seq) : vscode.l10n.t('Opens the spec section'),
      finding: f,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Check of {0}: {1}', revealControlCharacters(stored.label), summaryOf(stored.report.counts)),
      placeHolder: vscode.l10n.t('Pick a finding to open its recorded message'),
      matchOnDescription: true,
    });
    if (picked) await openFinding(picked.finding);
  };

  const openFinding = async (f: Finding) => {
    if (f.seq !== undefined && log.find(f.seq)) await vscode.commands.executeCommand(InspectorCommands.openActivityEntry, f.seq);
    else await vscode.env.openExternal(vscode.Uri.parse(f.spec.url));
  };

  const check = async (arg?: unknown, options?: { budgets?: Partial<CheckBudgets> }): Promise<CheckReport | undefined> => {
    const c = await pick(arg);
    if (!c) return undefined;
    if (c.state.kind !== 'running') {
      void showWarningMessage(vscode.l10n.t('{0} is not running. Start it, then check it.', c.definition.label));
      return undefined;
    }
    const budgets = { ...DEFAULT_BUDGETS, ...options?.budgets };
    let input: CheckInput | undefined;
    try {
      input = await withNotificationProgress({ title: vscode.l10n.t('Checking {0}', c.definition.label), cancellable: true }, (progress, token) =>
        collect(c, budgets, progress, token),
      );
    } catch (error) {
      void showWarningMessage(vscode.l10n.t('Could not check {0}: {1}', c.definition.label, errorMessage(error)));
      return undefined;
    }
    if (!input) return undefined;
    const { reportMarkdown, runChecks, summaryOf } = await import('./common/runChecks.js');
    const report = runChecks(input);
    const id = c.definition.id;
    checks.delete(id);
    checks.set(id, { serverId: id, label: c.definition.label, report, markdown: reportMarkdown(c.definition.label, input, report, new Date()) });
    changed.fire(uriOf(id));
    const show = vscode.l10n.t('Show');
    const findings = vscode.l10n.t('Findings…');
    const say = report.counts.error ? showWarningMessage : showInformationMessage;
    void say(vscode.l10n.t('Check of {0}: {1}.', c.definition.label, summaryOf(report.counts)), show, ...(report.findings.length ? [findings] : [])).then(
      async (answer) => {
        if (answer === show) await vscode.commands.executeCommand('markdown.showPreview', uriOf(id));
        if (answer === findings) await showFindings(id);
      },
    );
    return report;
  };

  return [
    changed,
    devDiffs,
    vscode.workspace.registerTextDocumentContentProvider(CHECK_SCHEME, {
      onDidChange: changed.event,
      provideTextDocumentContent: (uri) => {
        const id = decodeURIComponent(uri.path.split('/')[1] ?? '');
        return checks.get(id)?.markdown ?? vscode.l10n.t('This server was not checked in this window. Run MCP: Check Server.');
      },
    }),
    ...registerCommandTable({
      [CheckCommands.check]: check,
      [CheckCommands.showFindings]: showFindings,
    }),
  ];
}
