/** Fixture documents and a fake machine for the config language server's unit tests. */
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { McpConfigService } from '../../../src/configLanguage/server/mcpConfigService';
import { loadSchema } from '../../../src/configLanguage/server/schemaService';
import type { LanguageContext } from '../../../src/configLanguage/server/serverContext';

export const SCHEMA_FILE = path.resolve(__dirname, '../../../../schemas/mcp-config.schema.json');
export const WORKSPACE = '/work/ws';

export function doc(text: string, file = `${WORKSPACE}/.vscode/mcp.json`, version = 1): TextDocument {
  return TextDocument.create(`file://${file}`, 'jsonc', version, text);
}

/** Files and directories that "exist"; executables are the files under /usr/bin. */
export function context(overrides: Partial<LanguageContext> = {}, disk: Record<string, 'file' | 'directory'> = {}): LanguageContext {
  const files: Record<string, 'file' | 'directory'> = {
    [WORKSPACE]: 'directory',
    [`${WORKSPACE}/src`]: 'directory',
    [`${WORKSPACE}/server.js`]: 'file',
    [`${WORKSPACE}/.env`]: 'file',
    '/usr/bin/node': 'file',
    '/usr/bin/npx': 'file',
    ...disk,
  };
  return {
    filePath: `${WORKSPACE}/.vscode/mcp.json`,
    folderPath: WORKSPACE,
    workspaceFolders: [{ name: 'ws', path: WORKSPACE }],
    userHome: '/home/me',
    env: { PATH: '/usr/bin', HOME: '/home/me', GITHUB_TOKEN: 'ghp_secretvalue123' },
    pathValue: '/usr/bin',
    loginShellPath: false,
    platform: 'linux',
    stat: (p) => files[p],
    isExecutableFile: (p) => files[p] === 'file' && p.startsWith('/usr/bin/'),
    otherServers: [],
    hostProvidesJsonSchema: true,
    ...overrides,
  };
}

export function service(inputValue?: ConstructorParameters<typeof McpConfigService>[1]): McpConfigService {
  return new McpConfigService(loadSchema(SCHEMA_FILE), inputValue);
}

/** Position of the first occurrence of `marker` in the document (plus `delta` characters). */
export function at(d: TextDocument, marker: string, delta = 0) {
  const i = d.getText().indexOf(marker);
  if (i < 0) throw new Error(`marker ${marker} not found`);
  return d.positionAt(i + delta);
}
