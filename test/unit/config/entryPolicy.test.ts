/**
 * VS Code's sandbox keys in a config file: `sandboxEnabled` on a stdio entry, `sandbox` at the
 * file's top level (VS Code's place) or in the entry (its older builds' place), and how their
 * paths become absolute in the launch. Shapes from microsoft/vscode mcpPlatformTypes.ts.
 */
import * as assert from 'node:assert/strict';
import { parseConfigText } from '../../../src/config/common/serverConfig';
import { buildDefinitions, type BuildContext } from '../../../src/config/common/definitionBuilder';
import { DEFAULT_TIMEOUTS } from '../../../src/config/common/serverConfig';
import { launchKey, type StdioLaunch } from '../../../src/config/common/launchDefinition';
import { SERVER_ENTRY_KEYS } from '../../../src/config/common/keySuggestions';
import { toolHiddenByConfig } from '../../../src/config/common/entryPolicy';
import { parseCopilotConfig } from '../../../src/config/common/discoverySources';

const ctx: BuildContext = {
  workspaceFolders: [{ name: 'app', path: '/work/app' }],
  userHome: '/home/u',
  env: { OUT: '/var/out' },
  defaultTimeouts: DEFAULT_TIMEOUTS,
  inputValue: () => undefined,
};

function launchOf(text: string): StdioLaunch {
  const parsed = parseConfigText(text);
  const defs = buildDefinitions(
    [{ source: { scope: 'workspace', label: '.vscode/mcp.json', file: '/work/app/.vscode/mcp.json', folder: 'app' }, parsed, text, folderPath: '/work/app' }],
    ctx,
  );
  assert.equal(defs[0].error, undefined);
  return defs[0].launch as StdioLaunch;
}

describe('VS Code sandbox keys', () => {
  it('reads the top-level sandbox for a server with sandboxEnabled, paths made absolute, with no problem reported', () => {
    const text = JSON.stringify({
      sandbox: {
        filesystem: { allowWrite: ['${workspaceFolder}/out', '~/cache', 'rel/dir', '${env:OUT}'], denyWrite: ['/work/app/out/keep'], denyRead: ['~/.ssh'] },
        network: { allowedDomains: ['api.example.com'], deniedDomains: ['evil.example'] },
      },
      servers: { s: { type: 'stdio', command: 'node', args: ['s.js'], sandboxEnabled: true } },
    });
    assert.deepEqual(parseConfigText(text).problems, []);
    assert.deepEqual(launchOf(text).sandbox, {
      filesystem: {
        allowWrite: ['/work/app/out', '/home/u/cache', '/work/app/rel/dir', '/var/out'],
        denyWrite: ['/work/app/out/keep'],
        denyRead: ['/home/u/.ssh'],
      },
      network: { allowedDomains: ['api.example.com'], deniedDomains: ['evil.example'] },
    });
  });

  it('sandboxEnabled without a sandbox object is a sandbox with nothing declared; without sandboxEnabled the sandbox does not apply', () => {
    const on = launchOf(JSON.stringify({ servers: { s: { command: 'node', sandboxEnabled: true } } }));
    assert.deepEqual(on.sandbox, { filesystem: { allowWrite: [], denyWrite: [], denyRead: [] }, network: { allowedDomains: [], deniedDomains: [] } });
    const off = launchOf(JSON.stringify({ sandbox: { filesystem: { allowWrite: ['/x'] } }, servers: { s: { command: 'node' } } }));
    assert.equal(off.sandbox, undefined);
    assert.equal(launchOf(JSON.stringify({ servers: { s: { command: 'node', sandboxEnabled: false } } })).sandbox, undefined);
  });

  it("an entry's own sandbox (older VS Code builds) wins over the file's, list by list", () => {
    const text = JSON.stringify({
      sandbox: { filesystem: { allowWrite: ['/file'], denyRead: ['/secret'] } },
      servers: { s: { command: 'node', sandboxEnabled: true, sandbox: { filesystem: { allowWrite: ['/entry'] } } } },
    });
    assert.deepEqual(launchOf(text).sandbox?.filesystem, { allowWrite: ['/entry'], denyWrite: [], denyRead: ['/secret'] });
  });

  it('turning the sandbox on or changing it changes the launch key (the server restarts)', () => {
    const plain = { command: 'node' };
    const key = (entry: object, sandbox?: object) => {
      const text = JSON.stringify({ ...(sandbox ? { sandbox } : {}), servers: { s: entry } });
      const defs = buildDefinitions([{ source: { scope: 'workspace', label: 'f' }, parsed: parseConfigText(text), text, folderPath: '/w' }], ctx);
      return launchKey(defs[0]);
    };
    assert.notEqual(key(plain), key({ ...plain, sandboxEnabled: true }));
    assert.notEqual(key({ ...plain, sandboxEnabled: true }), key({ ...plain, sandboxEnabled: true }, { filesystem: { allowWrite: ['/a'] } }));
  });

  it('reports wrong shapes where they are, and sandboxEnabled on a remote server as ignored', () => {
    const text = JSON.stringify({
      sandbox: { filesystem: { allowWrite: 'out', allowRead: ['x'] }, net: {} },
      servers: { s: { command: 'node', sandboxEnabled: 'yes' }, r: { url: 'https://x.example/mcp', sandboxEnabled: true } },
    });
    const messages = parseConfigText(text).problems.map((p) => `${p.severity}: ${p.message}`);
    assert.deepEqual(messages.sort(), [
      'error: "filesystem.allowWrite" of "sandbox" must be a list of strings.',
      'error: "sandboxEnabled" of server "s" must be true or false.',
      'warning: "sandboxEnabled" applies to stdio servers only; "r" runs elsewhere.',
      'warning: Unknown key "allowRead" in "filesystem" of "sandbox": use "allowWrite", "denyWrite", "denyRead".',
      'warning: Unknown key "net" in "sandbox": use "filesystem" or "network".',
    ]);
  });

  it('are known entry keys, so neither is "corrected" to another', () => {
    assert.ok(SERVER_ENTRY_KEYS.includes('sandboxEnabled'));
    assert.ok(SERVER_ENTRY_KEYS.includes('sandbox'));
    const text = JSON.stringify({ servers: { s: { command: 'node', sandboxEnabled: true, sandbox: {} } } });
    assert.deepEqual(parseConfigText(text).problems, []);
  });
});

describe('tool lists in config', () => {
  const lists = (entry: object) => {
    const text = JSON.stringify({ servers: { s: { command: 'node', ...entry } } });
    const parsed = parseConfigText(text);
    const def = buildDefinitions([{ source: { scope: 'workspace', label: 'f' }, parsed, text, folderPath: '/w' }], ctx)[0];
    return { problems: parsed.problems.map((p) => p.message), toolLists: def.toolLists, key: launchKey(def) };
  };

  it('includeTools / excludeTools (ours): only the included, never the excluded; "*" means every tool', () => {
    const { toolLists, problems } = lists({ includeTools: ['read', 'write'], excludeTools: ['write'] });
    assert.deepEqual(problems, []);
    assert.equal(toolHiddenByConfig(toolLists, 'read'), undefined);
    assert.equal(toolHiddenByConfig(toolLists, 'write'), 'excludeTools');
    assert.equal(toolHiddenByConfig(toolLists, 'delete'), 'includeTools');
    assert.equal(toolHiddenByConfig(lists({ includeTools: ['*'] }).toolLists, 'anything'), undefined);
    assert.equal(toolHiddenByConfig(lists({ excludeTools: ['*'] }).toolLists, 'anything'), 'excludeTools');
    assert.equal(toolHiddenByConfig(lists({}).toolLists, 'anything'), undefined);
  });

  it("other hosts' spellings are the same lists: Copilot's tools (allow), Cline's and Roo's disabledTools (deny)", () => {
    const copilot = parseCopilotConfig(JSON.stringify({ mcpServers: { s: { type: 'local', command: 'node', tools: ['read'] } } }));
    assert.deepEqual(copilot.parsed.problems, []);
    assert.deepEqual(copilot.parsed.servers[0].entry.toolLists, { include: ['read'] });
    assert.equal(toolHiddenByConfig(lists({ tools: ['*'] }).toolLists, 'x'), undefined);
    assert.equal(toolHiddenByConfig(lists({ disabledTools: ['x'] }).toolLists, 'x'), 'excludeTools');
    assert.deepEqual(lists({ includeTools: ['a'], tools: ['b'], excludeTools: ['c'], disabledTools: ['d'] }).toolLists, {
      include: ['a'],
      exclude: ['c', 'd'],
    });
  });

  it('a wrong shape is reported; the lists are no part of the launch (a change does not restart the server)', () => {
    assert.deepEqual(lists({ includeTools: 'echo' }).problems, ['"includeTools" of server "s" must be a list of tool names.']);
    assert.equal(lists({ includeTools: ['a'] }).key, lists({ excludeTools: ['b'] }).key);
    assert.ok(SERVER_ENTRY_KEYS.includes('includeTools') && SERVER_ENTRY_KEYS.includes('excludeTools'));
  });
});
