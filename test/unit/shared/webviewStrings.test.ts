/**
 * Every text a webview shows goes through `l10n.t` (@vscode/l10n), so `npm run l10n` exports it
 * and a translation reaches the page (src/shared/common/webviewL10n.ts). A heuristic scan of
 * the webview sources: a string literal is flagged when it is where a user reads it (textContent,
 * a title, aria-label, placeholder or alt, a button's label) or when it reads like English prose
 * (a capitalized word, three words, an ellipsis), unless it is the message of an `l10n.t` call or
 * in a place that is not text (imports, comparisons, ids, classes, message types, selectors).
 * Literals that are not text although they look like it are listed in NOT_TEXT with the reason.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

const WEBVIEW = path.resolve(__dirname, '../../../../webview');

/** Literals that look like text but are not (value → why). */
const NOT_TEXT: Record<string, string> = {
  '2025-01-31T14:30:00Z': 'the example value of a date-time field (its placeholder): a format, not a sentence',
  JSON: 'the placeholder of a JSON field: the name of the format',
  Enter: 'a key name compared with event.key',
  ArrowLeft: 'a key name compared with event.key',
  ArrowRight: 'a key name compared with event.key',
  Home: 'a key name compared with event.key',
  End: 'a key name compared with event.key',
  '{} ms': 'a duration in the SI symbol, as formatDuration writes it in every view and log line',
  'dropped a message from the app frame: {}': 'a line for the server log (appProblem), which stays English like every log',
};

interface Literal {
  text: string;
  /** The code right before the literal (up to 60 characters, one line). */
  before: string;
  /** The code right after it (up to 20 characters). */
  after: string;
  line: number;
}

/**
 * The string literals of a TypeScript file: '…', "…" and `…` (a template's `${…}` parts are
 * scanned as code, their text replaced by `{}`), comments skipped. Regular expressions are not
 * recognized; the webviews' ones contain no quotes.
 */
export function stringLiterals(source: string): Literal[] {
  const found: Literal[] = [];
  let i = 0;
  const lineAt = (index: number) => source.slice(0, index).split('\n').length;
  const context = (start: number, end: number): Pick<Literal, 'before' | 'after'> => ({
    before:
      source
        .slice(Math.max(0, start - 60), start)
        .split('\n')
        .pop() ?? '',
    after: source.slice(end, end + 20).split('\n')[0],
  });
  const scanCode = (stopAtBrace: boolean): void => {
    let depth = 0;
    while (i < source.length) {
      const c = source[i];
      if (c === '/' && source[i + 1] === '/') {
        i = source.indexOf('\n', i);
        if (i < 0) i = source.length;
      } else if (c === '/' && source[i + 1] === '*') {
        i = source.indexOf('*/', i + 2) + 2;
        if (i < 2) i = source.length;
      } else if (c === "'" || c === '"') {
        const start = i;
        let text = '';
        i++;
        while (i < source.length && source[i] !== c) {
          if (source[i] === '\\') i++;
          text += source[i];
          i++;
        }
        i++;
        found.push({ text, line: lineAt(start), ...context(start, i) });
      } else if (c === '`') {
        const start = i;
        let text = '';
        i++;
        while (i < source.length && source[i] !== '`') {
          if (source[i] === '\\') {
            text += source[i + 1];
            i += 2;
          } else if (source[i] === '$' && source[i + 1] === '{') {
            i += 2;
            scanCode(true);
            text += '{}';
          } else {
            text += source[i];
            i++;
          }
        }
        i++;
        found.push({ text, line: lineAt(start), ...context(start, i) });
      } else if (c === '{') {
        depth++;
        i++;
      } else if (c === '}') {
        i++;
        if (stopAtBrace && depth-- === 0) return;
      } else {
        i++;
      }
    }
  };
  scanCode(false);
  return found;
}

/** Where a literal is read by the user whatever it says. */
const TEXT_PLACES = [
  /\b(?:textContent|innerText)\s*=\s*$/,
  /['"]?\b(?:aria-label|title|placeholder|alt)['"]?\s*:\s*$/,
  /\bbutton\(\s*$/,
  /\bbutton\(\s*'[^']*'\s*,\s*$/,
];

/** Where a literal is not text, whatever it looks like (a DOM call may name its element type: querySelectorAll<HTMLElement>('…')). */
const CODE_PLACES = [
  /\b(?:import|from)\s*$/,
  /\bcase\s*$/,
  /[!=]==?\s*$/,
  /\b(?:type|kind|class|id|for|role|value|mode|rel|sandbox|referrerpolicy|inputmode|spellcheck|rows|tabindex|'data-[\w-]+'|'aria-[\w-]+')\s*:\s*$/,
  /\b(?:getElementById|querySelector|querySelectorAll|closest|setAttribute|removeAttribute|getAttribute|addEventListener|createElement|getPropertyValue|postMessage|matches|toggle|add|remove|contains)(?:<[\w.]+>)?\(\s*$/,
  /\b(?:h|el)\(\s*$/,
];

/** Reads like English a user would see: a capitalized word, three words in a row, an ellipsis. */
function looksLikeText(text: string): boolean {
  return /(^|[\s(])[A-Z][a-z]+\b/.test(text) || /[A-Za-z]+[ ,]+[A-Za-z]+[ ,]+[A-Za-z]+/.test(text) || text.includes('…');
}

/** The literals of `source` a user reads that do not go through l10n.t. */
export function unlocalizedTexts(source: string): Literal[] {
  return stringLiterals(source).filter((literal) => {
    if (!/[A-Za-z]{2}/.test(literal.text) || literal.text in NOT_TEXT) return false;
    if (/\bl10n\.t\(\s*$/.test(literal.before)) return false;
    if (CODE_PLACES.some((place) => place.test(literal.before))) return false;
    // An object key ('aria-label': …) is a name, not text.
    if (/^\s*:/.test(literal.after)) return false;
    // button(id, label, onClick) in the approval panel: the first argument is the id when the
    // second is not the click handler (an arrow function, or a name followed by the options).
    if (/\bbutton\(\s*$/.test(literal.before) && /^\s*,(?!\s*\(\)\s*=>|\s*[A-Za-z_$][\w$]*\s*[,)])/.test(literal.after)) return false;
    return TEXT_PLACES.some((place) => place.test(literal.before)) || looksLikeText(literal.text);
  });
}

function webviewFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return webviewFiles(file);
    return name.endsWith('.ts') ? [file] : [];
  });
}

describe('webview strings are localizable', () => {
  it('finds English the user reads where it is not localized (the scan itself)', () => {
    const sample = [
      "b.textContent = 'Run';",
      "h('input', { placeholder: 'Type here' });",
      "button('Show', () => post());",
      "button('Reset', reset, { class: 'secondary' });",
      "button('approve', 'Approve', () => post());",
      "el('p', {}, 'No requests are waiting.');",
      "h('span', { title: `Remove item ${i + 1}` });",
      "el('p', { 'aria-label': 'Pending requests' });",
    ].join('\n');
    assert.deepEqual(
      unlocalizedTexts(sample).map((l) => l.text),
      ['Run', 'Type here', 'Show', 'Reset', 'Approve', 'No requests are waiting.', 'Remove item {}', 'Pending requests'],
    );
    const fine = [
      "import * as l10n from '@vscode/l10n';",
      "b.textContent = l10n.t('Run');",
      "h('input', { placeholder: l10n.t('Type here') });",
      "button('approve', l10n.t('Approve'), () => post());",
      "button('send', sendLabel(), () => post());",
      "el('p', { class: 'empty', id: 'empty' }, l10n.t('No requests are waiting.'));",
      "if (event.key === 'Enter') submit();",
      "el('button', { type: 'button', class: 'secondary small' });",
      "// Comments are not text: 'Run the tool'",
      "row('maxTokens', String(max));",
    ].join('\n');
    assert.deepEqual(unlocalizedTexts(fine), []);
  });

  const files = webviewFiles(WEBVIEW);
  it('finds the webview sources', () => assert.ok(files.length >= 10, files.join()));

  for (const file of files) {
    it(`${path.relative(WEBVIEW, file)}: every text goes through l10n.t`, () => {
      const problems = unlocalizedTexts(readFileSync(file, 'utf8')).map((l) => `line ${l.line}: '${l.text}' (after: ${l.before.trim()})`);
      assert.deepEqual(problems, [], "wrap them in l10n.t('…') (placeholders as {0} arguments), or list a literal that is not text in NOT_TEXT");
    });
  }
});
