/**
 * MCP Workbench's own keys for VS Code's `mcp.json`: read from `mcp-workbench.json` beside it (the
 * new place, which VS Code's schema does not judge) and still from `mcp.json` itself (the old
 * spelling), and moved from the one to the other keeping both files' formatting.
 */
import * as assert from 'node:assert/strict';
import * as jsonc from 'jsonc-parser';
import { parseConfigText } from '../../../../src/config/common/serverConfig';
import { parseWorkbenchFile, withWorkbenchFile } from '../../../../src/config/common/ownKeys/workbenchFile';
import { moveToWorkbenchFile, ownKeysInMcpJson, singleChange } from '../../../../src/config/common/ownKeys/moveToWorkbenchFile';
import { buildDefinitions } from '../../../../src/config/common/definitionBuilder';
import { DEFAULT_TIMEOUTS } from '../../../../src/config/common/serverConfig';

const MCP = `{
  // Servers of this folder
  "servers": {
    "weather": { "command": "node", "args": ["weather.js"] },
    "remote": { "url": "https://mcp.example.com/mcp" }
  }
}
`;

const BESIDE = `{
  "servers": {
    "weather": {
      "sampling": { "mock": "happy" },
      "includeTools": ["forecast"],
      "excludeTools": ["delete"],
      "timeouts": { "request": 120 },
      "protocolEra": "legacy",
      "disabled": true
    }
  },
  "samplingMocks": { "happy": { "replies": ["Sunny."] } }
}
`;

function read(mcp: string, beside?: string) {
  const parsed = parseConfigText(mcp, 'vscode');
  return beside === undefined ? { parsed, problems: [] } : withWorkbenchFile(parsed, parseWorkbenchFile(beside));
}

function apply(text: string, change: { offset: number; length: number; content: string }): string {
  return text.slice(0, change.offset) + change.content + text.slice(change.offset + change.length);
}

describe('Own keys beside mcp.json (mcp-workbench.json)', () => {
  it('reads every own key of a server from the file beside, with no problem', () => {
    const { parsed, problems } = read(MCP, BESIDE);
    assert.deepEqual(problems, []);
    const entry = parsed.servers.find((s) => s.name === 'weather')!.entry;
    assert.deepEqual(entry.sampling, { mock: 'happy' });
    assert.deepEqual(entry.toolLists, { include: ['forecast'], exclude: ['delete'] });
    assert.deepEqual(entry.timeouts, { request: 120 });
    assert.equal(entry.protocolEra, 'legacy');
    assert.equal(entry.disabled, true);
    assert.equal(entry.command, 'node');
    assert.deepEqual(
      parsed.samplingMocks?.map((p) => p.name),
      ['happy'],
    );
    // The definition uses the profile of the file beside.
    const [def] = buildDefinitions(
      [{ source: { scope: 'workspace', label: '.vscode/mcp.json', file: '/w/.vscode/mcp.json', folder: 'w' }, parsed, text: MCP, folderPath: '/w' }],
      { workspaceFolders: [{ name: 'w', path: '/w' }], userHome: '/h', env: {}, defaultTimeouts: DEFAULT_TIMEOUTS, inputValue: () => undefined },
    );
    assert.equal(def.samplingMock?.name, 'happy');
    assert.equal(def.samplingMock?.problem, undefined);
  });

  it('still reads the old spelling in mcp.json itself; the file beside wins a key both set, and excludeTools lists add up', () => {
    const old = JSON.stringify({
      servers: { weather: { command: 'node', sampling: { mock: 'inline' }, includeTools: ['a'], excludeTools: ['x'], timeouts: { connect: 5 } } },
      samplingMocks: { inline: { replies: ['Rain.'] }, happy: { replies: ['old'] } },
    });
    const alone = read(old).parsed.servers[0].entry;
    assert.deepEqual(alone.sampling, { mock: 'inline' });
    assert.deepEqual(alone.toolLists, { include: ['a'], exclude: ['x'] });
    assert.deepEqual(alone.timeouts, { connect: 5 });

    const { parsed } = read(old, BESIDE);
    const entry = parsed.servers[0].entry;
    assert.deepEqual(entry.sampling, { mock: 'happy' });
    assert.deepEqual(entry.toolLists, { include: ['forecast'], exclude: ['delete', 'x'] });
    assert.deepEqual(entry.timeouts, { request: 120 });
    const happy = parsed.samplingMocks?.find((p) => p.name === 'happy');
    assert.deepEqual(happy?.replies, [{ text: 'Sunny.' }]);
    assert.ok(
      parsed.samplingMocks?.some((p) => p.name === 'inline'),
      'an inline profile the file beside does not define is kept',
    );
  });

  it('reports a server the file beside names but mcp.json does not define, keys that are not ours, and bad values, at their place', () => {
    const beside = `{ "servers": { "wether": { "includeTools": ["a"] }, "weather": { "command": "x", "timeouts": 5 } }, "extra": 1 }`;
    const { problems } = read(MCP, beside);
    const where = (p: { offset: number; length: number }) => beside.slice(p.offset, p.offset + p.length);
    assert.deepEqual(
      problems.map((p) => [p.severity, where(p)]),
      [
        ['warning', '"command"'],
        ['error', '5'],
        ['warning', '"extra"'],
        ['warning', '"wether"'],
      ],
    );
    assert.match(problems[3].message, /No server "wether" is defined in mcp\.json/);
  });

  it('finds the own keys written in mcp.json, and nothing in a file without them', () => {
    const old = `{ "servers": { "a": { "command": "x", "sampling": {}, "cwd": "." }, "b": { "url": "u", "excludeTools": [] } }, "samplingMocks": {} }`;
    assert.deepEqual(
      ownKeysInMcpJson(jsonc.parseTree(old)).map((p) => [p.server, p.key]),
      [
        ['a', 'sampling'],
        ['b', 'excludeTools'],
        [undefined, 'samplingMocks'],
      ],
    );
    assert.deepEqual(ownKeysInMcpJson(jsonc.parseTree(MCP)), []);
  });

  it('moves keys into a new file beside, keeping the comments and indentation of mcp.json', () => {
    const old = `{
    // keep me
    "servers": {
        "weather": {
            "command": "node",
            "sampling": { "mock": "happy" },
            "includeTools": ["forecast"]
        }
    },
    "samplingMocks": { "happy": { "replies": ["Sunny."] } }
}
`;
    const places = ownKeysInMcpJson(jsonc.parseTree(old));
    const result = moveToWorkbenchFile(old, undefined, places);
    const mcp = apply(old, result.mcpJson);
    assert.match(mcp, /\/\/ keep me/);
    assert.deepEqual(JSON.parse(jsonc.stripComments(mcp)), { servers: { weather: { command: 'node' } } });
    assert.ok(result.workbenchFileChanged);
    assert.deepEqual(JSON.parse(result.workbenchFile), {
      servers: { weather: { sampling: { mock: 'happy' }, includeTools: ['forecast'] } },
      samplingMocks: { happy: { replies: ['Sunny.'] } },
    });
    assert.match(result.workbenchFile, /\n {4}"servers"/, 'indented like mcp.json');
    // Read back, the server has the same settings as before the move.
    assert.deepEqual(read(mcp, result.workbenchFile).parsed.servers[0].entry, read(old).parsed.servers[0].entry);
  });

  it('moves into an existing file beside without overwriting what it sets, joining excludeTools', () => {
    const old = JSON.stringify(
      { servers: { weather: { command: 'node', sampling: { mock: 'old' }, excludeTools: ['x', 'delete'], protocolEra: 'modern' } } },
      null,
      2,
    );
    const places = ownKeysInMcpJson(jsonc.parseTree(old));
    const result = moveToWorkbenchFile(old, BESIDE, places);
    const after = JSON.parse(result.workbenchFile) as { servers: { weather: Record<string, unknown> } };
    assert.deepEqual(after.servers.weather.sampling, { mock: 'happy' }, 'the value in effect stays');
    assert.deepEqual(after.servers.weather.excludeTools, ['delete', 'x']);
    assert.equal(after.servers.weather.protocolEra, 'legacy');
    assert.deepEqual(result.alreadySet, [
      { server: 'weather', key: 'sampling' },
      { server: 'weather', key: 'protocolEra' },
    ]);
    assert.deepEqual(JSON.parse(apply(old, result.mcpJson)), { servers: { weather: { command: 'node' } } });
    // What is in effect does not change.
    assert.deepEqual(read(apply(old, result.mcpJson), result.workbenchFile).parsed.servers[0].entry, read(old, BESIDE).parsed.servers[0].entry);
  });

  it('moves one key alone when asked for one', () => {
    const old = `{"servers":{"a":{"command":"x","disabled":true,"timeouts":{"connect":1}}}}`;
    const result = moveToWorkbenchFile(old, '', [{ server: 'a', key: 'timeouts' }]);
    assert.deepEqual(JSON.parse(apply(old, result.mcpJson)), { servers: { a: { command: 'x', disabled: true } } });
    assert.deepEqual(JSON.parse(result.workbenchFile), { servers: { a: { timeouts: { connect: 1 } } } });
  });

  it('singleChange is the smallest replacement between two texts', () => {
    assert.deepEqual(singleChange('abcdef', 'abXYef'), { offset: 2, length: 2, content: 'XY' });
    assert.deepEqual(singleChange('same', 'same'), { offset: 4, length: 0, content: '' });
    assert.deepEqual(singleChange('aaa', 'aa'), { offset: 2, length: 1, content: '' });
  });
});
