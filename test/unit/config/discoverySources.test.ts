import * as assert from 'node:assert/strict';
import { addInputsToConfigText, addServerToConfigText } from '../../../src/config/common/configEdit';
import { buildDefinitions, type ConfigDocument } from '../../../src/config/common/definitionBuilder';
import {
  adaptDiscoveredText,
  DISCOVERY_ACCEPT,
  DISCOVERY_DECLINE,
  DISCOVERY_HOME_ENV,
  discoveryEnvironment,
  discoveryPromptMessage,
  discoveryPromptOutcome,
  folderWatchGlob,
  shouldOfferDiscovery,
  toWorkspaceEntry,
  userDiscoveryFiles,
  withoutDuplicateDiscoveries,
  profileMcpJsonPath,
} from '../../../src/config/common/discoverySources';
import { DEFAULT_TIMEOUTS, parseConfigText } from '../../../src/config/common/serverConfig';

const paths = (env: Parameters<typeof userDiscoveryFiles>[0]) => Object.fromEntries(userDiscoveryFiles(env).map((f) => [f.source.label, f.path]));

describe('discoverySources', () => {
  describe('paths per OS', () => {
    it('macOS: Claude Desktop under Application Support, Cursor and Windsurf under home', () => {
      assert.deepEqual(paths({ platform: 'darwin', home: '/Users/ann' }), {
        'Claude Desktop': '/Users/ann/Library/Application Support/Claude/claude_desktop_config.json',
        'Cursor (global)': '/Users/ann/.cursor/mcp.json',
        Windsurf: '/Users/ann/.codeium/windsurf/mcp_config.json',
      });
    });

    it('Windows: Claude Desktop under %APPDATA% (default AppData\\Roaming), backslashes', () => {
      assert.deepEqual(paths({ platform: 'win32', home: 'C:\\Users\\ann', appData: 'D:\\Roaming' }), {
        'Claude Desktop': 'D:\\Roaming\\Claude\\claude_desktop_config.json',
        'Cursor (global)': 'C:\\Users\\ann\\.cursor\\mcp.json',
        Windsurf: 'C:\\Users\\ann\\.codeium\\windsurf\\mcp_config.json',
      });
      assert.equal(
        paths({ platform: 'win32', home: 'C:\\Users\\ann' })['Claude Desktop'],
        'C:\\Users\\ann\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
      );
    });

    it('Linux: Claude Desktop under $XDG_CONFIG_HOME, default ~/.config', () => {
      assert.equal(paths({ platform: 'linux', home: '/home/ann' })['Claude Desktop'], '/home/ann/.config/Claude/claude_desktop_config.json');
      assert.equal(paths({ platform: 'linux', home: '/home/ann', xdgConfigHome: '/xdg' })['Claude Desktop'], '/xdg/Claude/claude_desktop_config.json');
      assert.equal(paths({ platform: 'linux', home: '/home/ann' })['Cursor (global)'], '/home/ann/.cursor/mcp.json');
    });

    it('scopes: user-level files are user, only the workspace Cursor file needs trust', () => {
      for (const f of userDiscoveryFiles({ platform: 'linux', home: '/h' })) assert.equal(f.source.scope, 'user');
    });

    it('reads APPDATA / XDG_CONFIG_HOME from the environment; the test home replaces home and ignores them', () => {
      assert.deepEqual(discoveryEnvironment('win32', 'C:\\Users\\a', { APPDATA: 'C:\\AD' }), {
        platform: 'win32',
        home: 'C:\\Users\\a',
        appData: 'C:\\AD',
        xdgConfigHome: undefined,
      });
      assert.deepEqual(discoveryEnvironment('linux', '/home/a', { XDG_CONFIG_HOME: '/x', [DISCOVERY_HOME_ENV]: '/fixture' }), {
        platform: 'linux',
        home: '/fixture',
      });
    });
  });

  describe("reading other apps' files", () => {
    it("renames Windsurf's serverUrl to url on the same line, and leaves entries with a url alone", () => {
      const text =
        '{\n  "mcpServers": {\n    "remote": { "serverUrl": "https://x.example/mcp", "headers": { "A": "b" } },\n    "both": { "url": "https://u/mcp", "serverUrl": "https://s/mcp" }\n  }\n}';
      const adapted = adaptDiscoveredText(text);
      assert.equal(adapted.split('\n').length, text.split('\n').length);
      const parsed = parseConfigText(adapted, 'mcpServers');
      assert.deepEqual(parsed.problems, []);
      assert.deepEqual(
        parsed.servers.map((s) => [s.name, s.entry.type, s.entry.url]),
        [
          ['remote', 'http', 'https://x.example/mcp'],
          ['both', 'http', 'https://u/mcp'],
        ],
      );
      assert.equal(adaptDiscoveredText('not json'), 'not json');
    });

    it('user-level files run from the home directory; a Cursor workspace file from its folder', () => {
      const text = '{"mcpServers": {"a": {"command": "node", "args": ["s.js"]}}}';
      const ctx = {
        workspaceFolders: [{ name: 'w', path: '/ws/w' }],
        userHome: '/home/u',
        env: {},
        defaultTimeouts: DEFAULT_TIMEOUTS,
        inputValue: () => undefined,
      };
      const claude: ConfigDocument = {
        source: { scope: 'user', label: 'Claude Desktop', file: '/home/u/.config/Claude/claude_desktop_config.json', discovered: 'claudeDesktop' },
        parsed: parseConfigText(text),
        text,
        cwd: '/home/u',
      };
      const cursor: ConfigDocument = {
        source: { scope: 'workspace', label: 'Cursor (workspace)', file: '/ws/w/.cursor/mcp.json', folder: 'w', discovered: 'cursorWorkspace' },
        parsed: parseConfigText(text),
        text,
        folderPath: '/ws/w',
      };
      const [a, b] = buildDefinitions([claude, cursor], ctx);
      assert.equal(a.launch.type === 'stdio' && a.launch.cwd, '/home/u');
      assert.equal(b.launch.type === 'stdio' && b.launch.cwd, '/ws/w');
      assert.equal(a.source.discovered, 'claudeDesktop');
      assert.equal(a.label, 'a (Claude Desktop)', 'same names get their source in the label');
    });
  });

  describe('import: mcpServers entry to servers entry', () => {
    it('adds type, orders keys and drops empty defaults', () => {
      const [stdio, remote] = parseConfigText(
        '{"mcpServers": {"s": {"args": [], "command": "npx", "env": {"DEBUG": "1"}, "disabled": false}, "r": {"url": "https://r.example/mcp", "type": "streamable-http"}}}',
        'mcpServers',
      ).servers;
      const a = toWorkspaceEntry('s', stdio.entry);
      assert.deepEqual(a.entry, { type: 'stdio', command: 'npx', env: { DEBUG: '1' } });
      assert.deepEqual(Object.keys(a.entry), ['type', 'command', 'env']);
      assert.deepEqual(a.inputs, []);
      assert.deepEqual(toWorkspaceEntry('r', remote.entry).entry, { type: 'http', url: 'https://r.example/mcp' });
    });

    it('moves literal secrets into password inputs, keeping variables and non-secrets as written', () => {
      const [s] = parseConfigText(
        JSON.stringify({
          mcpServers: {
            gh: {
              url: 'https://gh.example/mcp',
              headers: { Authorization: 'Bearer abc123', 'X-Trace': 'on' },
            },
          },
        }),
        'mcpServers',
      ).servers;
      const r = toWorkspaceEntry('gh', s.entry);
      assert.deepEqual(r.entry.headers, { Authorization: 'Bearer ${input:gh-Authorization}', 'X-Trace': 'on' });
      assert.deepEqual(r.values, { 'gh-Authorization': 'abc123' });
      assert.equal(r.inputs[0].password, true);

      const [e] = parseConfigText(
        JSON.stringify({
          mcpServers: {
            gh: {
              command: 'gh-mcp',
              env: { GITHUB_TOKEN: 'ghp_x', API_KEY: '${env:K}', LEVEL: 'debug' },
            },
          },
        }),
        'mcpServers',
      ).servers;
      const r2 = toWorkspaceEntry('gh', e.entry, ['gh-GITHUB_TOKEN']);
      assert.deepEqual(r2.entry.env, { GITHUB_TOKEN: '${input:gh-GITHUB_TOKEN-2}', API_KEY: '${env:K}', LEVEL: 'debug' });
      assert.deepEqual(r2.values, { 'gh-GITHUB_TOKEN-2': 'ghp_x' });
    });

    it('writes a .vscode/mcp.json the parser reads back, with the inputs', () => {
      const [s] = parseConfigText('{"mcpServers": {"w": {"command": "node", "args": ["/abs/s.js"], "env": {"MY_SECRET": "v"}}}}', 'mcpServers').servers;
      const r = toWorkspaceEntry('w', s.entry);
      const text = addInputsToConfigText(addServerToConfigText('{\n\t// mine\n\t"servers": {}\n}\n', 'vscode', 'w', r.entry), r.inputs);
      const back = parseConfigText(text, 'vscode');
      assert.ok(text.includes('// mine'));
      assert.deepEqual(back.problems, []);
      assert.deepEqual(JSON.parse(JSON.stringify(back.servers[0].entry)), {
        type: 'stdio',
        command: 'node',
        args: ['/abs/s.js'],
        env: { MY_SECRET: '${input:w-MY_SECRET}' },
      });
      assert.deepEqual(
        back.inputs.map((i) => [i.id, i.password]),
        [['w-MY_SECRET', true]],
      );
      const again = addInputsToConfigText(text, [{ id: 'second', type: 'promptString' }]);
      assert.deepEqual(
        parseConfigText(again).inputs.map((i) => i.id),
        ['w-MY_SECRET', 'second'],
      );
    });

    it("a discovered server the user's own config already has (same name and launch) is left out", () => {
      const launch = { type: 'stdio' as const, command: 'node', args: ['s.js'], env: {}, cwd: '/a' };
      const own = { name: 'x', source: {}, launch };
      const dup = { name: 'x', source: { discovered: 'claudeDesktop' as const }, launch: { ...launch, cwd: '/home' } };
      const other = { name: 'x', source: { discovered: 'windsurf' as const }, launch: { ...launch, args: ['t.js'] } };
      assert.deepEqual(withoutDuplicateDiscoveries([own, dup, other]), [own, other]);
    });
  });

  describe('asking once', () => {
    it('asks only when the setting was never set, it was never asked, and another app has a config', () => {
      assert.equal(shouldOfferDiscovery({ settingConfigured: false, alreadyAsked: false, foundSources: ['Claude Desktop'] }), true);
      assert.equal(shouldOfferDiscovery({ settingConfigured: true, alreadyAsked: false, foundSources: ['Claude Desktop'] }), false);
      assert.equal(shouldOfferDiscovery({ settingConfigured: false, alreadyAsked: true, foundSources: ['Claude Desktop'] }), false);
      assert.equal(shouldOfferDiscovery({ settingConfigured: false, alreadyAsked: false, foundSources: [] }), false);
    });

    it('remembers every answer, dismissal included; only accepting turns discovery on', () => {
      assert.deepEqual(discoveryPromptOutcome(DISCOVERY_ACCEPT), { enable: true, remember: true });
      assert.deepEqual(discoveryPromptOutcome(DISCOVERY_DECLINE), { enable: false, remember: true });
      assert.deepEqual(discoveryPromptOutcome(undefined), { enable: false, remember: true });
    });

    it('names the apps found, once each', () => {
      assert.match(discoveryPromptMessage(['Claude Desktop', 'Cursor (global)', 'Cursor (workspace)']), /for Claude Desktop and Cursor\./);
      assert.match(discoveryPromptMessage(['Windsurf']), /for Windsurf\./);
    });
  });
});

describe('folderWatchGlob', () => {
  it('watches each file and every folder above it, once', () => {
    assert.equal(
      folderWatchGlob(['.vscode/mcp.json', '.mcp.json', '.github/mcp.json', '.vscode/mcp-workbench.json', '.cursor/mcp.json']),
      '{.vscode,.vscode/mcp.json,.mcp.json,.github,.github/mcp.json,.vscode/mcp-workbench.json,.cursor,.cursor/mcp.json}',
    );
    assert.equal(folderWatchGlob(['a/b/c.json']), '{a,a/b,a/b/c.json}');
  });
});

describe('profileMcpJsonPath', () => {
  it("finds the profile's mcp.json from the extension's global storage", () => {
    assert.equal(profileMcpJsonPath('/home/u/.config/Code/User/globalStorage/mcp-workbench.mcp-workbench'), '/home/u/.config/Code/User/mcp.json');
    assert.equal(
      profileMcpJsonPath('/home/u/.config/Code/User/profiles/-5a1b2c/globalStorage/mcp-workbench.mcp-workbench/'),
      '/home/u/.config/Code/User/profiles/-5a1b2c/mcp.json',
    );
    assert.equal(profileMcpJsonPath('/c:/Users/u/AppData/Roaming/Code/User/globalStorage/x.y'), '/c:/Users/u/AppData/Roaming/Code/User/mcp.json');
  });
  it('is undefined for any other layout', () => {
    assert.equal(profileMcpJsonPath('/tmp/storage/x.y'), undefined);
    assert.equal(profileMcpJsonPath('x.y'), undefined);
  });
});
