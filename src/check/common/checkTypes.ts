/**
 * The contract of Check Server: what a check reads (the server's lists and its recorded
 * exchanges, as the Activity log keeps them) and what it reports. Pure: no `vscode`.
 */
import type { ActivityEntry } from '../../traffic/common/activityEntry';
import type { CapabilityChange } from '../../mcpTests/common/capabilitySnapshot';

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
  /** A SKILL.md larger than this (bytes) is a warning: `@mcp /skill` passes only its first part to a model. */
  maxSkillManifestBytes: number;
  /** A tool list whose model-facing part (name, description, inputSchema) costs more estimated tokens than this is a warning. */
  maxToolListTokens: number;
}

export const DEFAULT_BUDGETS: CheckBudgets = {
  maxResultBytes: 1024 * 1024,
  maxPageItems: 1000,
  slowRequestMs: 1000,
  slowToolCallMs: 3000,
  // The Agent Skills guidance keeps a SKILL.md under ~5,000 tokens; chat passes 24,000 characters.
  maxSkillManifestBytes: 24_000,
  // A model pays for the whole tool list on every request, before the user's words. 10,000
  // tokens is 5% of a 200k context and about 8% of a 128k one, for one server of several; a
  // list of 20-30 well-described tools stays well under it (see toolListCost.ts).
  maxToolListTokens: 10_000,
};

/** What the dev loop saw change in a server's lists when it last restarted it (src/check/devCapabilityDiff.ts). */
export interface DevRestartChanges {
  /** The file whose change restarted it, as shown to the user. */
  changedFile: string;
  changes: readonly CapabilityChange[];
}

/** Why reading a skill's SKILL.md failed: a verification check (SkillVerificationError's reason), or the read itself. */
export type SkillReadFailure = 'unlisted' | 'size' | 'digest' | 'frontmatter' | 'error';

/** A listed skill (SEP-2640) and what reading its SKILL.md showed: Check Server reads each one. */
export interface CheckedSkill {
  uri: string;
  /** Frontmatter fields as listed (server data: may be anything). */
  name?: unknown;
  description?: unknown;
  /** Files and total bytes the entry lists; undefined for a `dynamic` skill. */
  files?: number;
  bytes?: number;
  /** The size the entry lists for SKILL.md itself. */
  manifestSize?: number;
  read: { ok: true } | { ok: false; reason: SkillReadFailure; message: string };
}

/** The skills of a server that declares the extension: the valid entries (read) and the refused ones. */
export interface CheckedSkills {
  entries: readonly CheckedSkill[];
  invalid: readonly { uri?: string; reason: string }[];
}

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
  /** Present when the server declares the skills extension. */
  skills?: CheckedSkills;
  /** This server's recorded exchanges, oldest first. */
  messages: readonly ActivityEntry[];
  budgets: CheckBudgets;
  /** The server's known secret values (from its config): list text that carries one is a finding. */
  secrets?: readonly string[];
  /** The capability changes of the dev loop's last restart of this server, when it restarted it. */
  devRestart?: DevRestartChanges;
}

export type Check = (input: CheckInput) => Finding[];

/** The `result` of a recorded response (the JSON-RPC message), if it has one. */
export function resultOf(entry: ActivityEntry): Record<string, unknown> | undefined {
  const response = entry.response as { result?: unknown } | undefined;
  const result = response?.result;
  return typeof result === 'object' && result !== null && !Array.isArray(result) ? (result as Record<string, unknown>) : undefined;
}

/** The `params` of a recorded request or notification. */
export function paramsOf(entry: ActivityEntry): Record<string, unknown> | undefined {
  const params = (entry.request as { params?: unknown } | undefined)?.params;
  return typeof params === 'object' && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>) : undefined;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Read-only tools a check calls itself (Check Server and `mcp-workbench check`): annotated read-only, an outputSchema, no required arguments. */
export function callableForCheck(tool: ListedTool): boolean {
  if (tool.annotations?.readOnlyHint !== true || !isObject(tool.outputSchema) || typeof tool.name !== 'string') return false;
  const required = isObject(tool.inputSchema) ? tool.inputSchema.required : undefined;
  return !Array.isArray(required) || required.length === 0;
}
