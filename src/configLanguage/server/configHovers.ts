/**
 * Hovers over `${…}` variables: what the variable means and what it resolves to here.
 * Secrets are never shown: password inputs and secret-sounding environment variables are masked.
 */
import type { Hover } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { InputValueParams, InputValueResult } from '../common/languageMessages';
import { resolveValue, VARIABLES } from './configDiagnostics';
import * as jsonc from 'jsonc-parser';
import { samplingMockRef, variableAt, type ConfigModel } from './configModel';
import type { LanguageContext } from './serverContext';
import { codeSpan, escapeMarkdown } from '../../shared/common/untrustedText';

const SECRET_ENV = /(token|secret|password|passwd|api[_-]?key|apikey|credential|private[_-]?key|auth|cookie|session)/i;
export const MASK = '••••••••';

export type InputValueLookup = (params: InputValueParams) => Promise<InputValueResult | undefined>;

export async function hoverVariable(
  model: ConfigModel,
  doc: TextDocument,
  offset: number,
  ctx: LanguageContext,
  inputValue?: InputValueLookup,
): Promise<Hover | null> {
  const v = variableAt(model, offset);
  if (!v) return null;
  const range = { start: doc.positionAt(v.start), end: doc.positionAt(v.end) };
  const lines: string[] = [];
  // Names, descriptions and values come from the file (a repository's): text, never markup.
  const code = codeSpan;
  const md = escapeMarkdown;
  if (v.name.startsWith('input:')) {
    const id = v.name.slice('input:'.length);
    const input = model.inputs.find((i) => i.id === id);
    if (!input) {
      lines.push(`**\${input:${md(id)}}**: no input with this id is defined in \`inputs\`.`);
    } else {
      lines.push(
        `**\${input:${md(id)}}**: ${md(input.description ?? 'an input')} (${md(String(input.type ?? 'promptString'))}${input.password ? ', password' : ''})`,
      );
      const answer = ctx.filePath && inputValue ? await inputValue({ file: ctx.filePath, id, secret: input.password }).catch(() => undefined) : undefined;
      if (answer?.stored) lines.push(`Stored value: ${input.password || answer.value === undefined ? MASK : code(answer.value)}`);
      else if (answer) lines.push('Not stored yet: you are asked for it when a server that uses it starts.');
      if (input.password) lines.push("Kept in VS Code's secret storage and never written to logs.");
    }
  } else if (v.name.startsWith('env:')) {
    const name = v.name.slice('env:'.length);
    const value = ctx.env[name];
    lines.push(`**\${env:${md(name)}}**: environment variable of VS Code.`);
    lines.push(value === undefined ? 'Not set: resolves to an empty string.' : `Value: ${SECRET_ENV.test(name) ? MASK : code(value)}`);
  } else {
    const family = v.name.includes(':') ? VARIABLES.find((k) => k.family && v.name.startsWith(k.name)) : undefined;
    const known = family ?? VARIABLES.find((k) => !k.family && k.name === v.name);
    if (!known) {
      lines.push(`**\${${md(v.name)}}**: unknown variable; it is left as written.`);
    } else {
      lines.push(`**\${${md(v.name)}}**: ${known.description}`);
      const value = resolveValue(`\${${v.name}}`, ctx);
      lines.push(value === undefined ? 'Cannot be resolved here.' : `Value: ${code(value)}`);
    }
  }
  return { contents: { kind: 'markdown', value: lines.join('\n\n') }, range };
}

/** Hover over a server's `"sampling": { "mock": "<name>" }`: what the named profile answers (file text, escaped). */
export function hoverSamplingMock(model: ConfigModel, doc: TextDocument, offset: number): Hover | null {
  const ref = model.servers.map(samplingMockRef).find((n) => n && offset >= n.offset && offset <= n.offset + n.length);
  if (!ref) return null;
  const name = String(ref.value);
  const range = { start: doc.positionAt(ref.offset), end: doc.positionAt(ref.offset + ref.length) };
  const profile = model.samplingMocks.find((p) => p.name === name)?.valueNode;
  if (!profile)
    return { contents: { kind: 'markdown', value: `**Sampling mock profile ${codeSpan(name)}**: not defined in \`samplingMocks\` of this file.` }, range };
  const value = jsonc.getNodeValue(profile) as Record<string, unknown>;
  const count = (v: unknown) => (Array.isArray(v) ? v.length : v === undefined ? 0 : 1);
  const rules = count(value.rules);
  const replies = value.replies !== undefined ? count(value.replies) : count(value.reply);
  const lines = [
    `**Sampling mock profile ${codeSpan(name)}**: answers this server's sampling requests instead of a model; each reply still waits for your approval unless your own sampling policy for the server says otherwise.`,
  ];
  if (typeof value.description === 'string') lines.push(escapeMarkdown(value.description));
  lines.push(
    `${rules} rule${rules === 1 ? '' : 's'} (tried first, on the last user message), ${replies} repl${replies === 1 ? 'y' : 'ies'} in turn; model ${codeSpan(typeof value.model === 'string' ? value.model : 'mock')}.`,
  );
  return { contents: { kind: 'markdown', value: lines.join('\n\n') }, range };
}
