import * as assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver';
import { findLiteralSecret, suggestVariable } from '../../../src/configLanguage/server/configDiagnostics';
import { DiagnosticCode } from '../../../src/configLanguage/server/diagnosticCodes';
import { context, doc, service } from './languageTestKit';

async function codes(text: string, ctx = context(), file?: string) {
  const diagnostics = await service().diagnostics(doc(text, file), ctx);
  return diagnostics.map((d) => ({
    code: d.code,
    line: d.range.start.line,
    message: typeof d.message === 'string' ? d.message : d.message.value,
    severity: d.severity,
    source: d.source,
    data: d.data,
  }));
}

describe('config language server: diagnostics', () => {
  it('a clean file has none', async () => {
    assert.deepEqual(
      await codes(`{
  "servers": {
    "ok": { "command": "node", "args": ["\${workspaceFolder}/server.js"], "cwd": "src", "envFile": "\${workspaceFolder}/.env",
            "env": { "KEY": "\${input:key}" } },
    "remote": { "type": "http", "url": "https://mcp.example.com/mcp" },
    "local": { "type": "sse", "url": "http://127.0.0.1:3000/sse" }
  },
  "inputs": [{ "type": "promptString", "id": "key", "password": true }]
}`),
      [],
    );
  });

  it('reports a command that is not on PATH, a missing cwd and a missing envFile', async () => {
    const found = await codes(`{ "servers": { "a": { "command": "uvx", "cwd": "nope", "envFile": ".env.local" } } }`);
    assert.deepEqual(found.map((d) => d.code).sort(), [DiagnosticCode.commandNotFound, DiagnosticCode.cwdMissing, DiagnosticCode.envFileMissing].sort());
    const command = found.find((d) => d.code === DiagnosticCode.commandNotFound)!;
    assert.match(command.message, /"uvx" was not found on the PATH/);
    assert.equal(command.source, 'MCP');
    assert.equal(command.severity, DiagnosticSeverity.Warning);
  });

  it('resolves commands with the login shell PATH it is given', async () => {
    const ctx = context({ pathValue: '/usr/bin:/home/me/.nvm/bin', loginShellPath: true }, { '/home/me/.nvm/bin/npx': 'file' });
    ctx.isExecutableFile = (p) => p === '/home/me/.nvm/bin/npx';
    assert.deepEqual(await codes(`{ "servers": { "a": { "command": "npx" } } }`, ctx), []);
  });

  it('reports undefined and unused inputs', async () => {
    const found = await codes(`{
  "servers": { "a": { "command": "node", "env": { "K": "\${input:missing}" } } },
  "inputs": [{ "id": "unused" }]
}`);
    const undefinedInput = found.find((d) => d.code === DiagnosticCode.inputUndefined)!;
    assert.equal(undefinedInput.line, 1);
    assert.deepEqual(undefinedInput.data, { id: 'missing' });
    assert.equal(found.find((d) => d.code === DiagnosticCode.inputUnused)?.line, 2);
  });

  it('reports unknown variables with the closest known name', async () => {
    const found = await codes(
      `{ "servers": { "a": { "command": "node", "args": ["\${workspacefolder}", "\${env.HOME}", "\${API_KEY}", "\${workspaceFolder:other}"] } } }`,
    );
    const unknown = found.filter((d) => d.code === DiagnosticCode.variableUnknown);
    assert.deepEqual(
      unknown.map((d) => d.data),
      [{ suggestion: 'workspaceFolder' }, { suggestion: 'env:HOME' }, { suggestion: 'env:API_KEY' }],
    );
    assert.match(unknown[0].message, /did you mean \$\{workspaceFolder\}/);
    assert.ok(found.some((d) => d.code === DiagnosticCode.workspaceFolderUnknown));
    assert.equal(suggestVariable('zzzzzz'), undefined);
  });

  it('warns about duplicate server names across the workspace', async () => {
    const found = await codes(`{ "servers": { "dup": { "command": "node" } } }`, context({ otherServers: [{ name: 'dup', where: 'folder-b/.mcp.json' }] }));
    assert.equal(found[0].code, DiagnosticCode.serverDuplicate);
    assert.match(found[0].message, /folder-b\/\.mcp\.json/);
  });

  it('gives type dialects, url on stdio and command on http their own codes', async () => {
    const found = await codes(`{ "servers": {
  "a": { "type": "streamableHttp", "url": "https://x.example/mcp" },
  "b": { "type": "stdio", "command": "node", "url": "https://x.example/mcp" },
  "c": { "type": "http", "command": "node", "url": "https://x.example/mcp" }
} }`);
    assert.deepEqual(
      found.map((d) => [d.code, d.line]),
      [
        [DiagnosticCode.typeDialect, 1],
        [DiagnosticCode.urlOnStdio, 2],
        [DiagnosticCode.commandOnHttp, 3],
      ],
    );
  });

  it('reports invalid URLs and plain http to other hosts', async () => {
    const found = await codes(`{ "servers": {
  "a": { "type": "http", "url": "mcp.example.com/mcp" },
  "b": { "type": "http", "url": "ftp://mcp.example.com" },
  "c": { "type": "http", "url": "http://mcp.example.com/mcp" },
  "d": { "type": "http", "url": "http://localhost:8080/mcp" }
} }`);
    assert.deepEqual(
      found.map((d) => [d.code, d.line]),
      [
        [DiagnosticCode.urlInvalid, 1],
        [DiagnosticCode.urlInvalid, 2],
        [DiagnosticCode.urlInsecure, 3],
      ],
    );
  });

  it('reports secrets written into env and headers, with a suggested input id', async () => {
    const found = await codes(`{ "servers": {
  "gh": { "command": "node", "env": { "GITHUB_TOKEN": "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "LOG_LEVEL": "debug", "FROM_INPUT": "\${input:x}" } },
  "api": { "type": "http", "url": "https://x.example/mcp", "headers": { "Authorization": "Bearer abcdefghij1234567890KLMNOP" } }
}, "inputs": [{ "id": "x" }] }`);
    const secrets = found.filter((d) => d.code === DiagnosticCode.secretLiteral);
    assert.deepEqual(
      secrets.map((d) => d.data),
      [
        { server: 'gh', field: 'env', key: 'GITHUB_TOKEN', prefix: '', suggestedId: 'gh-github-token' },
        { server: 'api', field: 'headers', key: 'Authorization', prefix: 'Bearer ', suggestedId: 'api-authorization' },
      ],
    );
    assert.equal(findLiteralSecret('PORT', '8080', false), undefined);
    assert.equal(findLiteralSecret('API_KEY', 'your-api-key-here', false), undefined);
    assert.deepEqual(findLiteralSecret('X', 'sk-proj-abc123def456', false), { prefix: '' });
  });

  it('leaves syntax errors to VS Code JSON support, and reports them itself without it', async () => {
    const broken = `{ "servers": { "a": { "command": "node" } `;
    assert.ok(!(await codes(broken)).some((d) => /syntax/.test(d.message)));
    assert.ok((await codes(broken, context({ hostProvidesJsonSchema: false }))).some((d) => d.code === DiagnosticCode.parse && /syntax/.test(d.message)));
  });

  it('validates against the schema when VS Code JSON support is absent', async () => {
    const found = await codes(
      `{ "servers": { "a": { "command": "node", "env": { "K": "\${input:x}" } } },
  "inputs": [{ "id": "x", "password": "yes" }] }`,
      context({ hostProvidesJsonSchema: false }),
    );
    assert.deepEqual(
      found.map((d) => [d.code, d.line, d.source]),
      [[DiagnosticCode.schema, 1, 'MCP']],
    );
  });

  it('reads .mcp.json in the mcpServers format', async () => {
    const found = await codes(`{ "mcpServers": { "a": { "command": "missing-tool" } } }`, context({ filePath: '/work/ws/.mcp.json' }), '/work/ws/.mcp.json');
    assert.deepEqual(
      found.map((d) => d.code),
      [DiagnosticCode.commandNotFound],
    );
  });
});
