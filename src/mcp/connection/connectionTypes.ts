/**
 * The contract of a server connection with the rest of the extension: what a host provides,
 * what callers pass and get back, and the error users can act on. Kept apart from the
 * connection's machinery so that hosts and features depend only on this, not on the SDK
 * transports behind it. No `vscode` import.
 */
import type {
  Client,
  ClientCapabilities,
  LoggingMessageNotification,
  Progress,
  Prompt,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Root,
  Tool,
} from '@modelcontextprotocol/client';
import type { HttpLaunch, Launch, ServerDefinition } from '../../config/common/launchDefinition';
import type { ProtocolEraSetting, TimeoutSettings } from '../../config/common/serverConfig';
import type { ChannelLevel, McpLogLevel } from '../../shared/common/logLevels';
import type { WorkbenchOAuthProvider } from '../auth/oauthProvider';
import type { TraceRecord } from '../trace';
import type { HttpRecord } from './httpRecording';
import type { EraVerdictStore } from './eraVerdicts';
import type { SandboxHostSettings } from '../process/sandbox';
import type { BaseEnv } from '../process/stdioSpawn';

/** Where a connection writes what the user may want to read. */
export interface ServerLog {
  log(level: ChannelLevel, message: string): void;
  /** One line of the server process's stderr: shown as plain output, never as an error. */
  stderr(line: string): void;
  /**
   * A `notifications/message` of the server, redacted, with its MCP level (RFC 5424, as sent)
   * kept for the Inspector's Console. Without it, the message goes to `log` at the nearest level.
   */
  message?(level: string, text: string): void;
}

/** What the hosting environment (the extension, a test, the conformance CLI) provides. */
export interface ConnectionHost {
  readonly clientInfo: { name: string; version: string };
  /** The roots offered to servers: the workspace folders. */
  roots(): Root[];
  /**
   * Environment a stdio server inherits before `envFile` and `env` apply. `fresh`: the login
   * shell's PATH of now, not the one kept from before (src/mcp/process/loginShellPath.ts).
   */
  baseEnv: BaseEnv;
  /** Level requested with `logging/setLevel`, or undefined to keep the server's default. */
  serverLogLevel(): McpLogLevel | undefined;
  /**
   * Largest message a stdio server may send, in bytes (the SDK's default is 10 MB, which real
   * servers exceed with file contents or images). Undefined: the SDK's default.
   */
  maxMessageBytes?(): number | undefined;
  /** The user's `mcpWorkbench.sandbox.*` settings, for servers with `sandboxEnabled` (default: refuse them without bubblewrap). */
  sandboxSettings?(): SandboxHostSettings;
  /** Milliseconds between liveness pings of a running server; 0 or undefined: no pings. */
  pingIntervalMs?(): number | undefined;
  /** Receives every JSON-RPC message when tracing is on. */
  trace?(server: ServerDefinition, record: TraceRecord): void;
  /**
   * Receives every HTTP exchange of an HTTP server (once, at its start; the record is then
   * updated in place). Raw and unredacted: keep it, redact only when it is shown.
   */
  http?(server: ServerDefinition, record: HttpRecord): void;
  /**
   * Client features a host implements beyond roots (sampling, elicitation): the capabilities
   * it declares and the request handlers it installs on every new SDK client. Only declare
   * what really works: servers rely on it.
   */
  readonly clientFeatures?: ClientFeatures;
  /** OAuth for protected HTTP servers (MCP authorization); without it a 401 is an error. */
  readonly auth?: ConnectionAuthHost;
  /**
   * Where the era each launch speaks is kept across sessions (eraVerdicts.ts), so a start skips
   * the probe that spawns a stdio server twice. Without it, each connection keeps its own in memory.
   */
  readonly eraVerdicts?: EraVerdictStore;
}

export interface ClientFeatures {
  capabilities(): ClientCapabilities;
  /** Called for each launch's new Client, before `initialize` is sent. */
  install(client: Client, server: ServerDefinition): void;
}

/** What a host provides so connections can authorize against protected HTTP servers. */
export interface ConnectionAuthHost {
  /**
   * The OAuth client of an HTTP server: credentials stored per server URL, the redirect
   * handling, settings from the entry's `oauth` field. Undefined: the server gets no OAuth.
   */
  provider(server: ServerDefinition, launch: HttpLaunch): WorkbenchOAuthProvider | undefined | Promise<WorkbenchOAuthProvider | undefined>;
  /**
   * Whether the user may be sent to the browser now without having asked to sign in:
   * `start` for a start not begun by `signIn()`, `request` when a running server asks for new
   * authorization (expired session without refresh token, more scopes). Default: no.
   */
  mayPrompt?(server: ServerDefinition, reason: 'start' | 'request'): boolean | Promise<boolean>;
}

export interface StartOptions {
  /** The user asked to sign in: a protected server may open the browser. */
  interactive?: boolean;
}

export type { ProtocolEraSetting };

/** The 2026-07-28 revision: the one `modern` pins. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

export type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

export interface ListItems {
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
}

/** Server notifications a connection passes on as they came (features other than the log follow them). */
export type ForwardedNotification =
  { method: 'notifications/message'; params: LoggingMessageNotification['params'] } | { method: 'notifications/resources/updated'; params: { uri: string } };

export interface CallOptions {
  signal?: AbortSignal;
  onprogress?: (progress: Progress) => void;
}

/**
 * A temporary replacement of the configured launch (e.g. the same server under a debugger).
 * It lasts until cleared; config reloads keep it, since they diff the configured definition.
 */
export interface LaunchOverride {
  launch: Launch;
  /** Timeouts to use meanwhile (a debuggee paused at a breakpoint answers late). */
  timeouts?: Partial<TimeoutSettings>;
}

/** Raised for failures a user can act on; `detail` holds what a log reader needs. */
export class ServerError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ServerError';
  }
}

/** The server process died (or dropped the connection) during the start: worth retrying like a crash. */
export class ServerCrashedOnStart extends ServerError {
  constructor(message: string, detail?: string, cause?: unknown) {
    super(message, detail, cause);
    this.name = 'ServerCrashedOnStart';
  }
}

/** The setting that limits the size of one message from a stdio server, named in messages. */
export const MAX_MESSAGE_SETTING = 'mcpWorkbench.maxMessageSizeMB';

/** Timeouts are configured in seconds; the SDK and timers want milliseconds. */
export function secondsToMs(seconds: number): number {
  return Math.round(seconds * 1000);
}
