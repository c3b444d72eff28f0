/**
 * Calling tools on one connection: through the SDK's `client.callTool` (which mirrors
 * `x-mcp-header` parameters as `Mcp-Param-*` headers on 2026-07-28, SEP-2243) while keeping the
 * results the SDK would throw away, and running the calls a server offers as tasks: created
 * with `tools/call`, followed with `tasks/get` at the server's pace, cancelled with
 * `tasks/cancel`, finished with `tasks/result`. Kept apart from the connection because tasks
 * are their own state and policy. No `vscode` import.
 *
 * Which era runs tasks (SDK 2.4.0):
 * - 2025-11-25: the experimental core feature. The SDK has no task runtime any more, but its
 *   public `client.request(request, resultSchema)` still sends `tasks/*` on that era when given
 *   a result schema, and `specTypeSchemas` has the 2025 task shapes: that is what is used here.
 * - 2026-07-28: the `io.modelcontextprotocol/tasks` extension (SEP-2663). Not declared: the
 *   SDK's 2026 codec (`decodeResult`, core-internal/src/wire/rev2026-07-28/codec.ts) answers a
 *   `resultType: "task"` result with an UnsupportedResultType error that keeps only the result
 *   type, not the task id, so a task could be neither followed nor cancelled. Without the
 *   declaration a server must run the call directly or answer -32021, which is explained.
 */
import {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  specTypeSchemas,
  type CallToolResult,
  type Client,
  type RequestOptions,
  type StandardSchemaV1,
  type Tool,
} from '@modelcontextprotocol/client';
import { isTerminal, pollDelay, taskFromWire, TaskTracker, type ToolTask } from './toolTasks';
import { ServerError, type CallOptions, type ServerLog } from './connectionTypes';
import { errorMessage } from '../../shared/common/errors';

/** SEP-2243: the server's answer when the `Mcp-Param-*` headers disagree with its tool definition. */
const HEADER_MISMATCH_ERROR_CODE = -32020;
/** SEP-2663: the server needs the tasks extension to run the call. */
const MISSING_CLIENT_CAPABILITY_CODE = -32021;
/** SEP-2663's extension identifier. */
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** How long a server should keep a task we start (its result must outlive a slow poll). */
const TASK_TTL_MS = 10 * 60_000;

export interface ToolCallOptions extends CallOptions {
  /** The call became a task on the server, or its task changed state. */
  onTask?: (task: ToolTask) => void;
}

/** The user (or a caller) cancelled a task, or the server reports it cancelled. */
export class TaskCancelledError extends ServerError {
  constructor(readonly taskId: string) {
    super(`Task ${taskId} was cancelled.`);
    this.name = 'TaskCancelledError';
  }
}

/** What tool calls need from the connection they run on; read at each use. */
export interface ToolCallOwner {
  /** Runs a request on the current session, renewing authorization or the session as needed. */
  request<T>(method: string, run: (client: Client) => Promise<T>): Promise<T>;
  requestOptions(method: string, options?: CallOptions): RequestOptions;
  /** Per-request `_meta` for the client's era (the log level on 2026-07-28). */
  meta(client: Client): { _meta: Record<string, unknown> } | undefined;
  /** The server's tools: the cached list, fetched when there is none yet. */
  tools(): Promise<Tool[]>;
  /** The cached list of tools, if there is one (no fetch). */
  cachedTools(): readonly Tool[] | undefined;
  refreshTools(): Promise<unknown>;
  /** The running client, if any. */
  client(): Client | undefined;
  /** Whether requests carry HTTP headers (Streamable HTTP), where `Mcp-Param-*` mirroring applies. */
  hasHeaders(): boolean;
  readonly log: ServerLog;
}

export class ToolCalls {
  /** The tasks of the current launch (cleared on stop). */
  readonly tasks = new TaskTracker();
  /** Clients whose `notifications/tasks/status` feed the tracker. */
  private readonly watched = new WeakSet<Client>();

  constructor(private readonly owner: ToolCallOwner) {}

  call(name: string, args: Record<string, unknown> | undefined, options: ToolCallOptions = {}): Promise<CallToolResult> {
    // With the list cached (the usual case), the call starts at once, without a turn of waiting.
    const cached = this.owner.cachedTools();
    if (cached) return this.callListed(name, args, options, toolNamed(cached, name));
    return this.listed(name).then((listed) => this.callListed(name, args, options, listed));
  }

  private callListed(name: string, args: Record<string, unknown> | undefined, options: ToolCallOptions, listed: Tool | undefined): Promise<CallToolResult> {
    if (listed && offeredAsTask(listed) && this.available()) return this.callAsTask(name, args, options);
    const call = (tool: Tool | undefined) =>
      this.owner.request('tools/call', (c) => {
        const params = { name, arguments: args, ...this.owner.meta(c) };
        const requestOptions = this.owner.requestOptions('tools/call', options);
        // `client.callTool` mirrors headers only over HTTP on 2026-07-28; elsewhere all it would
        // add is work per call (its output validation is off, see forCall): the plain request is
        // the same call.
        if (!this.owner.hasHeaders() || c.getProtocolEra() !== 'modern') {
          const validator = callResultValidator(c);
          const request = { method: 'tools/call' as const, params };
          return validator ? c.request(request, validator, requestOptions) : c.request(request, requestOptions);
        }
        return c.callTool(params, { ...requestOptions, toolDefinition: forCall(name, tool) });
      });
    return call(listed).catch(async (error: unknown) => {
      if (error instanceof ProtocolError && error.code === MISSING_CLIENT_CAPABILITY_CODE && /tasks/.test(JSON.stringify(error.data ?? ''))) {
        throw new ServerError(
          `Tool "${name}" runs only as a task (MCP tasks extension), which MCP Workbench cannot follow on a 2026-07-28 server yet; set "protocolEra": "legacy" for this server if it also speaks 2025-11-25.`,
          errorMessage(error),
          error,
        );
      }
      // SEP-2243: the server read other x-mcp-header declarations than our list has (the tool
      // changed without a list_changed): fetch the list again and retry once, as the SDK does.
      if (!(error instanceof ProtocolError) || error.code !== HEADER_MISMATCH_ERROR_CODE) throw error;
      await this.owner.refreshTools().catch(() => undefined);
      return call(await this.listed(name));
    });
  }

  /** Whether the running server can run tool calls as tasks for us (2025-11-25, tasks capability). */
  available(): boolean {
    const client = this.owner.client();
    const caps = client?.getServerCapabilities() as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined;
    return !!client && client.getProtocolEra() !== 'modern' && !!caps?.tasks?.requests?.tools?.call;
  }

  /** A line for the server's log when it offers tasks that are not used (2026-07-28), else undefined. */
  unusedTasksNote(): string | undefined {
    const client = this.owner.client();
    const extensions = (client?.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined)?.extensions;
    if (client?.getProtocolEra() !== 'modern' || !extensions?.[TASKS_EXTENSION]) return undefined;
    return `The server offers the tasks extension (${TASKS_EXTENSION}); its tools are called without tasks on 2026-07-28, which the MCP SDK cannot follow yet.`;
  }

  /** Asks the server to cancel a task (cooperative: it may still finish). */
  async cancel(taskId: string): Promise<void> {
    const answer = await this.owner.request('tasks/cancel', (c) =>
      c.request({ method: 'tasks/cancel', params: { taskId } }, specTypeSchemas.CancelTaskResult, this.owner.requestOptions('tasks/cancel')),
    );
    this.track({ ...answer, taskId });
  }

  /**
   * Every task the server keeps for this client (`tasks/list`, all pages), merged into the
   * tracked ones: tasks started before a window reload show up too. Nothing when the server
   * does not list tasks.
   */
  async refresh(): Promise<ToolTask[]> {
    const client = this.owner.client();
    const caps = client?.getServerCapabilities() as { tasks?: { list?: unknown } } | undefined;
    if (!client || client.getProtocolEra() === 'modern' || !caps?.tasks?.list) return this.tasks.list();
    this.watchStatus(client);
    let cursor: string | undefined;
    for (let page = 0; page < 50; page++) {
      const result = await this.owner.request('tasks/list', (c) =>
        c.request({ method: 'tasks/list', params: cursor ? { cursor } : {} }, specTypeSchemas.ListTasksResult, this.owner.requestOptions('tasks/list')),
      );
      for (const task of result.tasks) this.track(task);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return this.tasks.list();
  }

  /**
   * A server may announce each change of a task (`notifications/tasks/status`, 2025-11-25):
   * the tree then follows at once, also the tasks nobody polls (listed after a reload). Polling
   * goes on all the same: the spec lets servers skip these.
   */
  private watchStatus(client: Client): void {
    if (this.watched.has(client)) return;
    this.watched.add(client);
    // With the 2025 schema: the method is no longer in the SDK's (2026) typed notification map.
    client.setNotificationHandler('notifications/tasks/status', { params: specTypeSchemas.TaskStatusNotificationParams }, (params) => {
      if (this.owner.client() === client && this.tasks.get(params.taskId)) this.track(params);
    });
  }

  private async listed(name: string): Promise<Tool | undefined> {
    return toolNamed(await this.owner.tools().catch(() => [] as Tool[]), name);
  }

  private track(raw: unknown, extra: Partial<ToolTask> = {}): ToolTask | undefined {
    const task = taskFromWire(raw);
    return task ? this.tasks.update({ ...task, ...extra }) : undefined;
  }

  /**
   * A task-augmented call (2025-11-25): the server answers with a task at once, which is
   * followed until it ends; the caller gets the final result as if the call had been direct.
   */
  private async callAsTask(name: string, args: Record<string, unknown> | undefined, options: ToolCallOptions): Promise<CallToolResult> {
    // No progress token: the SDK drops its progress handler once the task is created, so
    // progress would arrive for an unknown token; the task's statusMessage carries it instead.
    const created = await this.owner.request('tools/call', (c) =>
      c.request({ method: 'tools/call', params: { name, arguments: args, task: { ttl: TASK_TTL_MS }, ...this.owner.meta(c) } }, CALL_OR_TASK, {
        ...this.owner.requestOptions('tools/call', { signal: options.signal }),
        onprogress: undefined,
      }),
    );
    if (!('task' in created)) return created;
    const client = this.owner.client();
    if (client) this.watchStatus(client);
    let task = this.track(created.task, { toolName: name })!;
    options.onTask?.(task);
    const signal = options.signal;
    try {
      while (!isTerminal(task.status)) {
        if (task.status === 'input_required') {
          // The server delivers its questions (elicitation, sampling) with the `tasks/result`
          // it then holds until the task ends: the spec's way out of input_required.
          return await this.finish(task, options);
        }
        await sleep(pollDelay(task), signal);
        const got = await this.owner.request('tasks/get', (c) =>
          c.request(
            { method: 'tasks/get', params: { taskId: task.taskId } },
            specTypeSchemas.GetTaskResult,
            this.owner.requestOptions('tasks/get', { signal }),
          ),
        );
        const before = task;
        task = this.track(got)!;
        if (task.status !== before.status || task.statusMessage !== before.statusMessage) options.onTask?.(task);
      }
      if (task.status === 'cancelled') throw new TaskCancelledError(task.taskId);
      return await this.finish(task, options);
    } catch (error) {
      if (signal?.aborted && !isTerminal(this.tasks.get(task.taskId)?.status ?? 'working')) {
        await this.cancel(task.taskId).catch((e) => this.owner.log.log('warn', `tasks/cancel failed for task ${task.taskId}: ${errorMessage(e)}`));
        options.onTask?.(this.tasks.get(task.taskId) ?? task);
      }
      throw error;
    }
  }

  /** `tasks/result`: the call's own result, or its JSON-RPC error, which is kept on the task. */
  private async finish(task: ToolTask, options: ToolCallOptions): Promise<CallToolResult> {
    try {
      const result = await this.owner.request('tasks/result', (c) =>
        c.request(
          { method: 'tasks/result', params: { taskId: task.taskId } },
          specTypeSchemas.CallToolResult,
          this.owner.requestOptions('tasks/result', { signal: options.signal }),
        ),
      );
      const done = this.tasks.update({ taskId: task.taskId, status: task.status === 'failed' ? 'failed' : 'completed', result });
      options.onTask?.(done);
      return result;
    } catch (error) {
      if (error instanceof ProtocolError) {
        options.onTask?.(this.tasks.update({ taskId: task.taskId, status: 'failed', error: error.message }));
      }
      throw error;
    }
  }
}

/** Each cached list's tools by name: a call finds its tool without walking 10k of them. */
const toolsByName = new WeakMap<readonly Tool[], Map<string, Tool>>();

function toolNamed(tools: readonly Tool[], name: string): Tool | undefined {
  let byName = toolsByName.get(tools);
  if (!byName) {
    byName = new Map();
    // The first of a name wins, as `find` did.
    for (const tool of tools) if (!byName.has(tool.name)) byName.set(tool.name, tool);
    toolsByName.set(tools, byName);
  }
  return byName.get(name);
}

/** A tool the server offers as a task runs as one when the server can (`available`). */
function offeredAsTask(tool: Tool): boolean {
  const support = (tool as { execution?: { taskSupport?: string } }).execution?.taskSupport;
  return support === 'required' || support === 'optional';
}

/**
 * The definition `client.callTool` works from: the listed tool, so that on 2026-07-28 over HTTP
 * the SDK mirrors its `x-mcp-header` parameters; but without its outputSchema, because the SDK
 * throws away a result whose structuredContent breaks that schema, and the user needs to see
 * both (Run Tool shows the mismatch itself). On 2026-07-28 an `input_required` answer is
 * fulfilled by the SDK through the client feature handlers (approval panel) and retried, all
 * inside the one call.
 */
function forCall(name: string, listed: Tool | undefined): Tool {
  if (!listed) return { name, inputSchema: { type: 'object' } };
  const { outputSchema: _dropped, ...rest } = listed;
  return rest;
}

/** What `callResultValidator` reads of the SDK's wire codec (core's `WireCodec`, not exported). */
interface EraCodec {
  validateResult(method: string, raw: unknown): { ok: true; value: unknown } | { ok: false; reason: string; message?: string };
}

/** One validator per era codec (the SDK has one codec object per era). */
const callResultValidators = new WeakMap<EraCodec, StandardSchemaV1<unknown, CallToolResult>>();

/**
 * The validator the SDK itself uses for a `tools/call` result in the client's era, made once per
 * era instead of once per call. Given no result schema, SDK 2.4.0's `client.request` makes it
 * anew for every request (`codecResultValidator`), and to learn whether the method exists in the
 * era it first validates `undefined` against the era's schema: a failed zod parse whose error and
 * message are built and thrown away, ~8 µs of CPU and garbage per call, most of what a v2 call
 * costs over a v1 call (docs/performance.md, "Where SDK v2 spends per-call time"). Validation,
 * its schema and its error message stay the SDK's. Reads the client's codec through the SDK's
 * protected `_wireCodec()`; undefined if a later SDK drops it (the call then takes the SDK's own
 * path; test/unit/mcp/toolCallCost.test.ts fails so it is noticed).
 */
export function callResultValidator(client: Client): StandardSchemaV1<unknown, CallToolResult> | undefined {
  const codec = (client as unknown as { _wireCodec?: () => EraCodec | undefined })._wireCodec?.();
  if (typeof codec?.validateResult !== 'function') return undefined;
  let validator = callResultValidators.get(codec);
  if (!validator) {
    validator = {
      '~standard': {
        version: 1,
        vendor: 'mcp-workbench',
        // As the SDK's codecResultValidator words it (its Invalid result error quotes this message).
        validate: (value) => {
          const outcome = codec.validateResult('tools/call', value);
          if (outcome.ok) return { value: outcome.value as CallToolResult };
          return { issues: [{ message: outcome.reason === 'invalid' ? String(outcome.message) : 'not-in-era: tools/call' }] };
        },
      },
    };
    callResultValidators.set(codec, validator);
  }
  return validator;
}

type CreateTaskResult = { task: unknown };

/** The answer to a task-augmented `tools/call`: a task, or (a server may decline) the result itself. */
const CALL_OR_TASK: StandardSchemaV1<unknown, CallToolResult | CreateTaskResult> = {
  '~standard': {
    version: 1,
    vendor: 'mcp-workbench',
    validate: (value) =>
      (typeof value === 'object' && value !== null && 'task' in value
        ? specTypeSchemas.CreateTaskResult['~standard'].validate(value)
        : specTypeSchemas.CallToolResult['~standard'].validate(value)) as StandardSchemaV1.Result<CallToolResult | CreateTaskResult>,
  },
};

/** Waits, or rejects as the SDK does when the signal aborts first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new SdkError(SdkErrorCode.RequestTimeout, String(signal.reason)));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new SdkError(SdkErrorCode.RequestTimeout, String(signal?.reason)));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
