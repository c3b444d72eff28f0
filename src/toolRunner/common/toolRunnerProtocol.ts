/**
 * The messages between the Run Tool panel (extension host, `src/toolRunner/toolRunnerPanel.ts`)
 * and its webview (`webview/toolRunner/main.ts`). Defined once here, imported by both sides.
 *
 * Lifecycle: the webview posts `ready` when its script runs (on first load and every time it
 * is re-created after being hidden); the host answers with `init`. A run is started by the
 * webview's `submit` with a fresh `requestId`; every answer about that run (`invalid`,
 * `started`, `progress`, `outcome`) carries the same id, so late answers to an old run are
 * ignored. The host checks every incoming message with `parseFromWebview` before acting.
 */
import type { FieldProblem } from '../../jsonSchema/common/formValues';
import type { FormModel, Json } from '../../jsonSchema/common/schemaFields';
import type { AppToWebview } from '../../apps/common/appsProtocol';
import type { JsonDiff } from './jsonDiff';
import type { ArgumentPreset, HistorySummary } from './runRecords';

/** The tool as shown on top of the form. */
export interface ToolInfo {
  serverLabel: string;
  name: string;
  title?: string;
  description?: string;
  /** Annotation badges: "read-only", "destructive", "idempotent", "open-world" (and their opposites when stated). */
  badges: { label: string; kind: 'safe' | 'warning' | 'info' }[];
  /** The input schema as pretty JSON, for the raw editor's reference. */
  inputSchemaJson: string;
  hasOutputSchema: boolean;
  /** Set when the server no longer lists this tool (calls may then fail). */
  notice?: string;
}

/**
 * What a content item carries besides its content, as pretty JSON: its `annotations`
 * (audience, priority, lastModified) and its `_meta`. Shown collapsed under the item.
 */
export interface BlockExtras {
  annotations?: string;
  meta?: string;
}

/** One piece of a tool result, ready to display. */
export type ResultBlock = BlockExtras & ResultBlockContent;

export type ResultBlockContent =
  /** `json` is the text pretty-printed when the whole text is a JSON object or array. */
  | { kind: 'text'; text: string; json?: string }
  /** Text that looks like markdown: `html` is escaped-then-formatted (see markdownLite.ts). */
  | { kind: 'markdown'; text: string; html: string }
  | { kind: 'image'; mimeType: string; dataUri: string; bytes: number }
  | { kind: 'audio'; mimeType: string; dataUri: string; bytes: number }
  | { kind: 'resourceLink'; uri: string; name: string; title?: string; description?: string; mimeType?: string; size?: number }
  | { kind: 'resourceText'; uri: string; mimeType?: string; text: string }
  /** An embedded binary resource: offered for saving (`saveBlob` with its index). */
  | { kind: 'resourceBlob'; uri: string; mimeType?: string; bytes: number; index: number }
  /** A content type this version does not know (or malformed data): shown as JSON. */
  | { kind: 'unknown'; type: string; json: string };

/** What one run ended with: exactly what the panel shows. */
export type RunOutcome =
  | {
      kind: 'result';
      /** The tool reported a failure (`isError: true`): its content explains it. */
      isError: boolean;
      blocks: ResultBlock[];
      structured?: {
        json: string;
        /** Validation against the tool's outputSchema; undefined when it has none. */
        validation?: { valid: true } | { valid: false; issues: string[] } | { valid: undefined; schemaError: string };
      };
      /** The result's own `_meta`, as pretty JSON. */
      meta?: string;
      /** The whole result exactly as received, as pretty JSON (the Raw view). */
      raw: string;
      durationMs: number;
    }
  /** A JSON-RPC error answer (e.g. -32602 unknown tool). */
  | { kind: 'protocolError'; code: number; message: string; data?: string; durationMs: number }
  /** The server answered, but the MCP client rejected the result against the tool's outputSchema. */
  /** Anything else: not running, timed out (the message names the setting), connection lost. */
  | { kind: 'failure'; message: string; durationMs: number }
  | { kind: 'cancelled'; durationMs: number };

/** Host → webview. */
export type ToWebview =
  | {
      type: 'init';
      tool: ToolInfo;
      form: FormModel;
      /** Identifies the tool's schema; the webview drops saved state made for another schema. */
      schemaKey: string;
      /** Values to start with (remembered arguments, else defaults). */
      values: Json;
      /** True when `values` come from the last run's arguments. */
      remembered: boolean;
      /** `values` are arguments given with the command (Open in Run Tool): they replace what the page kept. */
      prefilled?: boolean;
      /** The same starting point as arguments, for the raw JSON editor (which the form may not cover). */
      arguments: Record<string, unknown>;
      /** A run still going on (the webview was re-created meanwhile). */
      running?: { requestId: string; progress?: ProgressInfo; awaitingUser?: boolean; task?: TaskInfo };
      /** The last outcome, so it survives the panel being hidden. */
      last?: { requestId: string; outcome: RunOutcome };
      /** The tool's runs, newest first (see `history`). */
      history: HistorySummary[];
      presets: ArgumentPreset[];
      /** The last diff shown (a re-run by the dev loop shows one), so it survives the panel being hidden. */
      diff?: RunDiff;
    }
  /** The tool's history changed (a run was added): its runs, newest first, without their results. */
  | { type: 'history'; entries: HistorySummary[] }
  /** The tool's presets changed. */
  | { type: 'presets'; presets: ArgumentPreset[] }
  /** An earlier run, asked for with `showRun`: its outcome as the panel shows it. */
  | { type: 'run'; entry: HistorySummary; outcome: RunOutcome }
  /** The changes between two runs, asked for with `diffRuns` (or pushed after a dev-loop re-run). */
  | { type: 'diff'; diff: RunDiff }
  /** The tool's definition changed (tools/list_changed): new schema or notice. */
  | { type: 'toolChanged'; tool: ToolInfo; form: FormModel; schemaKey: string }
  /** The arguments failed validation: nothing was sent. */
  | { type: 'invalid'; requestId: string; issues: FieldProblem[]; schemaNote?: string }
  /** Validation passed (and confirmation, if asked): the call is on its way. */
  | { type: 'started'; requestId: string; schemaNote?: string }
  | { type: 'progress'; requestId: string; progress: ProgressInfo }
  /** The server runs the call as a task (MCP tasks): its id and state, until it ends. */
  | { type: 'task'; requestId: string; task: TaskInfo }
  /**
   * The running call's server has a sampling/elicitation request waiting for the user (or no
   * longer has): the call waits for an answer in the MCP Requests panel, not for the server.
   */
  | { type: 'awaitingUser'; requestId: string; awaitingUser: boolean }
  | { type: 'outcome'; requestId: string; outcome: RunOutcome }
  /** The user declined the confirmation: nothing was sent. */
  | { type: 'declined'; requestId: string }
  /** The tool's MCP App (src/apps/common/appsProtocol.ts); app messages from the webview are parsed there too. */
  | AppToWebview;

/** The changes between two runs of the tool's history: from `before` to `after`. */
export interface RunDiff {
  before: HistorySummary;
  after: HistorySummary;
  diff: JsonDiff;
  /** Why it was shown without being asked for ("re-run after the server restarted"). */
  reason?: string;
}

/** A running call's task as the panel shows it. `text` is server text: plain text only. */
export interface TaskInfo {
  taskId: string;
  status: string;
  /** One line: "working: step 2 of 5". */
  text: string;
}

export interface ProgressInfo {
  progress: number;
  total?: number;
  message?: string;
}

/** Webview → host. */
export type FromWebview =
  | { type: 'ready' }
  | { type: 'submit'; requestId: string; args: Record<string, unknown> }
  | { type: 'cancel'; requestId: string }
  /** A `resource_link` was clicked. */
  | { type: 'openResource'; uri: string }
  /** Save an embedded blob of the last outcome (`ResultBlock.index`). */
  | { type: 'saveBlob'; requestId: string; index: number }
  /** Reveal the MCP Requests panel (the call waits for an answer there). */
  | { type: 'showRequests' }
  /** Show an earlier run of the history (answered with `run`). */
  | { type: 'showRun'; id: string }
  /** Compare two runs of the history (answered with `diff`), by their history ids. */
  | { type: 'diffRuns'; before: string; after: string }
  /** Save the arguments as a preset; without a name the host asks for one. */
  | { type: 'savePreset'; args: Record<string, unknown>; name?: string }
  | { type: 'deletePreset'; name: string }
  /** Save a run of the history (by id) as a test case in a `*.mcptest.json` file. */
  | { type: 'saveAsTest'; id: string }
  /** An uncaught error in the webview script, for the log. */
  | { type: 'error'; message: string };

const isString = (v: unknown): v is string => typeof v === 'string';
const isId = (v: unknown): v is string => isString(v) && v.length > 0 && v.length <= 100;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The message if it has the shape of a FromWebview, else undefined (then it is ignored). */
export function parseFromWebview(message: unknown): FromWebview | undefined {
  if (!isRecord(message) || !isString(message.type)) return undefined;
  switch (message.type) {
    case 'ready':
      return { type: 'ready' };
    case 'showRequests':
      return { type: 'showRequests' };
    case 'submit':
      return isString(message.requestId) && isRecord(message.args) ? { type: 'submit', requestId: message.requestId, args: message.args } : undefined;
    case 'cancel':
      return isString(message.requestId) ? { type: 'cancel', requestId: message.requestId } : undefined;
    case 'openResource':
      return isString(message.uri) && message.uri.length > 0 ? { type: 'openResource', uri: message.uri } : undefined;
    case 'saveBlob':
      return isString(message.requestId) && Number.isInteger(message.index) && (message.index as number) >= 0
        ? { type: 'saveBlob', requestId: message.requestId, index: message.index as number }
        : undefined;
    case 'showRun':
      return isId(message.id) ? { type: 'showRun', id: message.id } : undefined;
    case 'diffRuns':
      return isId(message.before) && isId(message.after) && message.before !== message.after
        ? { type: 'diffRuns', before: message.before, after: message.after }
        : undefined;
    case 'savePreset':
      return isRecord(message.args) && (message.name === undefined || (isString(message.name) && message.name.length <= 200))
        ? { type: 'savePreset', args: message.args, ...(isString(message.name) ? { name: message.name } : {}) }
        : undefined;
    case 'deletePreset':
      return isString(message.name) && message.name.length > 0 && message.name.length <= 200 ? { type: 'deletePreset', name: message.name } : undefined;
    case 'saveAsTest':
      return isId(message.id) ? { type: 'saveAsTest', id: message.id } : undefined;
    case 'error':
      return isString(message.message) ? { type: 'error', message: message.message.slice(0, 2000) } : undefined;
    default:
      return undefined;
  }
}
