/**
 * GitHub Copilot's config places (`$COPILOT_HOME/mcp-config.json`, `.github/mcp.json`), read from
 * real files in a temp folder the way ConfigSources reads them: the path from the environment,
 * Copilot's spellings adapted, then built into definitions beside the workspace's other files.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildDefinitions, type ConfigDocument } from '../../../src/config/common/definitionBuilder';
import {
  adaptCopilotText,
  copilotUserConfigPath,
  discoveryEnvironment,
  COPILOT_HOME_ENV,
  COPILOT_USER_LABEL,
  GITHUB_MCP_FILE,
  parseCopilotConfig,
} from '../../../src/config/common/discoverySources';
import { DEFAULT_TIMEOUTS, parseConfigText } from '../../../src/config/common/serverConfig';

describe("GitHub Copilot's config places", () => {
  let tmp: string;
  let home: string;
  let folder: string;

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-copilot-'));
    home = path.join(tmp, 'home');
    folder = path.join(tmp, 'app');
    fs.mkdirSync(path.join(folder, '.github'), { recursive: true });
    fs.mkdirSync(home);
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const write = (file: string, value: unknown) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  };
  const env = (vars: Record<string, string | undefined>) => discoveryEnvironment(process.platform, home, vars);
  const ctx = (vars: Record<string, string | undefined> = {}) => ({
    workspaceFolders: [{ name: 'app', path: folder }],
    userHome: home,
    env: vars,
    defaultTimeouts: DEFAULT_TIMEOUTS,
    inputValue: () => undefined,
  });
  /** What ConfigSources makes of the Copilot user file, read from disk. */
  const userDoc = (file: string): ConfigDocument => {
    const { text, parsed } = parseCopilotConfig(fs.readFileSync(file, 'utf8'));
    return { source: { scope: 'user', label: COPILOT_USER_LABEL, file, copilotPlace: true }, parsed, text, cwd: home };
  };
  const githubDoc = (): ConfigDocument => {
    const file = path.join(folder, GITHUB_MCP_FILE);
    const { text, parsed } = parseCopilotConfig(fs.readFileSync(file, 'utf8'));
    return { source: { scope: 'workspace', label: GITHUB_MCP_FILE, file, folder: 'app', copilotPlace: true }, parsed, text, folderPath: folder };
  };

  it('the user file is ~/.copilot/mcp-config.json, or in COPILOT_HOME when set (a relative one is not followed)', () => {
    const copilotHome = path.join(tmp, 'elsewhere');
    assert.equal(copilotUserConfigPath(env({}), {}), path.join(home, '.copilot', 'mcp-config.json'));
    assert.equal(copilotUserConfigPath(env({}), { [COPILOT_HOME_ENV]: copilotHome }), path.join(copilotHome, 'mcp-config.json'));
    assert.equal(copilotUserConfigPath(env({}), { [COPILOT_HOME_ENV]: 'relative/dir' }), path.join(home, '.copilot', 'mcp-config.json'));
    assert.equal(copilotUserConfigPath(env({}), { [COPILOT_HOME_ENV]: '' }), path.join(home, '.copilot', 'mcp-config.json'));
    assert.equal(copilotUserConfigPath(discoveryEnvironment('win32', 'C:\\Users\\a', {}), { [COPILOT_HOME_ENV]: 'D:\\cp' }), 'D:\\cp\\mcp-config.json');
  });

  it('reads the servers of the COPILOT_HOME file from disk: "local" is stdio, ${VAR} in env and headers from the environment', () => {
    const copilotHome = path.join(tmp, 'copilot-home');
    const file = copilotUserConfigPath(env({}), { [COPILOT_HOME_ENV]: copilotHome });
    write(file, {
      mcpServers: {
        playwright: { type: 'local', command: 'npx', args: ['@playwright/mcp@latest'], env: { KEY: '${MY_KEY}', BARE: '$MY_KEY', KEEP: 'a$' }, tools: ['*'] },
        context7: { type: 'http', url: 'https://mcp.context7.com/mcp', headers: { Authorization: 'Bearer ${CTX_TOKEN}' }, tools: ['*'], timeout: 30000 },
        plain: { command: 'node', args: ['s.js'], tools: [] },
      },
    });
    // Not the default place: COPILOT_HOME is where the file is.
    assert.equal(fs.existsSync(path.join(home, '.copilot', 'mcp-config.json')), false);
    const doc = userDoc(file);
    assert.deepEqual(doc.parsed.problems, [], 'Copilot keys (tools, timeout) are no typos');
    const defs = buildDefinitions([doc], ctx({ MY_KEY: 'k-1', CTX_TOKEN: 'tok-2' }));
    const byName = Object.fromEntries(defs.map((d) => [d.name, d]));
    assert.deepEqual(byName.playwright.launch, {
      type: 'stdio',
      command: 'npx',
      args: ['@playwright/mcp@latest'],
      env: { KEY: 'k-1', BARE: 'k-1', KEEP: 'a$' },
      cwd: home,
    });
    assert.deepEqual(byName.context7.launch, { type: 'http', url: 'https://mcp.context7.com/mcp', headers: { Authorization: 'Bearer tok-2' } });
    assert.equal(byName.context7.error, undefined);
    assert.ok(byName.context7.secrets.includes('tok-2'), 'a header read from the environment is a secret');
    assert.equal(byName.plain.launch.type, 'stdio');
    // Lines point into the file as written.
    assert.equal(
      byName.context7.source.line,
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('"context7"')),
    );
  });

  it('.github/mcp.json is a workspace file: it may not route a secret from the environment to its URL', () => {
    write(path.join(folder, GITHUB_MCP_FILE), {
      mcpServers: {
        api: { type: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' }, tools: ['*'] },
        local: { type: 'local', command: 'node', args: ['tool.js'], env: { TOKEN: '${GITHUB_TOKEN}' }, tools: ['*'] },
      },
    });
    const defs = buildDefinitions([githubDoc()], ctx({ GITHUB_TOKEN: 'ghp-secret' }));
    const api = defs.find((d) => d.name === 'api')!;
    assert.match(api.error ?? '', /"headers\.Authorization" may not read \$\{env:…\}/);
    assert.match(api.error ?? '', /\.github\/mcp\.json/);
    // A stdio server runs here and inherits the environment anyway: its env may read it.
    const local = defs.find((d) => d.name === 'local')!;
    assert.equal(local.error, undefined);
    assert.deepEqual(local.launch, { type: 'stdio', command: 'node', args: ['tool.js'], env: { TOKEN: 'ghp-secret' }, cwd: folder });
  });

  it('merges with the workspace .mcp.json: same names stay two servers, told apart by their source', () => {
    write(path.join(folder, GITHUB_MCP_FILE), { mcpServers: { shared: { type: 'local', command: 'node', args: ['a.js'], tools: ['*'] } } });
    write(path.join(folder, '.mcp.json'), { mcpServers: { shared: { command: 'node', args: ['b.js'] } } });
    const copilotHome = path.join(tmp, 'ch');
    const userFile = copilotUserConfigPath(env({}), { [COPILOT_HOME_ENV]: copilotHome });
    write(userFile, { mcpServers: { shared: { type: 'stdio', command: 'node', args: ['c.js'], tools: ['*'] } } });
    const mcpJsonText = fs.readFileSync(path.join(folder, '.mcp.json'), 'utf8');
    const mcpJson: ConfigDocument = {
      source: { scope: 'workspace', label: '.mcp.json', file: path.join(folder, '.mcp.json'), folder: 'app' },
      parsed: parseConfigText(mcpJsonText, 'mcpServers'),
      text: mcpJsonText,
      folderPath: folder,
    };
    const defs = buildDefinitions([mcpJson, githubDoc(), userDoc(userFile)], ctx());
    assert.deepEqual(
      defs.map((d) => [d.source.label, d.launch.type === 'stdio' && d.launch.args[0]]),
      [
        ['.mcp.json', 'b.js'],
        [GITHUB_MCP_FILE, 'a.js'],
        [COPILOT_USER_LABEL, 'c.js'],
      ],
    );
    assert.equal(new Set(defs.map((d) => d.id)).size, 3);
    assert.equal(new Set(defs.map((d) => d.label)).size, 3, `labels tell them apart: ${defs.map((d) => d.label).join(', ')}`);
  });

  it('bad JSON and an unknown type are reported, not silent', () => {
    const file = path.join(folder, GITHUB_MCP_FILE);
    write(file, '{ "mcpServers": { "a": { "type": "local", "command": "node" }, }\n  "b": oops }');
    const { parsed } = parseCopilotConfig(fs.readFileSync(file, 'utf8'));
    assert.ok(
      parsed.problems.some((p) => p.severity === 'error'),
      JSON.stringify(parsed.problems),
    );
    const typed = parseCopilotConfig('{ "mcpServers": { "a": { "type": "remote", "url": "https://x" } } }').parsed;
    assert.match(typed.problems.map((p) => p.message).join(' '), /Unknown "type" "remote"/);
    // A typo of one of our keys is still one.
    const typo = parseCopilotConfig('{ "mcpServers": { "a": { "comand": "node", "tools": ["*"] } } }').parsed;
    assert.match(typo.problems.map((p) => p.message).join(' '), /did you mean "command"/);
  });

  it('adapting keeps every line where it is and leaves our own variables alone', () => {
    const text = [
      '{ "mcpServers": {',
      '  "a": { "type": "local", "command": "x",',
      '    "env": { "A": "${HOME_DIR}/x", "B": "${env:KEEP}", "C": "${input:id}", "D": "${workspaceFolder}", "E": "${V:-dflt}" } } } }',
    ].join('\n');
    const out = adaptCopilotText(text);
    assert.equal(out.split('\n').length, 3);
    assert.equal(out.split('\n')[1], '  "a": { "type": "stdio", "command": "x",');
    assert.match(out, /"A": "\$\{env:HOME_DIR\}\/x", "B": "\$\{env:KEEP\}", "C": "\$\{input:id\}", "D": "\$\{workspaceFolder\}", "E": "\$\{V:-dflt\}"/);
    // Not a Copilot file shape: unchanged.
    assert.equal(adaptCopilotText('{ "servers": { "a": { "type": "local" } } }'), '{ "servers": { "a": { "type": "local" } } }');
    assert.equal(adaptCopilotText('not json'), 'not json');
  });
});
