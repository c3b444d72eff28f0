/**
 * The contract of Check Server: what a check reads (the server's lists and its recorded
 * exchanges, as the Activity log keeps them) and what it reports. Pure: no `vscode`.
 */
import type { ActivityEntry } from '../../traffic/common/activityEntry';

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  /** The check that found it (stable id, e.g. `tool-schema`). */
  check: string;
  severity: Severity;
  /** One line, server text included as plain text (escape before markdown). */
  message: string;
  /** The tool, prompt, resource or method it is about. */
  subject?: string;
  /** The spec section, with a link to it for the era the server speaks. */
  spec: SpecSection;
  /** The recorded exchange that shows it (an Activity/Inspector `seq`). */
  seq?: number;
}

export interface SpecSection {
  title: string;
  url: string;
}

/** A listed tool, as much as the checks read of it (server data: every field may be missing or wrong). */
export interface ListedTool {
  name?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: { readOnlyHint?: unknown; [key: string]: unknown };
}

export interface ListedItem {
  name?: unknown;
  uri?: unknown;
  uriTemplate?: unknown;
  description?: unknown;
}

export interface CheckBudgets {
  /** A result larger than this (bytes) is a warning: clients cut or refuse it, models drown in it. */
  maxResultBytes: number;
  /** A list page with more items than this is a warning when the server does not page it. */
  maxPageItems: number;
  /** Requests other than `tools/call` (lists, reads, pings) slower than this are a warning. */
  slowRequestMs: number;
  /** `tools/call` slower than this is a warning. */
  slowToolCallMs: number;
}

export const DEFAULT_BUDGETS: CheckBudgets = {
  maxResultBytes: 1024 * 1024,
  maxPageItems: 1000,
  slowRequestMs: 1000,
  slowToolCallMs: 3000,
};

export interface CheckInput {
  /** The protocol version the server negotiated (`2025-11-25`, `2026-07-28`, …). */
  protocolVersion: string;
  era: 'modern' | 'legacy';
  transport: 'stdio' | 'http' | 'sse';
  capabilities: Record<string, unknown>;
  tools: readonly ListedTool[];
  prompts: readonly ListedItem[];
  resources: readonly ListedItem[];
  resourceTemplates: readonly ListedItem[];
  /** This server's recorded exchanges, oldest first. */
  messages: readonly ActivityEntry[];
  budgets: CheckBudgets;
}

export type Check = (input: CheckInput) => Finding[];

/** The `result` of a recorded response (the JSON-RPC message), if it has one. */
export function resultOf(entry: ActivityEntry): Record<string, unknown> | undefined {
  const response = entry.response as { result?: unknown } | undefined;
  const result = response?.result;
  return typeof result === 'object' && result !== null && !Array.isArray(result) ? result as Record<string, unknown> : undefined;
}

/** The `params` of a recorded request or notification. */
export function paramsOf(entry: ActivityEntry): Record<string, unknown> | undefined {
  const params = (entry.request as { params?: unknown } | undefined)?.params;
  return typeof params === 'object' && params !== null && !Array.isArray(params) ? params as Record<string, unknown> : undefined;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
