/**
 * "Copy as Inspector CLI command": the `npx @modelcontextprotocol/inspector --cli …` line that
 * sends the same request from a terminal, for a POSIX shell. Flags as the Inspector v2 CLI reads
 * them (clients/cli/README.md, docs/mcp-server-configuration.md in modelcontextprotocol/inspector):
 * the server target comes first (a stdio command and its args, or a URL), a `--` after it when
 * one of its args starts with a dash (under --cli everything before `--` is the target), then
 * `-e`, `--cwd`, `--transport`, `--header`, `--method` and the method's own flags.
 *
 * No secret reaches the text: env values are always `$NAME` placeholders, header values the
 * one redaction path would hide become `$MCP_HEADER_…` placeholders, and every other token
 * (command, args, URL, arguments) goes through `redactText` with the server's secrets.
 */
import { redactText, redactValue, REDACTED } from '../../shared/common/redact';
import type { Launch } from '../../config/common/launchDefinition';

export const INSPECTOR_PACKAGE = '@modelcontextprotocol/inspector';

/** Methods the Inspector CLI's `--method` accepts that a recorded request can map to. */
const CLI_METHODS = new Set([
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'prompts/list',
  'prompts/get',
  'logging/setLevel',
]);

export interface CliRequest {
  method: string;
  /** The params to send (redacted is fine: every token is redacted again). */
  params: Record<string, unknown>;
}

export type CliCommand = { ok: true; command: string; placeholders: string[] } | { ok: false; error: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A word for a POSIX shell: bare when it is safe, else in single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A double-quoted word that expands `$VAR` (the prefix is escaped for double quotes). */
function withVariable(prefix: string, variable: string): string {
  return `"${prefix.replace(/[\\"$`]/g, '\\$&')}$${variable}"`;
}

/** `NAME` as a shell variable name (`MCP_` + letters, digits and underscores when it is not one). */
function variableName(name: string, prefix = ''): string {
  const cleaned = (prefix + name).replace(/[^A-Za-z0-9_]/g, '_').toUpperCase();
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `MCP_${cleaned}`;
}

/**
 * A value as `--tool-arg`/`--prompt-args` read it back: the CLI JSON-parses each value and keeps
 * the text when that fails, so a string that would parse (`"42"`, `"true"`, `""`) is written as JSON.
 */
export function keyValueArg(key: string, value: unknown): string {
  if (typeof value === 'string') {
    let parses = value === '';
    try {
      JSON.parse(value);
      parses = true;
    } catch {
      // plain text stays plain
    }
    return `${key}=${parses ? JSON.stringify(value) : value}`;
  }
  return `${key}=${JSON.stringify(value)}`;
}

/** Why the Inspector CLI cannot send a request of this method, or undefined when it can. */
export function cliUnsupported(method: string): string | undefined {
  return CLI_METHODS.has(method) ? undefined : `The Inspector CLI cannot send ${method} (its --method takes ${[...CLI_METHODS].join(', ')}).`;
}

/** The CLI command, or why the CLI cannot send this request. */
export function inspectorCliCommand(launch: Launch, request: CliRequest, secrets: readonly string[]): CliCommand {
  const unsupported = cliUnsupported(request.method);
  if (unsupported) return { ok: false, error: unsupported };
  const words: string[] = ['npx', INSPECTOR_PACKAGE, '--cli'];
  const placeholders: string[] = [];
  const clean = (text: string) => shellQuote(redactText(text, secrets));
  if (launch.type === 'stdio') {
    const target = [launch.command, ...launch.args];
    words.push(...target.map(clean));
    if (target.slice(1).some((a) => a.startsWith('-'))) words.push('--');
    for (const [name, value] of Object.entries(launch.env).sort(([a], [b]) => a.localeCompare(b))) {
      if (value === null) continue; // removed from the environment: the CLI has no way to say so
      const variable = variableName(name);
      placeholders.push(variable);
      words.push('-e', withVariable(`${name}=`, variable));
    }
    if (launch.cwd) words.push('--cwd', clean(launch.cwd));
  } else {
    words.push(clean(launch.url), '--transport', launch.type === 'sse' ? 'sse' : 'http');
    const shown = redactValue(launch.headers, secrets);
    for (const [name, value] of Object.entries(launch.headers).sort(([a], [b]) => a.localeCompare(b))) {
      if (shown[name] !== value || String(shown[name]).includes(REDACTED)) {
        const variable = variableName(name, 'MCP_HEADER_');
        placeholders.push(variable);
        words.push('--header', withVariable(`${name}: `, variable));
      } else {
        words.push('--header', clean(`${name}: ${value}`));
      }
    }
  }
  words.push('--method', request.method);
  const p = request.params;
  switch (request.method) {
    case 'tools/call': {
      if (typeof p.name !== 'string') return { ok: false, error: 'This tools/call has no tool name.' };
      words.push('--tool-name', clean(p.name));
      const args = isRecord(p.arguments) ? p.arguments : {};
      const keys = Object.keys(args);
      // `--tool-arg` splits at the first "=": a key holding one needs the JSON form.
      if (keys.some((k) => !k || k.includes('='))) words.push('--tool-args-json', clean(JSON.stringify(args)));
      else for (const k of keys) words.push('--tool-arg', clean(keyValueArg(k, args[k])));
      break;
    }
    case 'resources/read':
      if (typeof p.uri !== 'string') return { ok: false, error: 'This resources/read has no uri.' };
      words.push('--uri', clean(p.uri));
      break;
    case 'prompts/get': {
      if (typeof p.name !== 'string') return { ok: false, error: 'This prompts/get has no prompt name.' };
      words.push('--prompt-name', clean(p.name));
      const args = isRecord(p.arguments) ? p.arguments : {};
      for (const [k, v] of Object.entries(args)) words.push('--prompt-args', clean(keyValueArg(k, v)));
      break;
    }
    case 'logging/setLevel':
      if (typeof p.level === 'string') words.push('--log-level', clean(p.level));
      break;
    default:
      break; // the lists: the CLI fetches from the first page
  }
  return { ok: true, command: words.join(' '), placeholders };
}
