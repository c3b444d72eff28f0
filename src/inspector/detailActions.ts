/**
 * What the Inspector's detail pane does beyond showing an exchange: Replay (send the edited
 * request again through the server's connection, so it is recorded like any other and shows
 * as a new row marked as a replay), Open in Run Tool, and Copy as Inspector CLI Command.
 *
 * A replayed tools/call asks first exactly when Run Tool would (a tool not marked read-only,
 * unless "don't ask again" allows it), with Run Tool's dialog and approvals.
 */
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { ActivityLog } from '../traffic/common/activityLog';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { Workbench } from '../workbench';
import type { InspectorRecord } from './common/inspectorRows';
import type { DetailAction, ToWebview } from './common/inspectorProtocol';
import { editableParams, isReplayOf, parseParamsText, planReplay, replayUnavailable, withoutRedacted, type ReplayPlan } from './common/replayRequest';
import { cliUnsupported, inspectorCliCommand } from './common/inspectorCli';
import type { ConfirmCall, ToolApprovalGate } from '../toolRunner/common/toolApprovals';
import { urlSecrets } from '../shared/common/redact';
import { errorMessage } from '../shared/common/errors';
import { formatIssue, validateAgainstSchema } from '../jsonSchema/common/schemaValidation';
import { ToolRunnerCommands } from '../toolRunner/common/commandIds';
import { ServerCommands } from '../servers/common/commandIds';

type Status = Extract<ToWebview, { type: 'actionStatus' }>;
type Post = (status: Status) => void;

const MAX_REPLAY_MARKS = 10_000;
/** The reason a cancelled replay sends in notifications/cancelled (the row shows it). */
export const CANCEL_REASON = 'Cancelled in the Inspector';

export class InspectorActions {
  /** Replaced by tests, as on the Run Tool panel (see ConfirmCall); undefined: the gate's own, Run Tool's modal. */
  confirm: ConfirmCall | undefined;
  /** Replays by the seq of the exchange they created: the seq of the exchange they replay. */
  private readonly replays = new Map<number, number>();
  /** Replays in flight by the seq of the exchange they created: aborting sends notifications/cancelled (the SDK does). */
  private readonly inFlight = new Map<number, AbortController>();
  private readonly onDidMarkEmitter = new vscode.EventEmitter<number>();
  /** Fires with the seq of a new exchange once it is known to be a replay (the rows mark it). */
  readonly onDidMark = this.onDidMarkEmitter.event;

  constructor(
    private readonly workbench: Workbench,
    private readonly log: ActivityLog,
    private readonly gate: ToolApprovalGate,
  ) {}

  replayOf = (seq: number): number | undefined => this.replays.get(seq);

  replayInFlight(seq: number): boolean {
    return this.inFlight.has(seq);
  }

  /** Cancels the replay that created exchange `seq`; false when it is not in flight (any more). */
  cancelReplay(seq: number): boolean {
    const abort = this.inFlight.get(seq);
    if (!abort) return false;
    abort.abort(CANCEL_REASON);
    return true;
  }

  /** The detail's offers for one exchange. */
  offers(
    record: InspectorRecord,
    readOnly: boolean,
  ): Pick<Extract<ToWebview, { type: 'detail' }>, 'replayUnavailable' | 'runTool' | 'cliUnavailable' | 'replayOf'> {
    const unavailable =
      replayUnavailable(record) ??
      (readOnly ? vscode.l10n.t('This is an imported recording: replay from the live Inspector (MCP: Open Inspector).') : undefined);
    const isClientRequest = record.kind === 'request' && record.direction === 'send';
    // Marks are of live exchanges: an imported one with the same seq is another exchange.
    const replayOf = readOnly ? undefined : this.replays.get(record.seq);
    return {
      ...(unavailable ? { replayUnavailable: unavailable } : {}),
      ...(isClientRequest && record.method === 'tools/call' ? { runTool: true } : {}),
      ...(!isClientRequest
        ? { cliUnavailable: vscode.l10n.t('Only requests this client sent can be sent from the Inspector CLI.') }
        : cliUnsupported(record.method)
          ? { cliUnavailable: cliUnsupported(record.method) }
          : {}),
      ...(replayOf !== undefined ? { replayOf } : {}),
    };
  }

  /** A tool as the server lists it now (from the connection's cached list: nothing is requested). */
  toolOf(serverId: string, name: string): Tool | undefined {
    const tools = this.workbench.registry.get(serverId)?.cached('tools');
    if (!tools) return undefined;
    // By name once per list: every tools/call row asks, and a server may list thousands of tools.
    let byName = this.toolsByName.get(tools);
    if (!byName) {
      byName = new Map();
      for (const t of tools) if (!byName.has(t.name)) byName.set(t.name, t);
      this.toolsByName.set(tools, byName);
    }
    return byName.get(name);
  }
  private readonly toolsByName = new WeakMap<readonly Tool[], Map<string, Tool>>();

  private connectionOf(record: InspectorRecord): McpServerConnection | undefined {
    return this.workbench.registry.get(record.serverId) ?? this.workbench.registry.find(record.serverLabel);
  }

  async run(action: DetailAction, record: InspectorRecord, text: string, readOnly: boolean, post: Post): Promise<void> {
    const status = (kind: Status['kind'], message: string, newSeq?: number) =>
      post({ type: 'actionStatus', seq: record.seq, action, kind, text: message, ...(newSeq !== undefined ? { newSeq } : {}) });
    const connection = this.connectionOf(record);
    if (!connection) {
      status('error', vscode.l10n.t('There is no MCP server "{0}" in the configuration.', record.serverLabel));
      return;
    }
    if (action === 'copyCli') {
      // The recorded request, not the params box: edits there are a draft for Replay (issue 29: they
      // leaked into the copied command); a replayed exchange's own row copies what it sent.
      const definition = connection.definition;
      const secrets = [...this.workbench.secretsOf(definition), ...(definition.launch.type === 'stdio' ? [] : urlSecrets(definition.launch.url))];
      const built = inspectorCliCommand(definition.launch, { method: record.method, params: editableParams(record.method, record.request) }, secrets);
      if (!built.ok) {
        status('error', built.error);
        return;
      }
      await vscode.env.clipboard.writeText(built.command);
      status(
        'info',
        built.placeholders.length
          ? vscode.l10n.t('Copied. Secrets are left out: the command reads {0} from your shell.', built.placeholders.map((p) => `$${p}`).join(', '))
          : vscode.l10n.t('Copied the Inspector CLI command.'),
      );
      return;
    }
    const parsed = parseParamsText(text);
    if (!parsed.ok) {
      status('error', parsed.error);
      return;
    }
    switch (action) {
      case 'runTool': {
        if (record.method !== 'tools/call' || typeof parsed.params.name !== 'string') {
          status('error', vscode.l10n.t('Only a tools/call with a tool name opens in Run Tool.'));
          return;
        }
        const args = parsed.params.arguments;
        // Redacted values are left for the form to ask for: a secret never reaches the form from here.
        await vscode.commands.executeCommand(ToolRunnerCommands.run, {
          serverId: connection.definition.id,
          toolName: parsed.params.name,
          ...(args && typeof args === 'object' && !Array.isArray(args) ? { arguments: withoutRedacted(args as Record<string, unknown>) } : {}),
        });
        return;
      }
      case 'replay':
        await this.replay(record, connection, text, readOnly, status, post);
        return;
    }
  }

  private async replay(
    record: InspectorRecord,
    connection: McpServerConnection,
    text: string,
    readOnly: boolean,
    status: (kind: Status['kind'], text: string, newSeq?: number) => void,
    post: Post,
  ): Promise<void> {
    const unavailable = this.offers(record, readOnly).replayUnavailable;
    if (unavailable) {
      status('error', unavailable);
      return;
    }
    // The unredacted tool arguments the log keeps for Re-run put back what the user left redacted.
    const entry = this.log.find(record.seq);
    const planned = planReplay({ method: record.method, request: record.request, rerun: entry?.rerun }, text);
    if (!planned.ok) {
      status('error', planned.error);
      return;
    }
    const plan = planned.plan;
    if (connection.state.kind !== 'running') {
      status('notRunning', vscode.l10n.t('MCP server "{0}" is not running, so the request cannot be replayed.', connection.definition.label));
      return;
    }
    if (plan.kind === 'tool' && !(await this.approved(connection, plan))) {
      status('info', vscode.l10n.t('Not sent: the run was not confirmed.'));
      return;
    }
    const schemaWarning = plan.kind === 'tool' ? await this.inputSchemaWarning(connection, plan) : undefined;
    const serverId = connection.definition.id;
    const abort = new AbortController();
    let newSeq: number | undefined;
    const watch = this.workbench.onTrace(({ server, record: trace }) => {
      if (newSeq !== undefined || server.id !== serverId || trace.kind !== 'request' || trace.direction !== 'send' || !trace.method) return;
      const params = (trace.message as { params?: unknown } | undefined)?.params;
      if (!isReplayOf(plan, trace.method, params)) return;
      const created = this.log.entries().find((e) => e.serverId === serverId && e.id === trace.id && e.method === trace.method && e.direction === 'send');
      if (!created) return;
      newSeq = created.seq;
      this.replays.set(created.seq, record.seq);
      this.inFlight.set(created.seq, abort);
      // Bounded like the log (whose evicted entries no row shows): the oldest marks go first.
      if (this.replays.size > MAX_REPLAY_MARKS) this.replays.delete(this.replays.keys().next().value!);
      this.onDidMarkEmitter.fire(created.seq);
      status('info', vscode.l10n.t('Replayed as a new exchange.'), created.seq);
      // Said on the new exchange, which the page selects: the replay went out all the same (a server's own checks are what is being tried).
      if (schemaWarning) post({ type: 'actionStatus', seq: created.seq, action: 'replay', kind: 'warning', text: schemaWarning });
    });
    try {
      await this.send(connection, plan, abort.signal);
    } catch (error) {
      if (abort.signal.aborted && newSeq !== undefined) {
        post({
          type: 'actionStatus',
          seq: newSeq,
          action: 'replay',
          kind: 'info',
          text: vscode.l10n.t('Cancelled: the server was sent notifications/cancelled.'),
        });
      } else if (newSeq === undefined) status('error', vscode.l10n.t('Replay failed: {0}', errorMessage(error)));
      // Otherwise the new exchange shows the error as its response.
    } finally {
      watch.dispose();
      if (newSeq !== undefined) this.inFlight.delete(newSeq);
    }
  }

  /** A one-line warning when the arguments break the tool's inputSchema as listed now; undefined when they keep to it or it is unknown. */
  private async inputSchemaWarning(connection: McpServerConnection, plan: Extract<ReplayPlan, { kind: 'tool' }>): Promise<string | undefined> {
    const listed = connection.cached('tools') ?? (await connection.list('tools').catch(() => undefined));
    const tool = listed && this.toolOf(connection.definition.id, plan.name);
    if (!tool) return undefined;
    const verdict = validateAgainstSchema(tool.inputSchema, plan.arguments ?? {});
    if (verdict.valid !== false) return undefined;
    const issues = verdict.issues.slice(0, 3).map((i) => formatIssue(i));
    const more = verdict.issues.length > 3 ? ` (+${verdict.issues.length - 3})` : '';
    return vscode.l10n.t("Sent, though the arguments break the tool's inputSchema: {0}.", issues.join('; ') + more);
  }

  private approved(connection: McpServerConnection, plan: Extract<ReplayPlan, { kind: 'tool' }>): Promise<boolean> {
    return this.gate.approveRun(connection, plan.name, plan.arguments ?? {}, this.confirm);
  }

  private async send(connection: McpServerConnection, plan: ReplayPlan, signal: AbortSignal): Promise<void> {
    switch (plan.kind) {
      case 'tool':
        await connection.callTool(plan.name, plan.arguments, { signal });
        return;
      case 'resource':
        await connection.readResource(plan.uri, { signal });
        return;
      case 'prompt':
        await connection.getPrompt(plan.name, plan.arguments, { signal });
        return;
      case 'request': {
        const client = connection.client;
        if (!client) throw new Error(vscode.l10n.t('MCP server "{0}" is not running.', connection.definition.label));
        await client.request({ method: plan.method as never, params: plan.params }, connection.requestOptions(plan.method, { signal }));
        return;
      }
    }
  }

  async startServer(record: InspectorRecord, post: Post): Promise<void> {
    const connection = this.connectionOf(record);
    if (!connection) return;
    await vscode.commands.executeCommand(ServerCommands.start, { serverId: connection.definition.id });
    const running = this.workbench.registry.get(connection.definition.id)?.state.kind === 'running';
    post({
      type: 'actionStatus',
      seq: record.seq,
      action: 'replay',
      kind: running ? 'info' : 'error',
      text: running
        ? vscode.l10n.t('MCP server "{0}" is running: Replay sends the request now.', connection.definition.label)
        : vscode.l10n.t('MCP server "{0}" did not start; see its log in the Servers view.', connection.definition.label),
    });
  }

  dispose(): void {
    for (const abort of this.inFlight.values()) abort.abort(CANCEL_REASON);
    this.onDidMarkEmitter.dispose();
  }
}
