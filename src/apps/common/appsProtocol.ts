/**
 * The messages about MCP Apps between the extension host and a webview that shows one (the Run
 * Tool panel's result area, or the app's own editor tab when popped out). The webview only
 * hosts the sandbox frame and relays JSON-RPC between it and the host's AppBridge; every
 * decision (what the app may call, links, downloads) is taken in the extension host.
 *
 * Flow: host `appShow` → the webview creates the sandbox proxy frame → the proxy posts
 * `ui/notifications/sandbox-proxy-ready` → relayed as `appMessage` → the host answers with
 * `ui/notifications/sandbox-resource-ready` (the HTML) → the app starts and speaks the
 * ui/* protocol, every message relayed as `appMessage` both ways, checked on both sides
 * (parseAppMessage). The webview reports the theme, its styles and its size as
 * `appEnvironment` whenever they change.
 */
import { parseAppMessage, type AppJsonRpcMessage } from './appMessages';
import { parseCspViolation, type CspViolation } from './cspViolation';
import { sanitizeHostStyles, type AppTheme } from './hostStyles';

export type AppDisplayMode = 'inline' | 'fullscreen';

/** What a webview needs to show an app frame. */
export interface AppFrameSpec {
  /** One rendering of one app (a new id each time it is mounted). */
  appId: string;
  /** The sandbox proxy page on the local sandbox server (its CSP header is the app's policy). */
  proxyUrl: string;
  /** The frame's `allow` attribute: only the permissions the resource declared. */
  allow: string;
  title: string;
  serverLabel: string;
  resourceUri: string;
  displayMode: AppDisplayMode;
  /** The resource asked for a visible border (`_meta.ui.prefersBorder`). */
  prefersBorder: boolean;
  /** Domains the policy allows, shown under the frame. */
  connectDomains: string[];
}

/** Where the app is, shown in place of the frame when it is not here. */
export type AppPlaceholder = { kind: 'loading'; text: string } | { kind: 'poppedOut'; text: string } | { kind: 'error'; text: string };

/** Host → webview. */
export type AppToWebview =
  | { type: 'appShow'; app: AppFrameSpec }
  | { type: 'appPlaceholder'; appId?: string; placeholder: AppPlaceholder }
  | { type: 'appMessage'; appId: string; message: AppJsonRpcMessage }
  /**
   * The app wants to run a tool that is not read-only: the webview asks the user next to the
   * frame (outside it: the app cannot reach this part of the page), answered by `appApprovalAnswer`.
   * Without `approvalId`, a previous question is withdrawn.
   */
  | { type: 'appApproval'; appId: string; approval?: AppApprovalRequest }
  /**
   * The app's server is not running (its calls fail): one line beside the app, with a Start
   * button when `canStart` (answered by `appStartServer`). Without `text`, the line goes away.
   */
  | { type: 'appServerState'; appId: string; text?: string; canStart?: boolean }
  /** One line beside the app about its chat requests (`ui/message`, model context), answered by `appNoticeAction`. */
  | { type: 'appNotice'; appId: string; notice: AppNotice };

/** What the user can do with an app's proposed chat message. */
export type AppNoticeAction = 'openChat' | 'copy';

export interface AppNotice {
  noticeId: string;
  /** Plain text (it may quote the app). */
  text: string;
  actions?: AppNoticeAction[];
  /** The chat participant `openChat` goes to (`mcp`). */
  participant?: string;
}

export interface AppApprovalRequest {
  approvalId: string;
  /** One line: what the app wants to run, on which server. */
  text: string;
  /** Why it asks, and the arguments. */
  detail: string;
  /** The tool's title (or name), for the session-wide answer's tooltip. */
  toolTitle: string;
  /** How many times the app asked for this tool in this app session, this time included. */
  asked: number;
}

export interface AppEnvironment {
  theme: AppTheme;
  styles: Record<string, string>;
  /** The frame's container, in CSS pixels. */
  width: number;
  height?: number;
}

/** Webview → host. */
export type AppFromWebview =
  | { type: 'appMessage'; appId: string; message: AppJsonRpcMessage }
  | { type: 'appEnvironment'; appId: string; environment: AppEnvironment }
  /** The user pressed "Open in Editor Tab" / "Back to Run Tool". */
  | { type: 'appDisplayMode'; appId: string; mode: AppDisplayMode }
  /** The user's answer to an `appApproval`: run once, run this tool without asking for the rest of this app's life, or not. */
  | { type: 'appApprovalAnswer'; appId: string; approvalId: string; answer: 'once' | 'session' | 'deny' }
  /** Something about the frame the user should know (it failed to load, a message was dropped). */
  | { type: 'appProblem'; appId: string; message: string }
  /** The app's policy blocked something in its frame (reported by the frame: see cspViolation.ts). */
  | { type: 'appCspViolation'; appId: string; violation: CspViolation }
  /** The user pressed Start beside an app whose server stopped; the host starts that app's own server (never one the message names). */
  | { type: 'appStartServer'; appId: string }
  /** A button of an `appNotice` pressed (the host holds the message; only the notice is named). */
  | { type: 'appNoticeAction'; appId: string; noticeId: string; action: AppNoticeAction };

const isString = (v: unknown): v is string => typeof v === 'string';
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isSize = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 100_000;

/** The message if it is a well-formed AppFromWebview, else undefined (then it is ignored). */
export function parseAppFromWebview(raw: unknown): AppFromWebview | undefined {
  if (!isRecord(raw) || !isString(raw.appId) || raw.appId.length > 100) return undefined;
  const appId = raw.appId;
  switch (raw.type) {
    case 'appMessage': {
      const parsed = parseAppMessage(raw.message);
      return 'message' in parsed ? { type: 'appMessage', appId, message: parsed.message } : undefined;
    }
    case 'appEnvironment': {
      const env = raw.environment;
      if (!isRecord(env) || (env.theme !== 'light' && env.theme !== 'dark') || !isSize(env.width)) return undefined;
      return {
        type: 'appEnvironment',
        appId,
        environment: {
          theme: env.theme,
          styles: sanitizeHostStyles(env.styles),
          width: Math.round(env.width),
          ...(isSize(env.height) ? { height: Math.round(env.height) } : {}),
        },
      };
    }
    case 'appDisplayMode':
      return raw.mode === 'inline' || raw.mode === 'fullscreen' ? { type: 'appDisplayMode', appId, mode: raw.mode } : undefined;
    case 'appApprovalAnswer':
      return isString(raw.approvalId) && (raw.answer === 'once' || raw.answer === 'session' || raw.answer === 'deny')
        ? { type: 'appApprovalAnswer', appId, approvalId: raw.approvalId, answer: raw.answer }
        : undefined;
    case 'appProblem':
      return isString(raw.message) ? { type: 'appProblem', appId, message: raw.message.slice(0, 500) } : undefined;
    case 'appCspViolation': {
      const violation = parseCspViolation(raw.violation);
      return violation ? { type: 'appCspViolation', appId, violation } : undefined;
    }
    case 'appStartServer':
      return { type: 'appStartServer', appId };
    case 'appNoticeAction':
      return isString(raw.noticeId) && raw.noticeId.length <= 100 && (raw.action === 'openChat' || raw.action === 'copy')
        ? { type: 'appNoticeAction', appId, noticeId: raw.noticeId, action: raw.action }
        : undefined;
    default:
      return undefined;
  }
}
