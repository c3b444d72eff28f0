import * as assert from 'node:assert/strict';
import type { CodeAction, CompletionItem, Diagnostic, Hover, MarkupContent, TextEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticCode } from '../../../src/configLanguage/server/diagnosticCodes';
import { at, context, doc, service, WORKSPACE } from './languageTestKit';

function labels(items: CompletionItem[]): string[] {
  return items.map((i) => i.label);
}
function hoverText(hover: Hover | null): string {
  if (!hover) return '';
  const parts = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  return parts.map((p) => (typeof p === 'string' ? p : (p as MarkupContent).value)).join('\n');
}
function apply(d: TextDocument, action: CodeAction): string {
  const edits = action.edit!.changes![d.uri] as TextEdit[];
  return TextDocument.applyEdits(d, edits);
}
async function fixes(text: string, code: string, platform: NodeJS.Platform = 'linux', file?: string) {
  const d = doc(text, file);
  const s = service();
  const diagnostics = await s.diagnostics(d, context());
  const diagnostic = diagnostics.find((x) => x.code === code) as Diagnostic;
  assert.ok(diagnostic, `no ${code} in ${JSON.stringify(diagnostics)}`);
  return { d, actions: s.codeActions(d, diagnostic.range, [diagnostic], { platform }) };
}

describe('config language server: completions', () => {
  it('offers npm packages the workspace already uses for npx args', async () => {
    const d = doc('{"servers": {\n"a": {"command": "npx", "args": ["-y", "@scope/used-elsewhere"]},\n"b": {"command": "npx", "args": ["-y", ""]}\n}}');
    const ctx = context({
      readText: (p) =>
        p === `${WORKSPACE}/package.json` ? JSON.stringify({ devDependencies: { '@modelcontextprotocol/server-everything': '1.0.0' } }) : undefined,
    });
    const items = await service().completions(d, at(d, '["-y", ""]', 8), ctx);
    const labels = items.map((i) => i.label);
    assert.ok(labels.includes('@scope/used-elsewhere'), labels.join());
    assert.ok(labels.includes('@modelcontextprotocol/server-everything'), labels.join());
    const nodeDoc = doc('{"servers": {"n": {"command": "npx", "args": ["a"]}, "m": {"command": "node", "args": [""]}}}');
    const forNpx = await service().completions(nodeDoc, at(nodeDoc, '["a"]', 2), ctx);
    assert.ok(
      forNpx.some((i) => i.label === '@modelcontextprotocol/server-everything'),
      'the npx entry gets packages',
    );
    const forNode = await service().completions(nodeDoc, at(nodeDoc, '[""]', 2), ctx);
    assert.ok(!forNode.some((i) => i.label === '@modelcontextprotocol/server-everything'), 'a node entry does not');
  });

  it('offers variables after ${', async () => {
    const d = doc(`{ "servers": { "a": { "command": "node", "args": ["\${"] } }, "inputs": [{ "id": "tok" }] }`);
    const items = await service().completions(d, at(d, '${', 2), context());
    assert.deepEqual(labels(items), [
      'workspaceFolder',
      'workspaceFolderBasename',
      'workspaceFolder:',
      'userHome',
      'pathSeparator',
      '/',
      'env:',
      'input:',
      'input:tok',
    ]);
    assert.equal(items[0].textEdit && 'range' in items[0].textEdit ? items[0].textEdit.newText : '', 'workspaceFolder}');
  });

  it('offers input ids inside ${input:, environment names inside ${env:', async () => {
    const d = doc(
      `{ "servers": { "a": { "command": "node", "env": { "A": "\${input:}", "B": "\${env:G}" } } }, "inputs": [{ "id": "tok", "password": true }, { "id": "other" }] }`,
    );
    const s = service();
    const inputs = await s.completions(d, at(d, '${input:', 8), context());
    assert.deepEqual(labels(inputs), ['input:tok', 'input:other']);
    // The closing brace is already there: the edit replaces it rather than adding a second.
    const edit = inputs[0].textEdit as TextEdit;
    assert.equal(TextDocument.applyEdits(d, [edit]).includes('"${input:tok}"'), true);
    const env = await s.completions(d, at(d, '${env:', 6), context());
    assert.ok(labels(env).includes('env:GITHUB_TOKEN'));
  });

  it('offers executables on PATH for command', async () => {
    const d = doc(`{ "servers": { "a": { "command": "n" } } }`);
    const ctx = context({ pathValue: `${__dirname}` });
    ctx.isExecutableFile = (p) => p.endsWith('.js');
    const items = await service().completions(d, at(d, '"n"', 2), ctx);
    assert.ok(labels(items).includes('configFeatures.test.js'), JSON.stringify(labels(items)));
    assert.equal(items[0].filterText?.startsWith('"'), true);
  });

  it('offers keys and type values from the schema when VS Code JSON support is absent', async () => {
    const d = doc(`{ "servers": { "a": { "type": "", "command": "node",  } } }`);
    const s = service();
    const keys = await s.completions(d, at(d, '"node",', 8), context({ hostProvidesJsonSchema: false }));
    for (const key of ['args', 'env', 'envFile', 'cwd'])
      assert.ok(
        labels(keys).some((l) => l.includes(key)),
        key,
      );
    // MCP Workbench's own keys belong in .vscode/mcp-workbench.json, not in VS Code's file; in .mcp.json they are offered.
    for (const key of ['disabled', 'timeouts']) assert.ok(!labels(keys).some((l) => l.includes(key)), `${key} not offered in .vscode/mcp.json`);
    const claude = doc(`{ "mcpServers": { "a": { "command": "node",  } } }`, `${WORKSPACE}/.mcp.json`);
    const claudeKeys = labels(await s.completions(claude, at(claude, '"node",', 8), context({ hostProvidesJsonSchema: false })));
    for (const key of ['args', 'disabled', 'timeouts'])
      assert.ok(
        claudeKeys.some((l) => l.includes(key)),
        `${key} in .mcp.json`,
      );
    const types = await s.completions(d, at(d, '"type": "', 9), context({ hostProvidesJsonSchema: false }));
    assert.deepEqual(
      labels(types)
        .map((l) => l.replace(/"/g, ''))
        .sort(),
      ['http', 'sse', 'stdio'],
    );
  });

  it("offers only the keys of the entry's transport: no url/headers for stdio, no command/args for http", async () => {
    const s = service();
    const ctx = context({ hostProvidesJsonSchema: false });
    let version = 0;
    const keysAt = async (entry: string) => {
      // A new version each time: the service caches its model per document version.
      const d = doc(`{ "servers": { "a": { ${entry},  } } }`, undefined, ++version);
      return labels(await s.completions(d, at(d, `${entry},`, entry.length + 2), ctx)).map((l) => l.replace(/"/g, ''));
    };
    const stdio = [await keysAt('"command": "node"'), await keysAt('"type": "stdio"')];
    for (const keys of stdio) {
      for (const key of ['args', 'env', 'cwd', 'dev']) assert.ok(keys.includes(key), `${key} in ${keys}`);
      for (const key of ['url', 'headers']) assert.ok(!keys.includes(key), `no ${key} for stdio: ${keys}`);
    }
    for (const keys of [await keysAt('"url": "https://x.example/mcp"'), await keysAt('"type": "http"'), await keysAt('"type": "sse"')]) {
      for (const key of ['headers', 'dev']) assert.ok(keys.includes(key), `${key} in ${keys}`);
      for (const key of ['command', 'args', 'env', 'envFile', 'cwd']) assert.ok(!keys.includes(key), `no ${key} for http: ${keys}`);
    }
    const undecided = await keysAt('"disabled": false');
    for (const key of ['command', 'url', 'type']) assert.ok(undecided.includes(key), `an entry that is neither yet offers ${key}: ${undecided}`);
  });

  it('still explains every key on hover, whichever transport', async () => {
    const d = doc(`{ "servers": { "a": { "command": "node", "cwd": "x" }, "b": { "url": "https://x.example/mcp", "headers": {} } } }`);
    const s = service();
    const text = async (marker: string) => JSON.stringify(await s.hover(d, at(d, marker, 2), context({ hostProvidesJsonSchema: false })));
    assert.match(await text('"cwd"'), /Working directory/);
    assert.match(await text('"headers"'), /HTTP headers/);
  });
});

describe('config language server: oauth', () => {
  it('offers the oauth keys and the grant types from the schema', async () => {
    const text = `{ "servers": { "a": { "url": "https://mcp.example.com/mcp", "oauth": { "grantType": "", "clientId": "c",  } } } }`;
    const d = doc(text);
    const s = service();
    const grants = await s.completions(d, at(d, '"grantType": "', 14), context({ hostProvidesJsonSchema: false }));
    assert.deepEqual(
      labels(grants)
        .map((l) => l.replace(/"/g, ''))
        .sort(),
      ['authorization_code', 'client_credentials', 'enterprise_managed', 'jwt_bearer'],
    );
    const keys = await s.completions(d, at(d, '"c",', 4), context({ hostProvidesJsonSchema: false }));
    for (const key of ['clientSecret', 'tokenEndpointAuthMethod', 'privateKey', 'issuer', 'dpop', 'assertionFile', 'idp'])
      assert.ok(
        labels(keys).some((l) => l.includes(key)),
        key,
      );
  });

  it('reports a bad combination and a secret written into the file, at the field', async () => {
    const text = `{ "servers": { "a": { "url": "https://mcp.example.com/mcp", "oauth": { "grantType": "client_credentials", "clientId": "c", "clientSecret": "hunter2", "tokenEndpointAuthMethod": "private_key_jwt" } } } }`;
    const d = doc(text);
    const found = await service().diagnostics(d, context());
    const pkj = found.find((x) => /"private_key_jwt" needs "oauth.privateKey"/.test(String(x.message)));
    assert.ok(pkj, JSON.stringify(found));
    assert.equal(d.getText(pkj.range), '"private_key_jwt"');
    const literal = found.find((x) => x.code === DiagnosticCode.secretLiteral);
    assert.ok(literal, JSON.stringify(found));
    assert.match(String(literal.message), /"oauth.clientSecret" is written into the file/);
    assert.equal(d.getText(literal.range), '"hunter2"');
    const clean = await service().diagnostics(
      doc(
        `{ "servers": { "a": { "url": "https://mcp.example.com/mcp", "oauth": { "grantType": "client_credentials", "clientId": "c", "clientSecret": "\${input:s}" } } }, "inputs": [{ "id": "s", "password": true }] }`,
      ),
      context(),
    );
    assert.ok(!clean.some((x) => /oauth/.test(String(x.message))), JSON.stringify(clean));
  });
});

describe('config language server: oauth secrets', () => {
  it('flags every oauth secret written into the file, even short ones, and moves it into a password input', async () => {
    const text = `{
  "servers": {
    "api": { "url": "https://mcp.example.com/mcp", "oauth": { "grantType": "enterprise_managed", "clientId": "c", "clientSecret": "abc", "idp": { "issuer": "https://idp.example.com", "clientId": "wb", "idToken": "eyJ.x.y" } } }
  }
}`;
    const d = doc(text);
    const found = (await service().diagnostics(d, context())).filter((x) => x.code === DiagnosticCode.secretLiteral);
    assert.deepEqual(
      found.map((x) => d.getText(x.range)),
      ['"abc"', '"eyJ.x.y"'],
    );
    const { d: fixed, actions } = await fixes(text, DiagnosticCode.secretLiteral);
    const after = JSON.parse(apply(fixed, actions[0]));
    assert.equal(after.servers.api.oauth.clientSecret, '${input:api-client-secret}');
    assert.deepEqual(after.inputs, [{ type: 'promptString', id: 'api-client-secret', description: 'clientSecret for api', password: true }]);
  });
});

describe('config language server: protocolEra', () => {
  it('offers the eras as values and is a key of a server', async () => {
    const d = doc(`{ "servers": { "a": { "command": "node", "protocolEra": "" } } }`);
    const s = service();
    const eras = await s.completions(d, at(d, '"protocolEra": "', 16), context({ hostProvidesJsonSchema: false }));
    assert.deepEqual(
      labels(eras)
        .map((l) => l.replace(/"/g, ''))
        .sort(),
      ['auto', 'legacy', 'modern'],
    );
    const keys = await s.completions(
      doc(`{ "mcpServers": { "a": { "command": "node",  } } }`, `${WORKSPACE}/.mcp.json`),
      at(doc(`{ "mcpServers": { "a": { "command": "node",  } } }`), '"node",', 8),
      context({ hostProvidesJsonSchema: false }),
    );
    assert.ok(labels(keys).some((l) => l.includes('protocolEra')));
  });

  it('reports an unknown era and accepts the three known ones', async () => {
    const bad = await service().diagnostics(doc(`{ "servers": { "a": { "command": "node", "protocolEra": "2026" } } }`), context());
    assert.ok(
      bad.some((x) => /"protocolEra" of server "a" must be "auto", "modern"/.test(String(x.message))),
      JSON.stringify(bad),
    );
    for (const era of ['auto', 'modern', 'legacy']) {
      const ok = await service().diagnostics(doc(`{ "servers": { "a": { "command": "node", "protocolEra": "${era}" } } }`), context());
      // The move to .vscode/mcp-workbench.json is suggested for any value; the value itself is fine.
      assert.ok(!ok.some((x) => x.code !== DiagnosticCode.ownKeyPlace && /protocolEra/.test(String(x.message))), `${era}: ${JSON.stringify(ok)}`);
    }
  });
});

describe('config language server: dev', () => {
  it('offers dev as a key of a server, watch and debug inside it, and the debugger types', async () => {
    const s = service();
    const ctx = context({ hostProvidesJsonSchema: false });
    const keys = doc(`{ "servers": { "a": { "command": "node",  } } }`);
    assert.ok(labels(await s.completions(keys, at(keys, '"node",', 8), ctx)).some((l) => l.includes('dev')));
    const inner = doc(`{ "servers": { "a": { "command": "node", "dev": {  } } } }`);
    const devKeys = labels(await s.completions(inner, at(inner, '"dev": {', 9), ctx)).map((l) => l.replace(/"/g, ''));
    assert.deepEqual(devKeys.sort(), ['debug', 'watch']);
    const type = doc(`{ "servers": { "a": { "command": "node", "dev": { "watch": "src/**", "debug": { "type": "" } } } } }`);
    assert.deepEqual(
      labels(await s.completions(type, at(type, '"type": "', 9), ctx))
        .map((l) => l.replace(/"/g, ''))
        .sort(),
      ['debugpy', 'node'],
    );
  });

  it('explains dev, dev.watch and dev.debug on hover', async () => {
    const d = doc(`{ "servers": { "a": { "command": "node", "dev": { "watch": ["src/**/*.ts"], "debug": { "type": "node" } } } } }`);
    const s = service();
    const ctx = context({ hostProvidesJsonSchema: false });
    assert.match(hoverText(await s.hover(d, at(d, '"dev"', 2), ctx)), /restarts the server when a matching file changes/);
    assert.match(hoverText(await s.hover(d, at(d, '"watch"', 2), ctx)), /Relative globs start at the server's `cwd`/);
    assert.match(hoverText(await s.hover(d, at(d, '"debug"', 2), ctx)), /under the debugger/);
  });

  it('reports a watch that is not a glob, and accepts one glob or a list', async () => {
    const bad = await service().diagnostics(doc(`{ "servers": { "a": { "command": "node", "dev": { "watch": 3 } } } }`), context());
    assert.ok(
      bad.some((x) => /"dev.watch" of server "a" must be a glob or a list of globs/.test(String(x.message))),
      JSON.stringify(bad),
    );
    for (const watch of ['"src/**"', '["src/**", "lib/*.js"]']) {
      const ok = await service().diagnostics(
        doc(`{ "servers": { "a": { "command": "node", "dev": { "watch": ${watch}, "debug": { "type": "node" } } } } }`),
        context(),
      );
      assert.deepEqual(ok, [], watch);
    }
  });
});

describe('config language server: hovers', () => {
  it('shows what a variable resolves to', async () => {
    const d = doc(`{ "servers": { "a": { "command": "node", "args": ["\${workspaceFolder}/x", "\${env:HOME}", "\${env:GITHUB_TOKEN}", "\${nope}"] } } }`);
    const s = service();
    assert.match(hoverText(await s.hover(d, at(d, 'workspaceFolder}'), context())), /Value: `\/work\/ws`/);
    assert.match(hoverText(await s.hover(d, at(d, 'env:HOME'), context())), /Value: `\/home\/me`/);
    const token = hoverText(await s.hover(d, at(d, 'env:GITHUB'), context()));
    assert.match(token, /••••••••/);
    assert.doesNotMatch(token, /ghp_/);
    assert.match(hoverText(await s.hover(d, at(d, 'nope'), context())), /unknown variable/);
  });

  it('shows an input definition and its stored value, masked for passwords', async () => {
    const asked: unknown[] = [];
    const s = service(async (params) => {
      asked.push(params);
      return params.secret ? { stored: true } : { stored: true, value: 'eu-west' };
    });
    const d = doc(`{ "servers": { "a": { "command": "node", "env": { "T": "\${input:tok}", "R": "\${input:region}" } } },
  "inputs": [{ "id": "tok", "description": "API token", "password": true }, { "id": "region", "description": "Region" }] }`);
    const tok = hoverText(await s.hover(d, at(d, 'input:tok'), context()));
    assert.match(tok, /API token \(promptString, password\)/);
    assert.match(tok, /Stored value: ••••••••/);
    assert.match(hoverText(await s.hover(d, at(d, 'input:region'), context())), /Stored value: `eu-west`/);
    assert.deepEqual(asked, [
      { file: `${WORKSPACE}/.vscode/mcp.json`, id: 'tok', secret: true },
      { file: `${WORKSPACE}/.vscode/mcp.json`, id: 'region', secret: false },
    ]);
  });

  it('shows what the file says (input descriptions, names) as text, not as markdown', async () => {
    const d = doc(`{ "servers": { "a": { "command": "node", "env": { "T": "\${input:x![p](https://evil.example/p.png)}", "U": "\${env:A[c](command:q)}" } } },
  "inputs": [{ "id": "x![p](https://evil.example/p.png)", "description": "![pixel](https://evil.example/p.png) [run](command:workbench.action.quit)" }] }`);
    const s = service(async () => ({ stored: true, value: 'v`![q](https://evil.example/q.png)`' }));
    for (const marker of ['input:x', 'env:A']) {
      const text = hoverText(await s.hover(d, at(d, marker), context()));
      assert.ok(text.length > 0, marker);
      // Outside code, every bracket is escaped: no image loads and no link forms.
      const outside = text.replace(/(`+)[^`]*?\1(?!`)/g, '');
      assert.doesNotMatch(outside, /(^|[^\\])[[\]]/, text);
    }
  });

  it('shows key documentation from the schema when VS Code JSON support is absent', async () => {
    const d = doc(`{ "servers": { "a": { "command": "node", "envFile": ".env" } } }`);
    assert.match(hoverText(await service().hover(d, at(d, 'envFile', 2), context({ hostProvidesJsonSchema: false }))), /dotenv file/);
  });
});

describe('config language server: code actions', () => {
  it('adds a missing input definition', async () => {
    const { d, actions } = await fixes(
      `{
  "servers": { "a": { "command": "node", "env": { "K": "\${input:api-token}" } } }
}`,
      DiagnosticCode.inputUndefined,
    );
    assert.equal(actions[0].title, 'Add input "api-token" to "inputs"');
    const fixed = JSON.parse(apply(d, actions[0]));
    assert.deepEqual(fixed.inputs, [{ type: 'promptString', id: 'api-token', description: 'api-token', password: true }]);
  });

  it('appends to an existing inputs array', async () => {
    const { d, actions } = await fixes(
      `{
  "servers": { "a": { "command": "node", "env": { "K": "\${input:region}", "L": "\${input:x}" } } },
  "inputs": [{ "id": "x" }]
}`,
      DiagnosticCode.inputUndefined,
    );
    assert.deepEqual(JSON.parse(apply(d, actions[0])).inputs, [{ id: 'x' }, { type: 'promptString', id: 'region', description: 'region' }]);
  });

  it('normalises a type dialect', async () => {
    const { d, actions } = await fixes(`{ "servers": { "a": { "type": "streamable-http", "url": "https://x.example/mcp" } } }`, DiagnosticCode.typeDialect);
    assert.equal(JSON.parse(apply(d, actions[0])).servers.a.type, 'http');
  });

  it('moves a literal secret into a password input', async () => {
    const { d, actions } = await fixes(
      `{
  "servers": {
    "api": { "type": "http", "url": "https://x.example/mcp", "headers": { "Authorization": "Bearer abcdefghij1234567890KLMNOP" } }
  }
}`,
      DiagnosticCode.secretLiteral,
    );
    const fixed = JSON.parse(apply(d, actions[0]));
    assert.equal(fixed.servers.api.headers.Authorization, 'Bearer ${input:api-authorization}');
    assert.deepEqual(fixed.inputs, [{ type: 'promptString', id: 'api-authorization', description: 'Authorization for api', password: true }]);
  });

  it('replaces an unknown variable with the suggestion', async () => {
    const { d, actions } = await fixes(`{ "servers": { "a": { "command": "node", "args": ["\${workspacefolder}/x"] } } }`, DiagnosticCode.variableUnknown);
    assert.deepEqual(JSON.parse(apply(d, actions[0])).servers.a.args, ['${workspaceFolder}/x']);
  });

  it('offers "did you mean" for a misspelt key, and no unrelated refactoring there', async () => {
    for (const [typo, key] of [
      ['comand', 'command'],
      ['agrs', 'args'],
      ['enviroment', 'env'],
      ['Url', 'url'],
      ['protocolera', 'protocolEra'],
      ['header', 'headers'],
    ]) {
      const { d, actions } = await fixes(
        `{ "servers": { "a": { "${typo}": "x", "command": "node" } } }`.replace(key === 'command' ? ', "command": "node"' : '\u0000', ''),
        DiagnosticCode.keyTypo,
      );
      assert.deepEqual(
        actions.map((a) => a.title),
        [`Did you mean "${key}"?`],
        typo,
      );
      assert.ok(actions[0].isPreferred);
      assert.ok(key in JSON.parse(apply(d, actions[0])).servers.a, typo);
    }
  });

  it('converts between servers and mcpServers', async () => {
    const d = doc(`{ "mcpServers": { "a": { "command": "node" } } }`, `${WORKSPACE}/.mcp.json`);
    const s = service();
    const actions = s.codeActions(d, { start: at(d, '"a"'), end: at(d, '"a"') }, [], { platform: 'linux' });
    const convert = actions.find((a) => a.title.startsWith('Convert to "servers"'))!;
    assert.deepEqual(JSON.parse(apply(d, convert)), { servers: { a: { command: 'node' } } });
    const back = doc(`{ "servers": { "a": { "command": "node" } } }`);
    const toClaude = s.codeActions(back, { start: at(back, 'servers'), end: at(back, 'servers') }, [], { platform: 'linux' });
    assert.ok(toClaude.some((a) => a.title.startsWith('Convert to "mcpServers"')));
  });

  it('wraps npx in cmd /c only on Windows', async () => {
    const d = doc(`{ "servers": { "a": { "command": "npx", "args": ["-y", "pkg"] } } }`);
    const s = service();
    const range = { start: at(d, 'npx'), end: at(d, 'npx') };
    assert.equal(
      s.codeActions(d, range, [], { platform: 'linux' }).some((a) => a.title.includes('cmd /c')),
      false,
    );
    const wrap = s.codeActions(d, range, [], { platform: 'win32' }).find((a) => a.title.includes('cmd /c'))!;
    assert.deepEqual(JSON.parse(apply(d, wrap)).servers.a, { command: 'cmd', args: ['/c', 'npx', '-y', 'pkg'] });
  });
});

describe('config language server: document links', () => {
  it('links existing paths in args, cwd and envFile', () => {
    const d = doc(
      `{ "servers": { "a": { "command": "node", "args": ["-y", "\${workspaceFolder}/server.js", "./missing.js"], "cwd": "src", "envFile": ".env" } } }`,
    );
    const links = service().links(d, context());
    assert.deepEqual(
      links.map((l) => l.target),
      [`file://${WORKSPACE}/server.js`, `file://${WORKSPACE}/src`, `file://${WORKSPACE}/.env`],
    );
  });
});

describe("config language server: VS Code's sandbox keys", () => {
  it('offers sandboxEnabled in a stdio entry and sandbox at the top level, and a file using them has no diagnostics', async () => {
    const s = service();
    const entry = doc(`{ "servers": { "a": { "command": "node",  } } }`);
    const keys = await s.completions(entry, at(entry, '"node",', 8), context({ hostProvidesJsonSchema: false }));
    assert.ok(
      labels(keys).some((l) => l.includes('sandboxEnabled')),
      labels(keys).join(', '),
    );
    const top = doc(`{ "servers": {},  }`);
    const topKeys = await s.completions(top, at(top, '{},', 4), context({ hostProvidesJsonSchema: false }));
    assert.ok(
      labels(topKeys).some((l) => l.includes('sandbox')),
      labels(topKeys).join(', '),
    );
    const clean = await s.diagnostics(
      doc(`{
  "sandbox": { "filesystem": { "allowWrite": ["\${workspaceFolder}/out"], "denyRead": ["~/.ssh"] }, "network": { "allowedDomains": [] } },
  "servers": { "a": { "command": "node", "sandboxEnabled": true } }
}`),
      context(),
    );
    assert.deepEqual(clean, []);
  });
});
