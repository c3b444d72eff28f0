import * as assert from 'node:assert/strict';
import { codeSpan, escapeMarkdown, plainForNotification, revealControlCharacters } from '../../../src/shared/common/untrustedText';

/** VS Code's notification link syntax (vs/base/common/linkedText.ts, 1.100). */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
/** Characters that make inline markup wherever they stand (and `$` of `$(icon)`). */
const MARKUP = ['\\', '`', '*', '_', '[', ']', '<', '>', '&', '|', '~', '$'];
/** A line that would start a heading, a list item or a setext underline. */
const BLOCK_MARKER = /^[ \t]*([#+=-]|\d+[.)])/;

/**
 * Reads markdown source the way CommonMark treats backslash escapes: returns the text with the
 * escapes resolved, and every punctuation character that was NOT escaped (markdown may act on it).
 */
function unescape(md: string): { text: string; unescaped: string[] } {
  let text = '';
  const unescaped: string[] = [];
  for (let i = 0; i < md.length; i++) {
    const c = md[i];
    if (c === '\\' && i + 1 < md.length && ASCII_PUNCTUATION.test(md[i + 1])) {
      text += md[++i];
    } else {
      if (ASCII_PUNCTUATION.test(c)) unescaped.push(c);
      text += c;
    }
  }
  return { text, unescaped };
}

/** The content of a CommonMark code span that must make up all of `md`, or an error. */
function codeSpanContent(md: string): string {
  const open = /^`+/.exec(md)?.[0];
  assert.ok(open, `no opening backticks in ${md}`);
  const rest = md.slice(open.length);
  // The span closes at the first run of exactly the same length.
  const close = [...rest.matchAll(/`+/g)].find((m) => m[0].length === open.length);
  assert.ok(close, `the span never closes: ${md}`);
  assert.equal(close.index! + close[0].length, rest.length, `the span closes early, the rest is markdown: ${md}`);
  const content = rest.slice(0, close.index);
  return /^ .* $/.test(content) && content.trim() !== '' ? content.slice(1, -1) : content;
}

const HOSTILE = [
  '[click](command:workbench.action.quit)',
  '**bold** _em_ `code` <img src=x onerror=alert(1)> # heading',
  '![image](https://evil.example/x.png) https://evil.example www.evil.example',
  '| table | row |\n|---|---|',
  '> quote\n- item\n1. item\n\n    indented code',
  'line\n===\nsetext',
  '&lt;script&gt; &#x60;',
  'back\\slash \\[not a link\\](command:x)',
];

describe('untrusted text', () => {
  describe('revealControlCharacters', () => {
    it('shows bidi overrides, isolates and zero-width characters as \\u escapes', () => {
      assert.equal(revealControlCharacters('invoice\u202Efdp.exe'), 'invoice\\u202Efdp.exe');
      assert.equal(revealControlCharacters('a\u2066b\u2069c\u200Bd\u200Fe\u061Cf\uFEFF'), 'a\\u2066b\\u2069c\\u200Bd\\u200Fe\\u061Cf\\uFEFF');
      assert.equal(revealControlCharacters('bell\u0007 esc\u001b del\u007f c1\u0085'), 'bell\\u0007 esc\\u001B del\\u007F c1\\u0085');
    });

    it('shows Unicode tag characters (hidden ASCII a model reads) as \\u{…} escapes', () => {
      const hidden = [...'ignore'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
      assert.equal(revealControlCharacters(`add${hidden}`), 'add\\u{E0069}\\u{E0067}\\u{E006E}\\u{E006F}\\u{E0072}\\u{E0065}');
      assert.equal(revealControlCharacters('\u{E0001}x\u{E007F}'), '\\u{E0001}x\\u{E007F}');
    });

    it('leaves tabs, line breaks and ordinary non-Latin text alone', () => {
      for (const text of ['a\tb\nc\r\nd', 'café', 'שלום עולם', 'مرحبا', '中文', '👨‍👩‍👧']) assert.equal(revealControlCharacters(text), text);
    });
  });

  describe('plainForNotification', () => {
    it('leaves no link VS Code would make live in a notification', () => {
      for (const text of [
        'Error: [click](command:workbench.action.quit)',
        '[a](command:x)[b](https://evil.example)[c](file:///etc/passwd "title")',
        '[[nested]](command:x) [x](COMMAND:y)',
        '[x]\u200B(command:y)',
      ]) {
        const plain = plainForNotification(text);
        assert.deepEqual([...plain.matchAll(NOTIFICATION_LINK)], [], plain);
      }
    });

    it('keeps the text readable and is stable when applied twice', () => {
      const once = plainForNotification('Failed: [click](command:workbench.action.quit)');
      assert.equal(once, 'Failed: [click] (command:workbench.action.quit)');
      assert.equal(plainForNotification(once), once);
      assert.equal(plainForNotification('MCP server "weather" failed to start: exit code 1'), 'MCP server "weather" failed to start: exit code 1');
    });

    it('reveals direction overrides in names', () => {
      assert.equal(plainForNotification('MCP evil\u202Eexe.txt: failed'), 'MCP evil\\u202Eexe.txt: failed');
    });
  });

  describe('escapeMarkdown', () => {
    it('leaves nothing that makes markup unescaped, and reads back as the original text', () => {
      for (const text of HOSTILE) {
        const md = escapeMarkdown(text);
        const read = unescape(md.replace(/ {2}\n/g, '\n'));
        assert.deepEqual(
          read.unescaped.filter((c) => MARKUP.includes(c)),
          [],
          `unescaped markup in ${JSON.stringify(md)}`,
        );
        assert.deepEqual(
          md.split('  \n').filter((line) => BLOCK_MARKER.test(line)),
          [],
          `a line starts a block in ${JSON.stringify(md)}`,
        );
        assert.equal(read.text, text.replace(/\n(?:[ \t]*\n)+/g, '\n'), md);
      }
    });

    it('keeps ordinary words as they are', () => {
      assert.equal(escapeMarkdown('fixture-stdio'), 'fixture-stdio');
      assert.equal(escapeMarkdown('Cancelled. Version 1.2 (beta): 50% done, "quoted" #3'), 'Cancelled. Version 1.2 (beta): 50% done, "quoted" #3');
    });

    it('keeps line breaks as hard breaks and folds blank lines, so no block (code, list) can start', () => {
      assert.equal(escapeMarkdown('one\ntwo'), 'one  \ntwo');
      assert.equal(escapeMarkdown('one\n\n\n    code'), 'one  \n    code');
      assert.equal(escapeMarkdown('# title\n- item\n2. item\n==='), '\\# title  \n\\- item  \n2\\. item  \n\\===');
    });

    it('keeps $(icon) literal where theme icons are rendered', () => {
      // VS Code reads `\$(name)` as the literal text, in theme-icon and plain MarkdownStrings alike.
      assert.equal(escapeMarkdown('$(zap) boom'), '\\$(zap) boom');
    });

    it('reveals bidi overrides', () => {
      assert.equal(escapeMarkdown('a\u202Eb'), 'a\\\\u202Eb');
    });
  });

  describe('codeSpan', () => {
    it('holds any text, backticks included, without closing early', () => {
      for (const text of ['plain', 'a`b', '``double``', '`starts', 'ends`', '`', '```', 'x`](command:quit) `y', ' spaced ']) {
        const md = codeSpan(text);
        assert.equal(codeSpanContent(md), text, md);
      }
    });

    it('turns line breaks into spaces and reveals bidi overrides', () => {
      assert.equal(codeSpan('a\nb'), '`a b`');
      assert.equal(codeSpan('a\u202Eb'), '`a\\u202Eb`');
    });
  });
});
