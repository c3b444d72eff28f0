/**
 * The `@mcp /<server>.<prompt> key=value …` command line, without `vscode`: tokenizing with
 * quotes, resolving `<server>.<prompt>` against the prompts that exist (server names may hold
 * dots), and checking the arguments against the prompt's declared ones.
 */

/** A prompt argument as MCP declares it (`prompts/list`). */
export interface PromptArgumentInfo {
  name: string;
  description?: string;
  required?: boolean;
}

export interface ParsedCommandLine {
  /** `<server>.<prompt>` as typed, without the slash. */
  target: string;
  /** `key=value` pairs in the order typed. */
  named: { key: string; value: string }[];
  /** Values given without `key=`, in order. */
  positional: string[];
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Splits a request text such as `/fixture.greet name="Ada Lovelace" style=formal`.
 * Quotes (`"…"` or `'…'`) may wrap a whole value or part of a token; `\` escapes the next
 * character inside double quotes and outside quotes. The leading `/` is optional.
 */
export function parsePromptCommandLine(text: string): Parsed<ParsedCommandLine> {
  const tokens = tokenize(text.trim());
  if (!tokens.ok) return tokens;
  const [first, ...rest] = tokens.value;
  if (!first || !first.text.replace(/^\//, '')) {
    return { ok: false, error: 'Name a prompt: /<server>.<prompt> key=value …' };
  }
  const target = first.text.replace(/^\//, '');
  const named: ParsedCommandLine['named'] = [];
  const positional: string[] = [];
  for (const token of rest) {
    // `=` only separates a key when it is outside quotes and the key is a plain word.
    if (token.equalsAt !== undefined) {
      const key = token.text.slice(0, token.equalsAt);
      if (!key) return { ok: false, error: `"${token.text}" has no argument name before "=".` };
      named.push({ key, value: token.text.slice(token.equalsAt + 1) });
    } else {
      positional.push(token.text);
    }
  }
  return { ok: true, value: { target, named, positional } };
}

interface Token {
  text: string;
  /** Index in `text` of the first `=` typed outside quotes, if any. */
  equalsAt?: number;
}

function tokenize(input: string): Parsed<Token[]> {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    while (i < input.length && /\s/.test(input[i])) i++;
    if (i >= input.length) break;
    let text = '';
    let equalsAt: number | undefined;
    while (i < input.length && !/\s/.test(input[i])) {
      const ch = input[i];
      if (ch === '"' || ch === "'") {
        const quote = ch;
        const start = i;
        i++;
        let closed = false;
        while (i < input.length) {
          const c = input[i];
          if (c === '\\' && quote === '"' && i + 1 < input.length) {
            text += input[i + 1];
            i += 2;
            continue;
          }
          if (c === quote) {
            closed = true;
            i++;
            break;
          }
          text += c;
          i++;
        }
        if (!closed) return { ok: false, error: `The quote opened at column ${start + 1} is not closed.` };
        continue;
      }
      if (ch === '\\' && i + 1 < input.length) {
        text += input[i + 1];
        i += 2;
        continue;
      }
      if (ch === '=' && equalsAt === undefined && (text === '' || /^[A-Za-z_][\w.-]*$/.test(text))) equalsAt = text.length;
      text += ch;
      i++;
    }
    tokens.push(equalsAt === undefined ? { text } : { text, equalsAt });
  }
  return { ok: true, value: tokens };
}

/** One prompt a command line may name. */
export interface PromptTarget<T = unknown> {
  serverName: string;
  promptName: string;
  data: T;
}

/**
 * Finds the prompt `<server>.<prompt>` names: exact match first, then case-insensitive.
 * Server and prompt names may both contain dots, so every known pair is compared whole.
 */
export function resolvePromptTarget<T>(target: string, candidates: readonly PromptTarget<T>[]): Parsed<PromptTarget<T>> {
  const key = (c: PromptTarget<T>) => `${c.serverName}.${c.promptName}`;
  const exact = candidates.find((c) => key(c) === target);
  if (exact) return { ok: true, value: exact };
  const folded = candidates.filter((c) => key(c).toLowerCase() === target.toLowerCase());
  if (folded.length === 1) return { ok: true, value: folded[0] };
  const byPrompt = candidates.filter((c) => c.promptName === target);
  if (byPrompt.length === 1) return { ok: true, value: byPrompt[0] };
  if (!candidates.length) return { ok: false, error: `There is no prompt "${target}": no running MCP server offers prompts.` };
  const near = candidates.filter((c) => c.promptName.toLowerCase() === target.split('.').pop()?.toLowerCase());
  const hint = (near.length ? near : candidates)
    .slice(0, 8)
    .map((c) => `/${key(c)}`)
    .join(', ');
  return {
    ok: false,
    error:
      byPrompt.length > 1
        ? `Several servers have a prompt "${target}"; name the server: ${byPrompt.map((c) => `/${key(c)}`).join(', ')}.`
        : `There is no prompt "${target}". ${near.length ? 'Did you mean' : 'Available'}: ${hint}.`,
  };
}

/**
 * The arguments to send with `prompts/get`: named values, then positional values filling the
 * declared arguments not named yet, in declaration order. Unknown names, duplicates, surplus
 * positional values and missing required arguments are errors that name the fix.
 */
export function bindPromptArguments(
  declared: readonly PromptArgumentInfo[],
  line: Pick<ParsedCommandLine, 'named' | 'positional'>,
  usage: string,
): Parsed<Record<string, string>> {
  const args: Record<string, string> = {};
  const names = declared.map((a) => a.name);
  const list = names.length ? names.map((n) => (declared.find((a) => a.name === n)?.required ? `${n} (required)` : n)).join(', ') : 'none';
  for (const { key, value } of line.named) {
    if (!names.includes(key)) {
      return { ok: false, error: `Unknown argument "${key}" for ${usage}. Its arguments: ${list}.` };
    }
    if (key in args) return { ok: false, error: `Argument "${key}" is given twice.` };
    args[key] = value;
  }
  const open = names.filter((n) => !(n in args));
  if (line.positional.length > open.length) {
    return {
      ok: false,
      error: `Too many values for ${usage}: "${line.positional.slice(open.length).join(' ')}" has no argument left to fill. Use key=value; its arguments: ${list}.`,
    };
  }
  line.positional.forEach((value, i) => {
    args[open[i]] = value;
  });
  const missing = declared.filter((a) => a.required && !(a.name in args)).map((a) => a.name);
  if (missing.length) {
    return {
      ok: false,
      error: `Missing required argument${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')} for ${usage}. Example: ${usage} ${missing.map((m) => `${m}=…`).join(' ')}`,
    };
  }
  return { ok: true, value: args };
}

/** Quotes a value for a command line when it needs it (the inverse of the tokenizer). */
export function quoteArgument(value: string): string {
  return /^[^\s"'\\=]+$/.test(value) ? value : `"${value.replace(/["\\]/g, '\\$&')}"`;
}
