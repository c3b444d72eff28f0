/**
 * Codes of the config language server's diagnostics. Quick fixes (and tests) find the
 * diagnostics they act on by these codes, never by message text.
 */
export const DiagnosticCode = {
  /** A problem the extension's config parser reports (the same text as when it loads the file). */
  parse: 'mcp.parse',
  commandNotFound: 'mcp.command-not-found',
  cwdMissing: 'mcp.cwd-missing',
  envFileMissing: 'mcp.envfile-missing',
  inputUndefined: 'mcp.input-undefined',
  inputUnused: 'mcp.input-unused',
  variableUnknown: 'mcp.variable-unknown',
  workspaceFolderUnknown: 'mcp.workspace-folder-unknown',
  envUnset: 'mcp.env-unset',
  serverDuplicate: 'mcp.server-duplicate',
  typeDialect: 'mcp.type-dialect',
  urlOnStdio: 'mcp.url-on-stdio',
  commandOnHttp: 'mcp.command-on-http',
  urlInvalid: 'mcp.url-invalid',
  urlInsecure: 'mcp.url-insecure',
  secretLiteral: 'mcp.secret-literal',
  /** An unknown key of a server entry that looks like a misspelt known key (`comand`). */
  keyTypo: 'mcp.key-typo',
  /** `sampling.mock` names a profile the file's `samplingMocks` does not define. */
  samplingMockUnknown: 'mcp.sampling-mock-unknown',
  /** MCP Workbench's own key in VS Code's mcp.json, which VS Code flags: it belongs in .vscode/mcp-workbench.json. */
  ownKeyPlace: 'mcp.own-key-place',
  /** Schema validation, when the server does it itself (VS Code's JSON features are off). */
  schema: 'mcp.schema',
} as const;

export type DiagnosticCodeValue = (typeof DiagnosticCode)[keyof typeof DiagnosticCode];

/** The diagnostics' `source`: short, as in the Problems panel. */
export const DIAGNOSTIC_SOURCE = 'MCP';

/** `data` of diagnostics that carry what their quick fix needs. */
export interface SecretLiteralData {
  server: string;
  field: 'env' | 'headers' | 'oauth';
  /** The key in `field` (a dotted path under `oauth`, e.g. `idp.clientSecret`). */
  key: string;
  /** Text kept in front of the secret (e.g. `Bearer `); empty when the whole value is the secret. */
  prefix: string;
  suggestedId: string;
}
export interface InputUndefinedData {
  id: string;
}
export interface KeyTypoData {
  /** The known key the quick fix renames it to. */
  suggestion: string;
}
export interface VariableUnknownData {
  suggestion?: string;
}
export interface OwnKeyPlaceData {
  /** The server whose entry has the key; absent for a top-level key (`samplingMocks`). */
  server?: string;
  key: string;
  /** `.vscode/mcp-workbench.json` sets the key for the server already: this one is not used. */
  ignored?: true;
}
