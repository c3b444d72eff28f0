/**
 * The child session of an `mcp` launch: VS Code's JavaScript or Python debugger attaching to the
 * debuggee the adapter started. Apart from mcpDebugAdapter.ts (the launcher's life cycle) because
 * finding our own child among all sessions and giving up on a debugger that never attaches is a
 * job of its own.
 */
import * as vscode from 'vscode';
import type { DebugPlan } from './common/debugLaunch';
import type { McpDebugConfiguration } from './debugConfigurationProvider';
import { DEV_RESTART_MARKER } from './common/devWatch';

/** How long the runtime's debugger may take to attach before the start is given up (`attachTimeout` changes it). */
const DEFAULT_ATTACH_TIMEOUT_S = 30;
/** Marks the child session's configuration so the adapter finds its own child. */
const CHILD_MARKER = '__mcpWorkbenchParent';

/**
 * Starts the child session of the runtime's debugger that attaches to the debuggee, under
 * `parent`. `onStarted` hears of the child as soon as VS Code starts it (before `startDebugging`
 * settles); the promise gives the child, or undefined when it was not seen within the launch's
 * `attachTimeout` (30 s unless set).
 * `serverLabel` is asked only for the time-out message.
 */
export async function attachChildSession(
  parent: vscode.DebugSession,
  plan: DebugPlan,
  port: number,
  serverLabel: () => string,
  onStarted: (child: vscode.DebugSession) => void,
): Promise<vscode.DebugSession | undefined> {
  const attachSeconds = (parent.configuration as McpDebugConfiguration).attachTimeout ?? DEFAULT_ATTACH_TIMEOUT_S;
  const childStarted = new Promise<vscode.DebugSession | undefined>((resolve) => {
    const sub = vscode.debug.onDidStartDebugSession((s) => {
      if (s.configuration[CHILD_MARKER] === parent.id && s.configuration.port === plan.attach.port && s.configuration.name === plan.attach.name) {
        sub.dispose();
        resolve(s);
      }
    });
    setTimeout(() => {
      sub.dispose();
      resolve(undefined);
    }, attachSeconds * 1000);
  });
  const quiet = parent.configuration[DEV_RESTART_MARKER] !== undefined;
  const attach = { ...plan.attach, [CHILD_MARKER]: parent.id, port: plan.attach.port ?? port, ...(quiet ? { internalConsoleOptions: 'neverOpen' } : {}) };
  const starting = vscode.debug.startDebugging(parent.workspaceFolder, attach, {
    parentSession: parent,
    lifecycleManagedByParent: true,
    compact: true,
    consoleMode: vscode.DebugConsoleMode.MergeWithParent,
    ...(quiet ? { suppressDebugView: true, suppressSaveBeforeStart: true } : {}),
  });
  // A debugger that never attaches (its adapter or a configuration resolver hangs) would leave
  // the server "starting" under a launch override for good: give up and say what to do.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), attachSeconds * 1000);
  });
  void childStarted.then((s) => {
    if (s) onStarted(s);
  });
  try {
    const ok = await Promise.race([Promise.resolve(starting), timedOut]);
    if (ok === 'timeout') {
      throw new Error(
        vscode.l10n.t(
          'The {0} debugger did not attach to MCP server "{1}" within {2} s, so the server runs without it. Check that {0} debugging works in this window (its extension is enabled and answers), then start debugging again, or raise "attachTimeout" in the launch configuration.',
          plan.runtime === 'node' ? 'JavaScript' : 'Python',
          serverLabel(),
          attachSeconds,
        ),
      );
    }
    if (!ok) throw new Error(vscode.l10n.t('The {0} debugger did not start.', plan.attach.type));
    return await childStarted;
  } finally {
    clearTimeout(timer);
  }
}
