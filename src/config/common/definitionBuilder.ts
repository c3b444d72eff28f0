/**
 * Turns parsed config documents into resolved `ServerDefinition`s. Pure: the caller gives the
 * folders, environment and known input values; nothing here prompts or reads files.
 */
import * as path from 'node:path';
import { urlSecrets } from '../../shared/common/redact';
import { assignLabels, parseEnvFile, type Launch, type ServerDefinition, type ServerSource } from './launchDefinition';
import {
  mergeTimeouts,
  positionAt,
  type InputDefinition,
  type ParsedConfig,
  type ProtocolEraSetting,
  type ServerEntry,
  type TimeoutSettings,
} from './serverConfig';
import { isSecretHeaderName, SECRET_ENV } from './secretNames';
import { envNamesUsed, inputIdsUsed, resolveEntry, resolveString, type VariableContext } from './variables';
import { resolveSandbox } from './entryPolicy';
import { OAUTH_SECRET_FIELDS, oauthField, oauthSecrets } from './oauthConfig';
import { resolveSamplingMock } from './samplingMockConfig';
import { launchTarget } from './launchTarget';

export interface ConfigDocument {
  /** Source without `line`; each server's line is filled in here. */
  source: ServerSource;
  parsed: ParsedConfig;
  /** The file's text, for line numbers; absent for settings. */
  text?: string;
  /** Folder that `${workspaceFolder}` and relative paths mean for this document. */
  folderPath?: string;
  /** Default working directory and base of relative paths, when not `folderPath` (other apps' user-level files: the home directory). */
  cwd?: string;
}

export interface BuildContext {
  workspaceFolders: ReadonlyArray<{ name: string; path: string }>;
  userHome: string;
  env: Readonly<Record<string, string | undefined>>;
  defaultTimeouts: TimeoutSettings;
  /** The era for entries without `protocolEra` (the mcpWorkbench.protocolEra setting); absent means `auto`. */
  defaultProtocolEra?: ProtocolEraSetting;
  /**
   * The stored value of an input, keyed by `inputKey(document, id)`, if it may go to `target`
   * (the server's launchTarget): a value entered for another target counts as missing, so it
   * is asked for again instead of following an edited config.
   */
  inputValue(doc: ConfigDocument, input: InputDefinition, target: string): string | undefined;
}

/** Identity of a stored input value: the config file it is defined in, and its id. */
export function inputKey(source: ServerSource, id: string): string {
  return `${source.file ?? source.label}#${id}`;
}

export function buildDefinitions(docs: readonly ConfigDocument[], ctx: BuildContext): ServerDefinition[] {
  const defs: ServerDefinition[] = [];
  for (const doc of docs) {
    for (const server of doc.parsed.servers) {
      const source: ServerSource = { ...doc.source, line: doc.text !== undefined ? positionAt(doc.text, server.offset).line : undefined };
      const inputs: Record<string, string> = {};
      const missingInputs: string[] = [];
      const undefinedInputs: string[] = [];
      const secrets: string[] = [];
      const target = launchTarget(server.entry, { workspaceFolder: doc.folderPath, workspaceFolders: ctx.workspaceFolders, userHome: ctx.userHome });
      for (const id of inputIdsUsed(server.entry)) {
        const input = doc.parsed.inputs.find((i) => i.id === id);
        if (!input) {
          undefinedInputs.push(id);
          continue;
        }
        const value = ctx.inputValue(doc, input, target);
        if (value === undefined) missingInputs.push(id);
        else {
          inputs[id] = value;
          if (input.password || inputInCredentials(server.entry, id)) secrets.push(value);
        }
      }
      const vars: VariableContext = {
        workspaceFolder: doc.folderPath,
        workspaceFolders: ctx.workspaceFolders,
        userHome: ctx.userHome,
        env: ctx.env,
        inputs,
      };
      const { entry, errors } = resolveEntry(server.entry, vars);
      // Unresolved inputs are reported through missingInputs, not as errors.
      const realErrors = errors.filter((e) => !/^\$\{input:.*has no value\.$/.test(e));
      for (const id of undefinedInputs) {
        realErrors.push(`\${input:${id}} is used but no input with id "${id}" is defined in "inputs" of ${doc.source.label}.`);
      }
      // Values of ${env:…} that reach the server's environment, headers or URL may be credentials.
      const raw = server.entry;
      for (const text of [...Object.values(raw.env ?? {}), ...Object.values(raw.headers ?? {}), raw.url]) {
        for (const name of envNamesUsed(text)) secrets.push(ctx.env[name] ?? '');
      }
      const base = doc.cwd ?? doc.folderPath ?? ctx.workspaceFolders[0]?.path ?? ctx.userHome;
      const absolute = (p: string | undefined) => (p === undefined ? undefined : path.resolve(base, p));
      let launch: Launch;
      if (entry.type === 'stdio') {
        launch = {
          type: 'stdio',
          command: entry.command ?? '',
          args: entry.args ?? [],
          env: entry.env ?? {},
          cwd: absolute(entry.cwd) ?? base,
          ...(entry.envFile ? { envFile: absolute(entry.envFile) } : {}),
          // VS Code's sandbox: the file's `sandbox` (or the entry's own) applies only with `sandboxEnabled`.
          ...(entry.sandboxEnabled
            ? {
                sandbox: resolveSandbox(
                  doc.parsed.sandbox,
                  raw.sandbox,
                  (t) => resolveString(t, vars, realErrors),
                  ctx.userHome,
                  (p) => absolute(p)!,
                ),
              }
            : {}),
        };
        for (const [k, v] of Object.entries(entry.env ?? {})) if (v && SECRET_ENV.test(k)) secrets.push(v);
      } else {
        launch = { type: entry.type, url: entry.url ?? '', headers: entry.headers ?? {}, ...(entry.oauth ? { oauth: entry.oauth } : {}) };
        secrets.push(...oauthSecrets(entry.oauth));
        for (const field of OAUTH_SECRET_FIELDS) {
          for (const name of envNamesUsed(raw.oauth && oauthField(raw.oauth, field))) secrets.push(ctx.env[name] ?? '');
        }
        if (doc.source.scope === 'workspace') realErrors.push(...workspaceSecretRouting(raw));
        for (const [k, v] of Object.entries(entry.headers ?? {})) {
          if (isSecretHeaderName(k)) secrets.push(v, v.replace(/^(Bearer|Basic|Token)\s+/i, ''));
        }
        // A key or signature in the query, or a user name and password, shows wherever the URL does.
        secrets.push(...urlSecrets(entry.url ?? ''));
      }
      const samplingMock = resolveSamplingMock(server.entry.sampling, doc.parsed.samplingMocks ?? [], doc.source.label);
      defs.push({
        id: `${doc.source.file ?? doc.source.label}::${server.name}`,
        name: server.name,
        label: server.name,
        source,
        disabled: entry.disabled ?? false,
        timeouts: mergeTimeouts(ctx.defaultTimeouts, entry.timeouts),
        protocolEra: entry.protocolEra ?? ctx.defaultProtocolEra ?? 'auto',
        // A broken entry stays listed with its reason; its other errors follow from it.
        error: server.broken
          ? `${server.broken} (${doc.source.label})`
          : realErrors.length
            ? `Server "${server.name}" in ${doc.source.label}: ${realErrors.join(' ')}`
            : undefined,
        missingInputs: missingInputs.length && !server.broken ? missingInputs : undefined,
        launch,
        target,
        secrets: [...new Set(secrets.filter(Boolean))],
        ...(samplingMock ? { samplingMock } : {}),
        ...(server.entry.toolLists ? { toolLists: server.entry.toolLists } : {}),
        entry: server.entry,
      });
    }
  }
  assignLabels(defs);
  return defs;
}

/** Every value of an `envFile` text: all of them reach the server's environment and may be credentials. */
export function envFileSecrets(text: string): string[] {
  return Object.values(parseEnvFile(text)).filter(Boolean);
}

/**
 * A workspace file may reference a secret, not route one. Its `${input:…}` values are its own
 * (typed for this file, kept in secret storage per file), but the environment and files on
 * disk hold secrets meant for other places. Everything an http/sse entry sends goes where the
 * file says (its `url`, or the authorization server its server names), so no field that
 * travels (`url`, `headers`, `oauth`) may read `${env:…}` or a path from a workspace file.
 * A stdio server is different: it runs here and inherits the environment anyway.
 */
export function workspaceSecretRouting(entry: ServerEntry): string[] {
  const problems: string[] = [];
  const readsHost = (value: string | undefined) => value !== undefined && /\$\{(env:|userHome|workspaceFolder)/.test(value);
  const refuse = (field: string) =>
    problems.push(
      `"${field}" may not read \${env:…} or a path in a workspace file: a workspace may send a secret you typed for it (\${input:…}), not one from your environment. Use an input, or define the server in your user settings (mcpWorkbench.servers).`,
    );
  if (readsHost(entry.url)) refuse('url');
  for (const [name, value] of Object.entries(entry.headers ?? {})) if (readsHost(value)) refuse(`headers.${name}`);
  const o = entry.oauth;
  if (!o) return problems;
  for (const field of OAUTH_SECRET_FIELDS) if (readsHost(oauthField(o, field))) refuse(`oauth.${field}`);
  if (o.assertionFile) {
    problems.push(
      '"oauth.assertionFile" is not read from a workspace file: a workspace may not send the contents of a file on your machine to an authorization server it names. Use an input, or define the server in your user settings (mcpWorkbench.servers).',
    );
  }
  return problems;
}

/** Whether `${input:id}` is used in a header, the URL or an `oauth` secret, where its value travels as a credential. */
function inputInCredentials(entry: ServerEntry, id: string): boolean {
  const oauth = entry.oauth ? OAUTH_SECRET_FIELDS.map((f) => oauthField(entry.oauth!, f) ?? '') : [];
  return [...Object.values(entry.headers ?? {}), entry.url ?? '', ...oauth].some((text) => text.includes(`\${input:${id}}`));
}
