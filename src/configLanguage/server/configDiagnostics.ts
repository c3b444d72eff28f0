/**
 * Diagnostics for an MCP config file beyond what the JSON schema can say: what the extension
 * will find when it starts the servers (commands on PATH, folders and files, variables and
 * inputs), and habits that hurt (plain http, secrets written into the file).
 */
import * as path from 'node:path';
import * as jsonc from 'jsonc-parser';
import { Diagnostic, DiagnosticSeverity, DiagnosticTag, type Range } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { resolveCommand } from '../../mcp/process/commandResolution';
import { resolveString, type VariableContext } from '../../config/common/variables';
import type { ConfigProblem } from '../../config/common/serverConfig';
import { OAUTH_SECRET_FIELDS } from '../../config/common/oauthConfig';
import { samplingMockRef, serverField, serverString, slug, freeInputId, type ConfigModel, type ServerNode } from './configModel';
import {
  DIAGNOSTIC_SOURCE,
  DiagnosticCode,
  type DiagnosticCodeValue,
  type InputUndefinedData,
  type KeyTypoData,
  type SecretLiteralData,
  type VariableUnknownData,
} from './diagnosticCodes';
import type { LanguageContext } from './serverContext';
import { checkOwnKeyPlaces, workbenchFileProfiles } from './ownKeyPlace';

/** Variable names (the part before `:` for the families) with what they mean, for messages, completion and hover. */
export const VARIABLES: ReadonlyArray<{ name: string; family?: boolean; description: string }> = [
  { name: 'workspaceFolder', description: 'The workspace folder holding this file.' },
  { name: 'workspaceFolderBasename', description: 'The name of the workspace folder holding this file.' },
  { name: 'workspaceFolder:', family: true, description: 'The workspace folder with this name (multi-root workspaces).' },
  { name: 'userHome', description: 'Your home directory.' },
  { name: 'pathSeparator', description: '`/`, or `\\` on Windows.' },
  { name: '/', description: 'Short for `${pathSeparator}`.' },
  { name: 'env:', family: true, description: 'An environment variable of VS Code (empty when unset).' },
  { name: 'input:', family: true, description: 'A value asked for once, defined in `inputs`.' },
];

const SECRET_NAME = /(token|secret|password|passwd|api[_-]?key|apikey|credential|private[_-]?key|auth)/i;
const TOKEN_PREFIX = /^(sk-|sk_|rk_|ghp_|gho_|ghu_|ghs_|github_pat_|glpat-|xox[abpr]-|AKIA|AIza|hf_|npm_|pat_|lin_api_)/;

export function variableContext(ctx: LanguageContext): VariableContext {
  return { workspaceFolder: ctx.folderPath, workspaceFolders: ctx.workspaceFolders, userHome: ctx.userHome, env: ctx.env, inputs: {} };
}

/** Resolves variables the way the extension will; undefined when something stays unresolved (e.g. an input). */
export function resolveValue(value: string, ctx: LanguageContext): string | undefined {
  const errors: string[] = [];
  const resolved = resolveString(value, variableContext(ctx), errors);
  return errors.length ? undefined : resolved;
}

export function computeDiagnostics(model: ConfigModel, doc: TextDocument, ctx: LanguageContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const range = (start: number, end: number): Range => ({ start: doc.positionAt(start), end: doc.positionAt(end) });
  const nodeRange = (node: jsonc.Node) => range(node.offset, node.offset + node.length);
  const add = (r: Range, severity: DiagnosticSeverity, code: DiagnosticCodeValue, message: string, data?: unknown, tags?: DiagnosticTag[]) => {
    const d = Diagnostic.create(r, message, severity, code, DIAGNOSTIC_SOURCE);
    if (data !== undefined) d.data = data;
    if (tags) d.tags = tags;
    out.push(d);
  };

  for (const problem of model.parsed.problems) {
    // VS Code's JSON support reports syntax errors already; say them once.
    if (ctx.hostProvidesJsonSchema && problem.message.startsWith('JSON syntax error')) continue;
    add(
      range(problem.offset, problem.offset + problem.length),
      severityOf(problem),
      codeOfProblem(problem),
      problem.message,
      problem.suggestion ? ({ suggestion: problem.suggestion } satisfies KeyTypoData) : undefined,
    );
  }

  for (const server of model.servers) {
    if (server.valueNode.type !== 'object') continue;
    const parsed = model.parsed.servers.find((s) => s.name === server.name && s.offset === server.keyNode.offset);
    if (parsed?.entry.type === 'stdio') checkStdio(server, ctx, add, nodeRange);
    if (parsed && parsed.entry.type !== 'stdio') checkUrl(server, ctx, add, nodeRange);
    checkSecrets(model, server, add, range);
    checkSamplingMock(model, server, add, nodeRange, workbenchFileProfiles(ctx.workbenchFile));
    const other = ctx.otherServers.find((o) => o.name === server.name);
    if (other) {
      add(
        nodeRange(server.keyNode),
        DiagnosticSeverity.Warning,
        DiagnosticCode.serverDuplicate,
        `Another server named "${server.name}" is defined in ${other.where}. Both are used; the views tell them apart by file. Rename one to avoid confusion.`,
      );
    }
  }

  checkOwnKeyPlaces(model, ctx.workbenchFile, add, nodeRange);

  const defined = new Set(model.inputs.map((i) => i.id));
  const used = new Set<string>();
  const folderNames = ctx.workspaceFolders.map((f) => f.name);
  for (const v of model.variables) {
    const r = range(v.start, v.end);
    if (v.name.startsWith('input:')) {
      const id = v.name.slice('input:'.length);
      used.add(id);
      if (!defined.has(id)) {
        add(
          r,
          DiagnosticSeverity.Error,
          DiagnosticCode.inputUndefined,
          `\${input:${id}} is used but no input with id "${id}" is defined in "inputs"; the server cannot start.`,
          { id } satisfies InputUndefinedData,
        );
      }
    } else if (v.name.startsWith('env:')) {
      const name = v.name.slice('env:'.length);
      if (ctx.env[name] === undefined) {
        add(
          r,
          DiagnosticSeverity.Information,
          DiagnosticCode.envUnset,
          `The environment variable ${name} is not set in VS Code's environment; \${env:${name}} will be empty.`,
        );
      }
    } else if (v.name.startsWith('workspaceFolder:')) {
      const name = v.name.slice('workspaceFolder:'.length);
      if (!folderNames.includes(name)) {
        add(
          r,
          DiagnosticSeverity.Error,
          DiagnosticCode.workspaceFolderUnknown,
          `No workspace folder is named "${name}" (open folders: ${folderNames.join(', ') || 'none'}).`,
        );
      }
    } else if (!VARIABLES.some((k) => !k.family && k.name === v.name)) {
      const suggestion = suggestVariable(v.name);
      add(
        r,
        DiagnosticSeverity.Error,
        DiagnosticCode.variableUnknown,
        `Unknown variable \${${v.name}}${suggestion ? `; did you mean \${${suggestion}}?` : '.'} Known: \${workspaceFolder}, \${workspaceFolderBasename}, \${userHome}, \${env:NAME}, \${input:id}.`,
        { suggestion } satisfies VariableUnknownData,
      );
    }
  }
  for (const input of model.inputs) {
    if (!used.has(input.id)) {
      const idNode = input.node.children?.find((p) => p.children?.[0]?.value === 'id')?.children?.[1] ?? input.node;
      add(
        nodeRange(idNode),
        DiagnosticSeverity.Information,
        DiagnosticCode.inputUnused,
        `Input "${input.id}" is not used by any server of this file.`,
        undefined,
        [DiagnosticTag.Unnecessary],
      );
    }
  }
  return out;
}

type Add = (r: Range, severity: DiagnosticSeverity, code: DiagnosticCodeValue, message: string, data?: unknown) => void;

function checkStdio(server: ServerNode, ctx: LanguageContext, add: Add, nodeRange: (n: jsonc.Node) => Range): void {
  const base = ctx.folderPath ?? (ctx.filePath ? path.dirname(ctx.filePath) : ctx.userHome);
  const cwdField = serverString(server, 'cwd');
  const cwd = cwdField ? resolveValue(cwdField.value, ctx) : undefined;
  const cwdPath = cwd !== undefined ? resolvePath(base, cwd, ctx.platform) : undefined;
  if (cwdField && cwdPath !== undefined && ctx.stat(cwdPath) !== 'directory') {
    add(
      nodeRange(cwdField.node),
      DiagnosticSeverity.Error,
      DiagnosticCode.cwdMissing,
      `The working directory ${cwdPath} does not exist; the server cannot start.`,
    );
  }
  const envFile = serverString(server, 'envFile');
  const envPath = envFile ? resolveValue(envFile.value, ctx) : undefined;
  if (envFile && envPath !== undefined && ctx.stat(resolvePath(base, envPath, ctx.platform)) !== 'file') {
    add(
      nodeRange(envFile.node),
      DiagnosticSeverity.Error,
      DiagnosticCode.envFileMissing,
      `The env file ${resolvePath(base, envPath, ctx.platform)} does not exist.`,
    );
  }
  const command = serverString(server, 'command');
  if (!command || command.value.trim() === '') return;
  const resolved = resolveValue(command.value, ctx);
  if (resolved === undefined) return;
  const result = resolveCommand(resolved, {
    pathValue: ctx.pathValue,
    pathExt: ctx.env.PATHEXT,
    platform: ctx.platform,
    cwd: cwdPath ?? base,
    isExecutableFile: ctx.isExecutableFile,
  });
  if (result.resolved) return;
  const message =
    result.searched.length === 0
      ? `The command "${resolved}" does not exist or is not executable.`
      : `The command "${resolved}" was not found on the PATH servers start with (${result.searched.length} directories${ctx.loginShellPath ? ", including your login shell's" : ''}). Install it or write its absolute path.`;
  add(nodeRange(command.node), DiagnosticSeverity.Warning, DiagnosticCode.commandNotFound, message);
}

function checkUrl(server: ServerNode, ctx: LanguageContext, add: Add, nodeRange: (n: jsonc.Node) => Range): void {
  const field = serverString(server, 'url');
  if (!field) return;
  const value = resolveValue(field.value, ctx);
  if (value === undefined) return;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    add(
      nodeRange(field.node),
      DiagnosticSeverity.Error,
      DiagnosticCode.urlInvalid,
      `"${value}" is not a valid URL; write it in full, e.g. https://mcp.example.com/mcp.`,
    );
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    add(nodeRange(field.node), DiagnosticSeverity.Error, DiagnosticCode.urlInvalid, `The URL must use http:// or https://, not ${url.protocol}//.`);
  } else if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    add(
      nodeRange(field.node),
      DiagnosticSeverity.Warning,
      DiagnosticCode.urlInsecure,
      `Plain http:// to ${url.hostname} sends requests (and any credentials in headers) unencrypted; use https://.`,
    );
  }
}

function checkSamplingMock(model: ConfigModel, server: ServerNode, add: Add, nodeRange: (n: jsonc.Node) => Range, beside: string[]): void {
  const ref = samplingMockRef(server);
  if (!ref) return;
  const name = String(ref.value);
  if (beside.includes(name)) return;
  const names = model.samplingMocks.map((p) => p.name);
  if (names.includes(name)) return;
  const close = names.filter((n) => levenshtein(n.toLowerCase(), name.toLowerCase()) <= Math.max(1, Math.floor(name.length / 3)));
  add(
    nodeRange(ref),
    DiagnosticSeverity.Error,
    DiagnosticCode.samplingMockUnknown,
    `No sampling mock profile "${name}" is defined in "samplingMocks" of this file${close.length ? `; did you mean "${close[0]}"?` : names.length ? ` (defined: ${names.map((n) => `"${n}"`).join(', ')}).` : '.'} Until it is, the server's sampling requests show this problem instead of a reply.`,
  );
}

export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\./.test(h);
}

function checkSecrets(model: ConfigModel, server: ServerNode, add: Add, range: (s: number, e: number) => Range): void {
  for (const fieldName of ['env', 'headers'] as const) {
    const field = serverField(server, fieldName);
    if (field?.value.type !== 'object') continue;
    for (const property of field.value.children ?? []) {
      const [k, v] = property.children ?? [];
      if (!k || v?.type !== 'string') continue;
      const key = String(k.value);
      const secret = findLiteralSecret(key, String(v.value), fieldName === 'headers');
      if (!secret) continue;
      const data: SecretLiteralData = {
        server: server.name,
        field: fieldName,
        key,
        prefix: secret.prefix,
        suggestedId: freeInputId(model, slug(`${server.name}-${key}`)),
      };
      add(
        range(v.offset, v.offset + v.length),
        DiagnosticSeverity.Warning,
        DiagnosticCode.secretLiteral,
        `"${fieldName}.${key}" looks like a secret written into the file, where it can be committed or shared. Use an input: "${secret.prefix}\${input:${data.suggestedId}}" with "password": true keeps it in VS Code's secret storage.`,
        data,
      );
    }
  } // Every `oauth` secret field holds a secret, whatever it looks like: any literal value is one.
  const oauth = serverField(server, 'oauth');
  if (oauth?.value.type !== 'object') return;
  for (const path of OAUTH_SECRET_FIELDS) {
    const node = jsonc.findNodeAtLocation(oauth.value, path.split('.'));
    if (node?.type !== 'string' || /\$\{[^}]+\}/.test(String(node.value)) || String(node.value) === '') continue;
    const key = path.split('.').pop()!;
    const data: SecretLiteralData = {
      server: server.name,
      field: 'oauth',
      key: path,
      prefix: '',
      suggestedId: freeInputId(model, slug(`${server.name}-${key}`)),
    };
    add(
      range(node.offset, node.offset + node.length),
      DiagnosticSeverity.Warning,
      DiagnosticCode.secretLiteral,
      `"oauth.${path}" is written into the file, where it can be committed or shared. Use an input: "\${input:${data.suggestedId}}" with "password": true keeps it in VS Code's secret storage.`,
      data,
    );
  }
}

/** A long token-looking value, or any value under a secret-sounding name; `prefix` is what stays (`Bearer `). */
export function findLiteralSecret(key: string, value: string, header: boolean): { prefix: string } | undefined {
  if (value.includes('${')) return undefined;
  const scheme = header ? /^(Bearer|Basic|Token)\s+/i.exec(value) : null;
  const prefix = scheme ? scheme[0] : '';
  const token = value.slice(prefix.length);
  if (token.length < 8 || /\s/.test(token)) return undefined;
  if (/^(your|my|<|xxx|changeme|placeholder|example)/i.test(token)) return undefined;
  const looksRandom = token.length >= 20 && /^[A-Za-z0-9_\-.+/=:]+$/.test(token) && /[A-Za-z]/.test(token) && /\d/.test(token);
  const secretName = SECRET_NAME.test(key) || (header && /^(authorization|proxy-authorization|cookie)$/i.test(key));
  if (TOKEN_PREFIX.test(token) || (looksRandom && (secretName || token.length >= 32 || !!scheme)) || (secretName && token.length >= 16 && /\d/.test(token))) {
    return { prefix };
  }
  return undefined;
}

/** The closest known variable to an unknown one, keeping what follows `:` (`env.HOME` → `env:HOME`). */
export function suggestVariable(name: string): string | undefined {
  // Claude Code's `.mcp.json` expands `${VAR}` from the environment; here that is `${env:VAR}`.
  if (/^[A-Z_][A-Z0-9_]*$/.test(name)) return `env:${name}`;
  const m = /^([^:.]*)[:.](.*)$/.exec(name);
  const head = m ? m[1] : name;
  const rest = m ? m[2] : undefined;
  const candidates = VARIABLES.filter((v) => (rest !== undefined) === !!v.family).map((v) => v.name.replace(/:$/, ''));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = c.toLowerCase() === head.toLowerCase() ? 0 : levenshtein(c.toLowerCase(), head.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  if (!best || bestDistance > Math.max(2, Math.floor(head.length / 2))) return undefined;
  return rest !== undefined ? `${best}:${rest}` : best;
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

function resolvePath(base: string, p: string, platform: NodeJS.Platform): string {
  return (platform === 'win32' ? path.win32 : path.posix).resolve(base, p);
}

function severityOf(problem: ConfigProblem): DiagnosticSeverity {
  return problem.severity === 'error' ? DiagnosticSeverity.Error : problem.severity === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Information;
}

/** The parser's own messages keep their text (the same as when the extension loads the file); these get their own code. */
function codeOfProblem(problem: ConfigProblem): DiagnosticCodeValue {
  if (problem.suggestion) return DiagnosticCode.keyTypo;
  if (/is another host's spelling/.test(problem.message)) return DiagnosticCode.typeDialect;
  if (/^"url" is ignored for the stdio server/.test(problem.message)) return DiagnosticCode.urlOnStdio;
  if (/^"command" is ignored for the (http|sse) server/.test(problem.message)) return DiagnosticCode.commandOnHttp;
  return DiagnosticCode.parse;
}
