/**
 * VS Code glue for MCP authorization: credentials in SecretStorage per server URL, the browser
 * round trip through the extension's URI handler (or a loopback listener when the server's
 * `oauth.redirectUri` is one), the sign-in prompts, and the Sign In / Sign Out commands.
 * The OAuth logic itself is in src/mcp/auth/oauthProvider.ts and the SDK.
 */
import * as vscode from 'vscode';
import type { ServerRef } from '../shared/common/commandArgs';
import type { HttpLaunch, ServerDefinition } from '../config/common/launchDefinition';
import { isLoopbackRedirect, listenForLoopbackRedirect } from '../mcp/auth/loopbackRedirect';
import { WorkbenchOAuthProvider, parseAuthorizationResponse, type AuthorizationResponse } from '../mcp/auth/oauthProvider';
import { SecretOAuthStore } from './common/secretOAuthStore';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { ConnectionAuthHost } from '../mcp/connection/connectionTypes';
import type { Workbench } from '../workbench';
import { redactState } from '../mcp/serverState';
import { redactText } from '../shared/common/redact';
import { checkExternalUrl } from '../shared/common/urlSafety';
import { showErrorMessage, showInformationMessage, showWarningMessage, withNotificationProgress } from '../shared/notifications';
import { errorMessage } from '../shared/common/errors';
import { AuthCommands } from './common/commandIds';
import { registerCommandTable } from '../shared/commandTable';

export const CALLBACK_PATH = '/oauth/callback';
const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** Redirects that arrive at CALLBACK_PATH of the URI handler, matched to the sign-in waiting for them by `state`. */
export class OAuthCallbacks implements vscode.UriHandler {
  private readonly waiting = new Map<string, (response: AuthorizationResponse) => void>();

  handleUri(uri: vscode.Uri): void {
    const response = parseAuthorizationResponse(`http://callback/?${uri.query}`);
    const waiter = response.state !== undefined ? this.waiting.get(response.state) : undefined;
    if (waiter) waiter(response);
    else void showWarningMessage(vscode.l10n.t('MCP: an OAuth redirect arrived that no sign-in is waiting for; it was ignored.'));
  }

  wait(state: string, signal: AbortSignal): Promise<AuthorizationResponse> {
    return new Promise((resolve, reject) => {
      const done = () => this.waiting.delete(state);
      this.waiting.set(state, (response) => {
        done();
        resolve(response);
      });
      signal.addEventListener(
        'abort',
        () => {
          done();
          reject(new Error(String(signal.reason ?? 'Sign-in was cancelled.')));
        },
        { once: true },
      );
    });
  }
}

/** Opens the authorization URL in the user's browser: the one step that needs a person. */
type Browser = (authorizationUrl: string) => Thenable<boolean>;
/**
 * The URL goes to openExternal as the string it is. A vscode.Uri would percent-decode the
 * query, and a redirect_uri that has a query of its own (VS Code in a browser gives one:
 * `…/callback?vscode-reqid=…&vscode-scheme=…`) would spill into the authorization request.
 * openExternal keeps a string argument verbatim at run time, although its type says Uri. The
 * provider has checked the URL already; it is checked again right at openExternal.
 */
const systemBrowser: Browser = (url) => (checkExternalUrl(url).ok ? vscode.env.openExternal(url as unknown as vscode.Uri) : Promise.resolve(false));

/**
 * OAuth for protected HTTP servers: the credentials store, the redirects waited for, and the
 * ConnectionAuthHost every connection asks for its provider. Built by the composition root
 * before the Workbench (whose connections it serves); registerAuth adds the commands.
 */
export class AuthService implements vscode.Disposable {
  /** Opens the authorization URL; the integration tests stand in for the browser (see registerAuth). */
  browser: Browser = systemBrowser;
  readonly callbacks = new OAuthCallbacks();
  readonly store: SecretOAuthStore;
  readonly host: ConnectionAuthHost;
  private handlerUri: Promise<string> | undefined;

  /** `learnt`: a credential read or stored at run time, to be redacted everywhere (Workbench.addRuntimeSecret). */
  constructor(
    private readonly context: vscode.ExtensionContext,
    learnt: (value: string) => void,
  ) {
    this.store = new SecretOAuthStore(context.secrets, learnt);
    this.host = createAuthHost(this);
  }

  callbackUri(): Promise<string> {
    return (this.handlerUri ??= Promise.resolve(
      vscode.env.asExternalUri(vscode.Uri.parse(`${vscode.env.uriScheme}://${this.context.extension.id}${CALLBACK_PATH}`)),
    ).then((uri) => uri.toString(true)));
  }

  dispose(): void {
    this.store.dispose();
  }
}

function createAuthHost(service: AuthService): ConnectionAuthHost {
  const { store, callbacks } = service;

  /**
   * `listenOnLoopback` is for a configured loopback `oauth.redirectUri` only: the extension's
   * own callback URI can be a loopback http URL too (VS Code in a browser serves it), and that
   * one is delivered through the URI handler, not by a listener of ours.
   */
  const authorizeInBrowser =
    (server: ServerDefinition, listenOnLoopback: boolean) =>
    (authorizationUrl: URL, redirectUrl: string): Promise<AuthorizationResponse> =>
      Promise.resolve(
        withNotificationProgress(
          {
            title: vscode.l10n.t('Signing in to MCP server {0} in your browser…', server.label),
            cancellable: true,
          },
          async (_progress, token) => {
            const abort = new AbortController();
            const timer = setTimeout(() => abort.abort(vscode.l10n.t('Sign-in timed out.')), SIGN_IN_TIMEOUT_MS);
            token.onCancellationRequested(() => abort.abort(vscode.l10n.t('Sign-in was cancelled.')));
            try {
              const state = authorizationUrl.searchParams.get('state') ?? '';
              const answer =
                listenOnLoopback && isLoopbackRedirect(redirectUrl)
                  ? (await listenForLoopbackRedirect(redirectUrl, state, abort.signal)).response
                  : callbacks.wait(state, abort.signal);
              const opened = await service.browser(authorizationUrl.href);
              if (!opened) abort.abort(vscode.l10n.t('The browser was not opened.'));
              return await answer;
            } finally {
              clearTimeout(timer);
            }
          },
        ),
      );

  return {
    provider: async (server: ServerDefinition, launch: HttpLaunch) =>
      new WorkbenchOAuthProvider({
        keyPrefix: launch.url,
        store,
        redirectUrl: launch.oauth?.redirectUri ?? (await service.callbackUri()),
        settings: launch.oauth,
        clientName: 'MCP Workbench',
        authorize: authorizeInBrowser(server, launch.oauth?.redirectUri !== undefined),
      }),
    // Automatic starts never open the browser (they end in "sign-in required"); a running
    // server that asks for more is a consequence of what the user just did, so ask them.
    mayPrompt: async (server, reason) => {
      if (reason === 'start') return false;
      const signIn = vscode.l10n.t('Sign In');
      const answer = await showInformationMessage(
        vscode.l10n.t('MCP server {0} asks you to sign in again (for example for more permissions).', server.label),
        signIn,
      );
      return answer === signIn;
    },
  };
}

/** The Sign In / Sign Out commands, the sign-in prompts and the OAuth callback route over `auth`. */
export function registerAuth(workbench: Workbench, auth: AuthService): vscode.Disposable[] {
  const { callbacks } = auth;

  const find = async (arg: ServerRef | string | undefined, placeHolder: string): Promise<McpServerConnection | undefined> => {
    const id = typeof arg === 'string' ? arg : arg?.serverId;
    if (id) return workbench.registry.find(id);
    const candidates = workbench.registry.all().filter((c) => c.definition.launch.type !== 'stdio');
    if (candidates.length === 0) {
      void showInformationMessage(vscode.l10n.t('No HTTP MCP server is configured; only HTTP servers use sign-in.'));
      return undefined;
    }
    if (candidates.length === 1) return candidates[0];
    const picked = await vscode.window.showQuickPick(
      candidates.map((c) => ({
        label: c.definition.label,
        description: c.definition.launch.type !== 'stdio' ? redactText(c.definition.launch.url, c.definition.secrets) : undefined,
        detail: c.state.kind === 'needsAuth' ? vscode.l10n.t('Sign-in required') : undefined,
        connection: c,
      })),
      { placeHolder },
    );
    return picked?.connection;
  };

  const signIn = async (connection: McpServerConnection) => {
    const def = connection.definition;
    if (def.source.scope === 'workspace' && !vscode.workspace.isTrusted) {
      void showWarningMessage(vscode.l10n.t('MCP server {0} is defined by the workspace, which is not trusted.', def.label));
      return;
    }
    await connection.signIn();
  };

  const notified = new WeakSet<McpServerConnection>();
  const watch = (connection: McpServerConnection) =>
    connection.onDidChangeState((raw) => {
      const state = redactState(raw, workbench.secretsOf(connection.definition));
      if (state.kind !== 'needsAuth') {
        if (state.kind === 'running') notified.delete(connection);
        return;
      }
      if (notified.has(connection)) return;
      notified.add(connection);
      const action = vscode.l10n.t('Sign In');
      void showInformationMessage(`MCP ${connection.definition.label}: ${state.message}`, action).then((answer) => {
        notified.delete(connection);
        if (answer === action) {
          signIn(connection).catch(
            (error) => void showErrorMessage(vscode.l10n.t('Could not sign in to MCP server {0}: {1}', connection.definition.label, errorMessage(error))),
          );
        }
      });
    });

  return [
    workbench.uris.register(CALLBACK_PATH, (uri) => callbacks.handleUri(uri)),
    // For this extension's integration tests: stand in for the user's browser (which a test
    // cannot drive) and get the URI handler that the browser's redirect reaches.
    ...registerCommandTable({
      [AuthCommands.testingBrowser]: (replacement?: Browser) => {
        auth.browser = replacement ?? systemBrowser;
        return (uri: vscode.Uri) => workbench.uris.handleUri(uri);
      },
      [AuthCommands.signIn]: async (arg?: ServerRef | string) => {
        const connection = await find(arg, vscode.l10n.t('Server to sign in to'));
        if (connection) await signIn(connection);
      },
      [AuthCommands.signOut]: async (arg?: ServerRef | string) => {
        const connection = await find(arg, vscode.l10n.t('Server to sign out of'));
        if (!connection) return;
        await connection.signOut();
        void showInformationMessage(vscode.l10n.t('Signed out of MCP server {0}.', connection.definition.label));
      },
    }),
    workbench.registry.forEachConnection(watch),
  ];
}
