import * as assert from 'node:assert/strict';
import type { Hover, MarkupContent } from 'vscode-languageserver';
import { DiagnosticSeverity } from 'vscode-languageserver';
import { DiagnosticCode } from '../../../src/configLanguage/server/diagnosticCodes';
import { at, context, doc, service, WORKSPACE } from './languageTestKit';

const FILE = `{
  "servers": {
    "weather": { "command": "node", "sampling": { "mock": "sunny" } },
    "typo": { "command": "node", "sampling": { "mock": "suny" } },
    "other": { "command": "node", "sampling": { "mock": "nowhere" } },
    "inline": { "command": "node", "sampling": { "mock": { "reply": "ok" } } }
  },
  "samplingMocks": {
    "sunny": { "description": "Always *sunny*", "model": "mock-sun", "rules": [{ "match": "weather", "reply": "Sunny." }], "replies": ["a", "b"] },
    "rainy": { "reply": "Rain." }
  }
}`;

function hoverText(hover: Hover | null): string {
  return hover ? (hover.contents as MarkupContent).value : '';
}

describe('config language server: sampling mock profiles', () => {
  it('an unknown profile name is an error on the name, with the close one suggested', async () => {
    const found = (await service().diagnostics(doc(FILE), context())).filter((d) => d.code === DiagnosticCode.samplingMockUnknown);
    assert.deepEqual(
      found.map((d) => [d.range.start.line, d.severity, d.message]),
      [
        [
          3,
          DiagnosticSeverity.Error,
          'No sampling mock profile "suny" is defined in "samplingMocks" of this file; did you mean "sunny"? Until it is, the server\'s sampling requests show this problem instead of a reply.',
        ],
        [
          4,
          DiagnosticSeverity.Error,
          'No sampling mock profile "nowhere" is defined in "samplingMocks" of this file (defined: "sunny", "rainy"). Until it is, the server\'s sampling requests show this problem instead of a reply.',
        ],
      ],
    );
  });

  it("the schema validates profiles when VS Code's JSON features are off", async () => {
    // The parser reports most mistakes itself (and the schema's are then not repeated); a tool call's id is the schema's alone.
    const d = doc(`{
  "servers": { "s": { "command": "node", "sampling": { "mock": "p" } } },
  "samplingMocks": { "p": { "rules": [{ "match": "a", "reply": { "toolUse": { "name": "t", "id": 5 } } }] } }
}`);
    const all = await service().diagnostics(d, context({ hostProvidesJsonSchema: false }));
    const schema = all.filter((x) => x.code === DiagnosticCode.schema);
    assert.deepEqual(
      schema.map((x) => x.range.start.line),
      [2],
      JSON.stringify(all),
    );
    assert.match(String(schema[0].message), /string/i);
  });

  it('completes profile names in "mock" and the key itself from the schema', async () => {
    const d = doc(
      `{ "servers": { "s": { "command": "node", "sampling": { "mock": "" } } }, "samplingMocks": { "happy": { "description": "The happy path", "reply": "ok" }, "sad": { "reply": "no" } } }`,
    );
    const names = await service().completions(d, at(d, '"mock": ""', 9), context());
    assert.deepEqual(
      names.map((i) => [i.label, i.detail, i.documentation]),
      [
        ['happy', 'sampling mock profile', 'The happy path'],
        ['sad', 'sampling mock profile', undefined],
      ],
    );
    assert.equal((names[0].textEdit as { newText: string }).newText, '"happy"');
    // The key is offered where it belongs: not in .vscode/mcp.json (its place is .vscode/mcp-workbench.json), in .mcp.json.
    const vscodeKeys = doc(`{ "servers": { "s": { "command": "node", "" } } }`);
    const notOffered = await service().completions(vscodeKeys, at(vscodeKeys, '""', 1), context({ hostProvidesJsonSchema: false }));
    assert.ok(!notOffered.some((i) => i.label === 'sampling'));
    const keys = doc(`{ "mcpServers": { "s": { "command": "node", "" } } }`, `${WORKSPACE}/.mcp.json`);
    const items = await service().completions(keys, at(keys, '""', 1), context({ hostProvidesJsonSchema: false }));
    assert.ok(
      items.some((i) => i.label === 'sampling'),
      items.map((i) => i.label).join(),
    );
  });

  it('hovering the name shows what the profile does, file text escaped', async () => {
    const d = doc(FILE);
    const text = hoverText(await service().hover(d, at(d, '"sunny" }', 2), context()));
    assert.match(text, /\*\*Sampling mock profile `sunny`\*\*: answers this server's sampling requests instead of a model/);
    assert.match(text, /Always \\\*sunny\\\*/);
    assert.match(text, /1 rule \(tried first, on the last user message\), 2 replies in turn; model `mock-sun`/);
    assert.match(hoverText(await service().hover(d, at(d, '"nowhere"', 2), context())), /not defined in `samplingMocks`/);
  });
});
