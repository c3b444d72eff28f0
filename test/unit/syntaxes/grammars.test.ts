/**
 * Snapshot tests of the injection grammars in syntaxes/, tokenized with the engine VS Code
 * uses (vscode-textmate + oniguruma). The host grammars are minimal stand-ins with the scopes
 * VS Code's own JSON and Log grammars give strings and log lines.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';

const ROOT = path.resolve(__dirname, '../../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  contributes: { grammars: { scopeName: string; path: string; injectTo?: string[] }[] };
};

const HOST_GRAMMARS: Record<string, unknown> = {
  'source.json': {
    scopeName: 'source.json',
    patterns: [
      { match: '("[^"]*")\\s*(?=:)', captures: { 1: { name: 'support.type.property-name.json' } } },
      { begin: '"', end: '"', name: 'string.quoted.double.json', patterns: [{ match: '\\\\.', name: 'constant.character.escape.json' }] },
    ],
  },
  'text.log': {
    scopeName: 'text.log',
    patterns: [
      { match: '\\b\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\b', name: 'log.date' },
      { match: '\\[(info|trace|debug)\\]', name: 'log.info' },
    ],
  },
};

let registry: textmate.Registry;

before(async () => {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const contributed = new Map(manifest.contributes.grammars.filter((g) => g.scopeName.startsWith('mcp-workbench.')).map((g) => [g.scopeName, g]));
  registry = new textmate.Registry({
    onigLib: Promise.resolve({ createOnigScanner: (s) => new oniguruma.OnigScanner(s), createOnigString: (s) => new oniguruma.OnigString(s) }),
    loadGrammar: async (scopeName) => {
      const own = contributed.get(scopeName);
      if (own) return textmate.parseRawGrammar(fs.readFileSync(path.join(ROOT, own.path), 'utf8'), own.path);
      return (HOST_GRAMMARS[scopeName] as textmate.IRawGrammar | undefined) ?? null;
    },
    getInjections: (scopeName) => [...contributed.values()].filter((g) => g.injectTo?.includes(scopeName)).map((g) => g.scopeName),
  });
});

/** Each token as `text: last scope` (the scope that decides the colour), skipping plain text. */
async function tokens(scope: string, line: string): Promise<string[]> {
  const grammar = await registry.loadGrammar(scope);
  const { tokens: result } = grammar!.tokenizeLine(line, textmate.INITIAL);
  return result
    .map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scope: t.scopes[t.scopes.length - 1] }))
    .filter((t) => t.scope !== scope && t.text.trim() !== '')
    .map((t) => `${t.text}: ${t.scope}`);
}

describe('syntaxes: config variables in JSON strings', () => {
  it('highlights ${workspaceFolder}, ${env:…} and ${input:…} inside values', async () => {
    assert.deepEqual(await tokens('source.json', '"args": ["${workspaceFolder}/s.js", "${env:HOME}", "Bearer ${input:tok}"]'), [
      '"args": support.type.property-name.json',
      '": string.quoted.double.json',
      '${: punctuation.definition.variable.begin.mcp',
      'workspaceFolder: variable.language.mcp',
      '}: punctuation.definition.variable.end.mcp',
      '/s.js: string.quoted.double.json',
      '": string.quoted.double.json',
      '": string.quoted.double.json',
      '${: punctuation.definition.variable.begin.mcp',
      'env: keyword.other.variable-kind.mcp',
      ':: punctuation.separator.colon.mcp',
      'HOME: variable.other.env.mcp',
      '}: punctuation.definition.variable.end.mcp',
      '": string.quoted.double.json',
      '": string.quoted.double.json',
      'Bearer : string.quoted.double.json',
      '${: punctuation.definition.variable.begin.mcp',
      'input: keyword.other.variable-kind.mcp',
      ':: punctuation.separator.colon.mcp',
      'tok: variable.parameter.input.mcp',
      '}: punctuation.definition.variable.end.mcp',
      '": string.quoted.double.json',
    ]);
  });

  it('marks unknown variables and leaves keys alone', async () => {
    assert.deepEqual(await tokens('source.json', '"${userHome}": "${nope}"'), [
      '"${userHome}": support.type.property-name.json',
      '": string.quoted.double.json',
      '${: punctuation.definition.variable.begin.mcp',
      'nope: invalid.illegal.unknown-variable.mcp',
      '}: punctuation.definition.variable.end.mcp',
      '": string.quoted.double.json',
    ]);
  });
});

describe('syntaxes: protocol trace lines in server logs', () => {
  it('a request', async () => {
    assert.deepEqual(await tokens('text.log', '2025-01-02 10:11:12.123 [info] [weather] → request tools/call #3'), [
      '2025-01-02 10:11:12.123: log.date',
      '[info]: log.info',
      '[: punctuation.definition.server.begin.mcp',
      'weather: entity.name.tag.server.mcp',
      ']: punctuation.definition.server.end.mcp',
      '→: keyword.operator.direction.send.mcp',
      'request: keyword.other.kind.mcp',
      'tools/call: entity.name.function.method.mcp',
      '#: punctuation.definition.id.mcp',
      '3: constant.numeric.id.mcp',
    ]);
  });

  it('a response with latency', async () => {
    assert.deepEqual(await tokens('text.log', '[weather] ← response tools/call #3 (12 ms)'), [
      '[: punctuation.definition.server.begin.mcp',
      'weather: entity.name.tag.server.mcp',
      ']: punctuation.definition.server.end.mcp',
      '←: keyword.operator.direction.receive.mcp',
      'response: keyword.other.kind.mcp',
      'tools/call: entity.name.function.method.mcp',
      '#: punctuation.definition.id.mcp',
      '3: constant.numeric.id.mcp',
      '(: punctuation.definition.latency.begin.mcp',
      '12: constant.numeric.latency.mcp',
      'ms: keyword.other.unit.mcp',
      '): punctuation.definition.latency.end.mcp',
    ]);
  });

  it('an error with code and message', async () => {
    assert.deepEqual(await tokens('text.log', '[weather] ← error tools/call #3 (5 ms): -32602 Invalid params'), [
      '[: punctuation.definition.server.begin.mcp',
      'weather: entity.name.tag.server.mcp',
      ']: punctuation.definition.server.end.mcp',
      '←: keyword.operator.direction.receive.mcp',
      'error: invalid.illegal.error.mcp',
      'tools/call: entity.name.function.method.mcp',
      '#: punctuation.definition.id.mcp',
      '3: constant.numeric.id.mcp',
      '(: punctuation.definition.latency.begin.mcp',
      '5: constant.numeric.latency.mcp',
      'ms: keyword.other.unit.mcp',
      '): punctuation.definition.latency.end.mcp',
      ':: punctuation.separator.error.mcp',
      '-32602: invalid.illegal.error-code.mcp',
      'Invalid params: string.unquoted.error-message.mcp',
    ]);
  });

  it('a notification, and ordinary log lines untouched', async () => {
    assert.deepEqual(await tokens('text.log', '[weather] → notification notifications/cancelled'), [
      '[: punctuation.definition.server.begin.mcp',
      'weather: entity.name.tag.server.mcp',
      ']: punctuation.definition.server.end.mcp',
      '→: keyword.operator.direction.send.mcp',
      'notification: keyword.other.kind.mcp',
      'notifications/cancelled: entity.name.function.method.mcp',
    ]);
    assert.deepEqual(await tokens('text.log', '[weather] started in 12 ms'), []);
  });
});
