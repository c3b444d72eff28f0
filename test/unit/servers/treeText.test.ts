import * as assert from 'node:assert/strict';
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import {
  promptItemText,
  promptTooltip,
  resourceItemText,
  resourceTooltip,
  serverItemText,
  serverTooltip,
  stateSummary,
  taskItemText,
  taskTooltip,
  templateItemText,
  templateTooltip,
  toolItemText,
  toolTooltip,
  type ItemText,
  type MarkdownPart,
} from '../../../src/servers/common/treeText';
import { firstSentence, oneLine } from '../../../src/servers/common/failureText';

/** Breaks out of inline code (a backtick) and then makes a remote image and a command link. */
const BREAKOUT = 'x`![pixel](https://evil.example/p.png)[run](command:workbench.action.quit)`y';

/**
 * The markdown outside CommonMark code spans, with backslash escapes left in: an opening run of
 * n backticks closes at the next run of exactly n; a run that never closes is literal text.
 */
function outsideCodeSpans(md: string): string {
  let out = '';
  let i = 0;
  while (i < md.length) {
    if (md[i] === '\\' && i + 1 < md.length) {
      out += md.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (md[i] !== '`') {
      out += md[i++];
      continue;
    }
    const run = /^`+/.exec(md.slice(i))![0];
    let j = i + run.length;
    let close = -1;
    while (j < md.length) {
      const next = /`+/.exec(md.slice(j));
      if (!next) break;
      const at = j + next.index;
      if (next[0].length === run.length) {
        close = at;
        break;
      }
      j = at + next[0].length;
    }
    if (close < 0) {
      out += run;
      i += run.length;
    } else {
      i = close + run.length;
      out += '⟨code⟩';
    }
  }
  return out;
}

/** Markup characters left unescaped outside code in the `markdown` parts (`text` and `code` parts are escaped by VS Code). */
function liveMarkup(parts: MarkdownPart[]): string[] {
  const found: string[] = [];
  for (const part of parts) {
    if (!('markdown' in part)) continue;
    const outside = outsideCodeSpans(part.markdown);
    for (let i = 0; i < outside.length; i++) {
      if (outside[i] === '\\') {
        i++;
        continue;
      }
      if ('[]<>'.includes(outside[i])) found.push(`${outside[i]} in ${JSON.stringify(part.markdown)}`);
      if (outside.startsWith('$(zap)', i)) found.push(`an icon in ${JSON.stringify(part.markdown)}`);
    }
  }
  return found;
}

const all = (parts: MarkdownPart[]) => parts.map((p) => ('markdown' in p ? p.markdown : 'text' in p ? p.text : p.code)).join('');

describe('Servers tree labels', () => {
  // U+202E RIGHT-TO-LEFT OVERRIDE makes `evil\u202Egnp.exe` look like `evilexe.png`.
  const RLO = 'evil\u202Egnp.exe\u2066';
  const shown = (text: ItemText) => `${text.label}|${text.description ?? ''}`;

  it('show bidi overrides and isolates in names escaped', () => {
    const texts = [
      serverItemText(RLO, `stdio · ${RLO}`),
      toolItemText({ name: RLO, title: `Title ${RLO}`, inputSchema: { type: 'object' } }, []),
      toolItemText({ name: RLO, inputSchema: { type: 'object' } }, []),
      resourceItemText({ uri: `fixture://${RLO}`, name: RLO }),
      templateItemText({ uriTemplate: `fixture://${RLO}/{id}`, name: RLO }),
      promptItemText({ name: RLO, arguments: [{ name: RLO, required: true }] }),
    ];
    for (const text of texts) {
      assert.ok(!/[\u202A-\u202E\u2066-\u2069]/.test(shown(text)), JSON.stringify(shown(text)));
      assert.ok(shown(text).includes('evil\\u202Egnp.exe\\u2066'), shown(text));
    }
  });

  it('leave ordinary names alone', () => {
    assert.deepEqual(toolItemText({ name: 'echo', title: 'Echo', inputSchema: { type: 'object' } }, ['read-only']), {
      label: 'Echo',
      description: 'echo · read-only',
    });
    assert.deepEqual(promptItemText({ name: 'greet', arguments: [{ name: 'name', required: true }, { name: 'style' }] }), {
      label: 'greet',
      description: 'name*, style',
    });
  });
});

describe('Servers tree tooltips', () => {
  it('tool names and titles cannot break out of code or make links', () => {
    const tool: Tool = {
      name: BREAKOUT,
      title: `**T** <img src=x> [a](command:workbench.action.quit) ${BREAKOUT}`,
      description: BREAKOUT,
      inputSchema: { type: 'object' },
    };
    assert.deepEqual(liveMarkup(toolTooltip(tool, [])), []);
    assert.deepEqual(liveMarkup(toolTooltip({ ...tool, title: undefined }, [])), []);
  });

  it('prompt names, argument names and argument descriptions cannot make markup or blocks', () => {
    const prompt: Prompt = {
      name: BREAKOUT,
      title: BREAKOUT,
      arguments: [{ name: BREAKOUT, description: `ok\n\n# heading ${BREAKOUT}`, required: true }],
    };
    const parts = promptTooltip(prompt);
    assert.deepEqual(liveMarkup(parts), []);
    assert.ok(!parts.some((p) => 'markdown' in p && /\n#/.test(p.markdown)), 'no heading from a description');
  });

  it('resource and template names and MIME types stay text', () => {
    const resource: Resource = { uri: 'fixture://x', name: BREAKOUT, mimeType: `text/plain${BREAKOUT}` };
    assert.deepEqual(liveMarkup(resourceTooltip(resource)), []);
    const template: ResourceTemplate = { uriTemplate: 'fixture://{id}', name: BREAKOUT, title: BREAKOUT };
    assert.deepEqual(liveMarkup(templateTooltip(template)), []);
  });

  it('server labels, commands, URLs, server info and capabilities stay text, icons included', () => {
    const parts = serverTooltip({
      label: `evil\u202Eexe ${BREAKOUT}`,
      stateText: `Error: ${BREAKOUT}`,
      launch: { type: 'stdio', command: `node${BREAKOUT}` },
      running: {
        serverName: `$(zap) ${BREAKOUT}`,
        version: BREAKOUT,
        protocolVersion: BREAKOUT,
        capabilities: ['tools', BREAKOUT, '$(zap)'],
        instructions: BREAKOUT,
      },
      config: { folder: BREAKOUT, label: '.vscode/mcp.json', line: 3 },
      discovered: { note: 'Found by discovery in the config of Cursor:', file: `/home/u/${BREAKOUT}` },
    });
    assert.deepEqual(liveMarkup(parts), []);
    assert.ok(!all(parts).includes('\u202E'), 'the bidi override is shown escaped');
    // Not even inside code: VS Code draws `$(name)` as an icon there too.
    assert.ok(!/(^|[^\\])\$\(zap\)/.test(all(parts)), all(parts));
    const http = serverTooltip({
      label: 's',
      stateText: 'Stopped',
      launch: { type: 'http', url: `https://x.example/${BREAKOUT}` },
      config: { label: 'Settings' },
    });
    assert.deepEqual(liveMarkup(http), []);
  });

  it('tasks: the tool (or id) and the state in one line; server text stays text', () => {
    assert.deepEqual(taskItemText({ taskId: 't1', status: 'working', statusMessage: 'step 2 of 5', toolName: 'longTask' }), {
      label: 'longTask',
      description: 'working: step 2 of 5',
    });
    assert.deepEqual(taskItemText({ taskId: 'evil\u202Eid', status: 'cancelled' }), { label: 'evil\\u202Eid', description: 'cancelled' });
    const parts = taskTooltip({
      taskId: BREAKOUT,
      status: 'failed',
      statusMessage: BREAKOUT,
      error: BREAKOUT,
      toolName: BREAKOUT,
      createdAt: BREAKOUT,
      lastUpdatedAt: BREAKOUT,
      pollIntervalMs: 100,
    });
    assert.deepEqual(liveMarkup(parts), []);
  });
});

describe('server state in the tree description', () => {
  const words = { stopped: 'stopped', starting: 'starting…', error: 'error', needsAuth: 'sign-in required' };

  it('shows the first sentence of why, in its own case', () => {
    const message = '"uvx" not found on PATH. Install uv or set "command" to its full path.';
    assert.equal(stateSummary({ kind: 'error', message, detail: 'PATH searched:\n/usr/bin' }, words), 'error: "uvx" not found on PATH.');
    assert.equal(
      stateSummary(
        { kind: 'error', message: '"comand" is not a known key: did you mean "command"? Without "command" server "x" cannot start. (.vscode/mcp.json)' },
        words,
      ),
      'error: "comand" is not a known key: did you mean "command"?',
    );
    assert.equal(stateSummary({ kind: 'stopped', reason: 'disabled in config' }, words), 'stopped: disabled in config');
    assert.equal(stateSummary({ kind: 'stopped' }, words), 'stopped');
    assert.equal(stateSummary({ kind: 'starting' }, words), 'starting…');
  });

  it('never runs over one line or 90 characters', () => {
    assert.equal(firstSentence('line one\nline two'), 'line one');
    const long = firstSentence(`Cannot start: ${'x'.repeat(200)}`);
    assert.equal(long.length, 90);
    assert.ok(long.endsWith('…'));
    assert.equal(firstSentence('Version 1.2.3 failed. Then more.'), 'Version 1.2.3 failed.');
    assert.equal(oneLine('first\r\nsecond'), 'first');
    assert.equal(oneLine('x'.repeat(300)).length, 240);
  });
});
