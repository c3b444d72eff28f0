/**
 * Completion and checks of saved tests (`*.mcptest.json`) from the servers the extension knows:
 * the pure logic (common/testFileLanguage.ts) on catalogs built the way the extension builds
 * them (catalogServer, from lists shaped as the MCP SDK returns them), and the language
 * server's TestFileService around it.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { DiagnosticSeverity, InsertTextFormat, type TextEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { catalogServer, resolveCatalogServer } from '../../../src/configLanguage/common/serverCatalog';
import { checkTestFile, completeTestFile, TestDiagnosticCode, type TestFileContext } from '../../../src/configLanguage/common/testFileLanguage';
import { loadSchema } from '../../../src/configLanguage/server/schemaService';
import { TestFileService } from '../../../src/configLanguage/server/testFileService';

const TOOLS = [
  {
    name: 'echo',
    title: 'Echo',
    description: 'Echoes the text back',
    inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'Text to echo' } }, required: ['text'] },
  },
  {
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  },
  { name: 'log', inputSchema: { type: 'object', properties: { level: { type: 'string', enum: ['info', 'error'] }, message: { type: ['string', 'null'] } } } },
];
const PROMPTS = [{ name: 'greeting', description: 'Says hello', arguments: [{ name: 'name', required: true }, { name: 'tone' }] }];
const RESOURCES = [{ uri: 'fixture://readme', name: 'README', mimeType: 'text/markdown' }];

const fixture = catalogServer(
  { name: 'fixture', source: { scope: 'workspace', label: '.vscode/mcp.json', folder: 'folder-a' } },
  { tools: TOOLS, prompts: PROMPTS, resources: RESOURCES },
);
/** Configured, never listed: nothing is completed or checked for it. */
const unlisted = catalogServer({ name: 'unlisted', source: { scope: 'workspace', label: '.mcp.json', folder: 'folder-a' } }, {});
const userServer = catalogServer({ name: 'user-server', source: { scope: 'user', label: 'Settings (mcpWorkbench.servers)' } }, { tools: [] });
const CTX: TestFileContext = { servers: [fixture, unlisted, userServer], folder: 'folder-a' };

/** The text with `|` removed, and the cursor's offset. */
function cursor(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf('|');
  assert.ok(offset >= 0, 'no | in the text');
  return { text: marked.slice(0, offset) + marked.slice(offset + 1), offset };
}
function complete(marked: string, ctx = CTX) {
  const { text, offset } = cursor(marked);
  return completeTestFile(text, offset, ctx);
}
function labels(marked: string, ctx = CTX): string[] {
  return complete(marked, ctx).map((c) => c.label);
}
const step = (s: string, server = 'fixture') => `{ "server": "${server}", "tests": [{ "name": "t", "steps": [${s}] }] }`;

describe('saved tests in the config language server: completion', () => {
  it('completes the server name from every configured server, each once, saying where it is', () => {
    const items = complete('{ "server": "|" }');
    assert.deepEqual(
      items.map((i) => [i.label, i.detail]),
      [
        ['fixture', 'folder-a: .vscode/mcp.json'],
        ['unlisted', 'folder-a: .mcp.json'],
        ['user-server', 'Settings (mcpWorkbench.servers)'],
      ],
    );
    // The string typed so far is replaced, quotes and all.
    const { text } = cursor('{ "server": "fi|" }');
    assert.deepEqual(
      [items[0].insertText, text.slice(complete('{ "server": "fi|" }')[0].start, complete('{ "server": "fi|" }')[0].end)],
      ['"fixture"', '"fi"'],
    );
    // With nothing typed yet the name is inserted at the cursor, quoted.
    const bare = complete('{ "server": | }');
    assert.equal(bare[0].insertText, '"fixture"');
    assert.equal(bare[0].start, bare[0].end);
    const twice = { servers: [fixture, { ...fixture, folder: 'folder-b', where: 'folder-b: .mcp.json' }] };
    assert.deepEqual(
      complete('{ "server": "|" }', twice).map((i) => [i.label, i.detail]),
      [['fixture', 'folder-a: .vscode/mcp.json, folder-b: .mcp.json']],
    );
  });

  it('completes the tools of the named server in a callTool step, with title and description', () => {
    const items = complete(step('{ "callTool": { "name": "|" } }'));
    assert.deepEqual(
      items.map((i) => [i.label, i.detail, i.documentation]),
      [
        ['echo', 'Echo', 'Echoes the text back'],
        ['add', undefined, 'Adds two numbers'],
        ['log', undefined, undefined],
      ],
    );
  });

  it('offers nothing for a server never listed, before the extension sent its servers, or for an inline launch', () => {
    assert.deepEqual(labels(step('{ "callTool": { "name": "|" } }', 'unlisted')), []);
    assert.deepEqual(labels(step('{ "callTool": { "name": "|" } }', 'nowhere')), []);
    assert.deepEqual(labels('{ "server": "|" }', { servers: undefined }), []);
    assert.deepEqual(labels(step('{ "callTool": { "name": "|" } }'), { servers: undefined }), []);
    assert.deepEqual(labels('{ "server": { "command": "node" }, "tests": [{ "name": "t", "steps": [{ "callTool": { "name": "|" } }] }] }'), []);
  });

  it("completes a tool's argument names not given yet, with type and description, as key and value to fill in", () => {
    const items = complete(step('{ "callTool": { "name": "echo", "arguments": { | } } }'));
    assert.deepEqual(
      items.map((i) => [i.label, i.detail, i.documentation, i.insertText, i.snippet]),
      [['text', 'string, required', 'Text to echo', '"text": "$1"', true]],
    );
    assert.deepEqual(labels(step('{ "callTool": { "name": "add", "arguments": { "a": 1, | } } }')), ['b']);
    const log = complete(step('{ "callTool": { "name": "log", "arguments": { "|" } } }'));
    assert.deepEqual(
      log.map((i) => [i.label, i.detail, i.insertText]),
      [
        ['level', 'string', '"level": ${1:"info"}'],
        ['message', 'string | null', '"message": $1'],
      ],
    );
    // A key typed before its colon gets only the key; one followed by another property a comma.
    assert.equal(complete(step('{ "callTool": { "name": "add", "arguments": { "|": 1 } } }'))[0].insertText, '"a"');
    assert.equal(complete(step('{ "callTool": { "name": "add", "arguments": { | "b": 1 } } }'))[0].insertText, '"a": ${1:0},');
  });

  it('completes enum values of an argument', () => {
    assert.deepEqual(labels(step('{ "callTool": { "name": "log", "arguments": { "level": "|" } } }')), ['"info"', '"error"']);
  });

  it('completes prompt names and their arguments, and resource URIs', () => {
    assert.deepEqual(labels(step('{ "getPrompt": { "name": "|" } }')), ['greeting']);
    assert.deepEqual(
      complete(step('{ "getPrompt": { "name": "greeting", "arguments": { | } } }')).map((i) => [i.label, i.detail]),
      [
        ['name', 'string, required'],
        ['tone', 'string'],
      ],
    );
    assert.deepEqual(
      complete(step('{ "readResource": { "uri": "|" } }')).map((i) => [i.label, i.detail]),
      [['fixture://readme', 'README']],
    );
  });

  it('leaves keys, shapes and `list` values to the schema', () => {
    assert.deepEqual(labels(step('{ "|" }')), []);
    assert.deepEqual(labels(step('{ "list": "|" }')), []);
    assert.deepEqual(labels(step('{ "callTool": { "|" } }')), []);
  });
});

describe('saved tests in the config language server: checks', () => {
  const check = (text: string, ctx = CTX) => checkTestFile(text, ctx).map((d) => [d.code, d.severity, d.message, text.slice(d.start, d.end)]);

  it('an unknown server is an error on the name, with the configured names', () => {
    assert.deepEqual(check('{ "server": "fixtur", "tests": [] }'), [
      [
        TestDiagnosticCode.serverUnknown,
        'error',
        'No server "fixtur" is configured in this workspace; configured: fixture, unlisted, user-server.',
        '"fixtur"',
      ],
    ]);
    assert.deepEqual(check('{ "server": "x", "tests": [] }', { servers: [] }), [
      [
        TestDiagnosticCode.serverUnknown,
        'error',
        'No server "x" is configured in this workspace: add it to .vscode/mcp.json or .mcp.json, or launch one inline.',
        '"x"',
      ],
    ]);
  });

  it('says nothing before the extension sent its servers, for an inline launch, or an empty name (the schema says that)', () => {
    assert.deepEqual(check('{ "server": "x", "tests": [] }', { servers: undefined }), []);
    assert.deepEqual(check('{ "server": { "command": "node" }, "tests": [] }'), []);
    assert.deepEqual(check('{ "server": "", "tests": [] }'), []);
  });

  it('an unknown tool of a listed server is a warning with its tools; of a server never listed, nothing', () => {
    assert.deepEqual(check(step('{ "callTool": { "name": "ad", "arguments": { "a": 1 } } }')), [
      [TestDiagnosticCode.toolUnknown, 'warning', 'Server "fixture" had no tool "ad" when last listed; its tools: echo, add, log.', '"ad"'],
    ]);
    assert.deepEqual(check(step('{ "callTool": { "name": "ad" } }', 'unlisted')), []);
    assert.deepEqual(check(step('{ "callTool": { "name": "x" } }', 'user-server')), [
      [TestDiagnosticCode.toolUnknown, 'warning', 'Server "user-server" had no tools when last listed, so it has no tool "x".', '"x"'],
    ]);
  });

  it('lists at most ten tool names, then how many there are', () => {
    const many = catalogServer(
      { name: 'many', source: { scope: 'user', label: 'Settings' } },
      { tools: Array.from({ length: 12 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } })) },
    );
    assert.deepEqual(
      check(step('{ "callTool": { "name": "x" } }', 'many'), { servers: [many] }).map((d) => d[2]),
      ['Server "many" had no tool "x" when last listed; its tools: t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, … (12 in all).'],
    );
  });

  it('an argument the inputSchema does not allow, and a required one missing, are warnings', () => {
    assert.deepEqual(check(step('{ "callTool": { "name": "add", "arguments": { "a": 1, "c": 2 } } }')), [
      [TestDiagnosticCode.argumentUnknown, 'warning', 'Tool "add" takes no argument "c" (its inputSchema allows no others); it takes: a, b.', '"c"'],
      [TestDiagnosticCode.argumentMissing, 'warning', 'Tool "add" needs the argument "b", which this step does not give.', '"arguments"'],
    ]);
    // Without "additionalProperties": false any other argument may be fine.
    assert.deepEqual(check(step('{ "callTool": { "name": "echo", "arguments": { "text": "hi", "extra": 1 } } }')), []);
    // No arguments at all: the tool name carries it.
    assert.deepEqual(
      check(step('{ "callTool": { "name": "echo" } }')).map((d) => d[3]),
      ['"echo"'],
    );
  });

  it('an unknown prompt, and a required prompt argument missing, are warnings', () => {
    assert.deepEqual(check(step('{ "getPrompt": { "name": "greting" } }, { "getPrompt": { "name": "greeting", "arguments": { "tone": "warm" } } }')), [
      [TestDiagnosticCode.promptUnknown, 'warning', 'Server "fixture" had no prompt "greting" when last listed; its prompts: greeting.', '"greting"'],
      [TestDiagnosticCode.argumentMissing, 'warning', 'Prompt "greeting" needs the argument "name", which this step does not give.', '"arguments"'],
    ]);
  });

  it('every message is one line', () => {
    const text = step('{ "callTool": { "name": "add", "arguments": { "c": 2 } } }, { "callTool": { "name": "nope" } }, { "getPrompt": { "name": "nope" } }');
    const found = checkTestFile(text, CTX);
    assert.equal(found.length, 5);
    for (const d of found) assert.doesNotMatch(d.message, /\n/);
  });
});

describe('saved tests: the server a name means', () => {
  const inA = catalogServer({ name: 's', source: { scope: 'workspace', label: '.mcp.json', folder: 'a' } }, {});
  const inB = catalogServer({ name: 's', source: { scope: 'workspace', label: '.mcp.json', folder: 'b' } }, {});
  const user = catalogServer({ name: 's', source: { scope: 'user', label: 'Settings' } }, {});
  it("the file's own folder's first, then a user-level one, then the first (as the Testing view's run picks it)", () => {
    assert.equal(resolveCatalogServer([inA, inB, user], 's', 'b'), inB);
    assert.equal(resolveCatalogServer([inA, user], 's', 'c'), user);
    assert.equal(resolveCatalogServer([inA, inB], 's', undefined), inA);
    assert.equal(resolveCatalogServer([inA], 't', 'a'), undefined);
  });
  it('keeps of each tool only what completion and checks use', () => {
    assert.deepEqual(fixture.tools?.[1], {
      name: 'add',
      description: 'Adds two numbers',
      arguments: [
        { name: 'a', type: 'number' },
        { name: 'b', type: 'number' },
      ],
      required: ['a', 'b'],
      closed: true,
    });
    assert.equal(unlisted.tools, undefined);
  });
});

describe('saved tests: TestFileService (the LSP side)', () => {
  const SCHEMA = path.resolve(__dirname, '../../../../schemas/mcp-test.schema.json');
  const service = new TestFileService(loadSchema(SCHEMA));
  const doc = (text: string) => TextDocument.create('file:///ws/folder-a/t.mcptest.json', 'json', 1, text);

  it('turns completions into snippet edits over the typed string', async () => {
    const { text, offset } = cursor(step('{ "callTool": { "name": "add", "arguments": { | } } }'));
    const d = doc(text);
    const [a] = await service.completions(d, d.positionAt(offset), CTX, true);
    assert.equal(a.insertTextFormat, InsertTextFormat.Snippet);
    assert.equal((a.textEdit as TextEdit).newText, '"a": ${1:0}');
  });

  it('with VS Code validating against the schema, only its own diagnostics; without, the schema too, once each', async () => {
    const text = '{ "$schema": "../schemas/mcp-test.schema.json", "server": "nope", "tests": [], "extra": 1 }';
    const hosted = await service.diagnostics(doc(text), CTX, true);
    assert.deepEqual(
      hosted.map((d) => [d.code, d.severity]),
      [[TestDiagnosticCode.serverUnknown, DiagnosticSeverity.Error]],
    );
    const alone = await service.diagnostics(doc(text), CTX, false);
    assert.deepEqual(
      alone.map((d) => d.code),
      [TestDiagnosticCode.serverUnknown, 'mcp.schema'],
      // `$schema` names the schema by a path: it is answered from memory, not reported as unloadable.
      alone.map((d) => d.message).join(' | '),
    );
    assert.match(String(alone[1].message), /extra/);
  });

  it('without VS Code, key completion comes from the schema', async () => {
    const { text, offset } = cursor(step('{ "callTool": { "name": "add" }, "|" }'));
    const d = doc(text);
    const keys = (await service.completions(d, d.positionAt(offset), CTX, false)).map((i) => i.label);
    assert.ok(keys.includes('expect'), keys.join(', '));
  });
});
