/**
 * The read-only `mcp-workbench-resource:` file system: one file per (server, resource URI), named so
 * the editor picks a language or the image preview. Contents are read through the server's
 * connection and cached while a document shows them; `refresh()` re-reads and tells the
 * editor the file changed (driven by `notifications/resources/updated`).
 *
 * URI shape: `mcp-workbench-resource:/<encoded server id>/<encoded resource uri>/<file name>`. The
 * server id sits in the path, not the authority: VS Code lower-cases authorities when it
 * formats URIs, and server ids are case-sensitive (they contain config file paths).
 */
import * as vscode from 'vscode';
import { ProtocolError, ResourceNotFoundError, SdkError, SdkErrorCode, type ReadResourceResult } from '@modelcontextprotocol/client';
import { isTextMime, resourceFileName } from './common/resourceNames';
import type { McpServerConnection } from '../mcp/connection/serverConnection';
import type { ServerRegistry } from '../mcp/serverRegistry';
import { showWarningMessage } from '../shared/notifications';
import { errorMessage } from '../shared/common/errors';

/**
 * Not `mcp-resource`: VS Code's own MCP support registers that scheme (1.139 does, even with
 * `chat.mcp.access` "none"), and a second provider for a scheme is refused.
 */
export const RESOURCE_SCHEME = 'mcp-workbench-resource';
/**
 * Whether a resources/read failed because the server has no such resource: 2025-11-25 servers
 * answer -32002, 2026-07-28 (and the v2 SDK on every era) -32602 with the `uri` in its data.
 */
export function isResourceNotFound(error: unknown): boolean {
  if (error instanceof ResourceNotFoundError) return true;
  if (!(error instanceof ProtocolError)) return false;
  return error.code === -32002 || (error.code === -32602 && /not found/i.test(error.message));
}

export interface ResourceDocumentId {
  serverId: string;
  resourceUri: string;
  fileName: string;
}

export function resourceDocumentUri(serverId: string, resourceUri: string, fileName: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RESOURCE_SCHEME, path: `/${encodeURIComponent(serverId)}/${encodeURIComponent(resourceUri)}/${fileName}` });
}

export function parseResourceDocumentUri(uri: vscode.Uri): ResourceDocumentId | undefined {
  if (uri.scheme !== RESOURCE_SCHEME) return undefined;
  const segments = uri.path.split('/');
  if (segments.length !== 4 || segments[0] !== '') return undefined;
  try {
    return { serverId: decodeURIComponent(segments[1]), resourceUri: decodeURIComponent(segments[2]), fileName: segments[3] };
  } catch {
    return undefined;
  }
}

export function resourceKey(serverId: string, resourceUri: string): string {
  return `${serverId}\n${resourceUri}`;
}

/** What one `resources/read` gave for the resource, as bytes. */
export interface ResourceContent {
  data: Uint8Array;
  mimeType: string | undefined;
  /** True when the server sent `blob` (base64) rather than `text`. */
  isBlob: boolean;
  /** True when the bytes are text to show in a text editor. */
  isText: boolean;
  fileName: string;
  mtime: number;
}

/** Picks the content for the requested URI from a read result (servers may return several). */
export function toResourceContent(resourceUri: string, result: ReadResourceResult, mtime: number): ResourceContent {
  const contents = result.contents ?? [];
  const content = contents.find((c) => c.uri === resourceUri) ?? contents[0];
  if (!content) throw new Error('the server returned no contents');
  const mimeType = content.mimeType;
  if ('text' in content && typeof content.text === 'string') {
    return {
      data: new TextEncoder().encode(content.text),
      mimeType,
      isBlob: false,
      isText: true,
      fileName: resourceFileName(resourceUri, mimeType, false),
      mtime,
    };
  }
  if ('blob' in content && typeof content.blob === 'string') {
    const data = new Uint8Array(Buffer.from(content.blob, 'base64'));
    return { data, mimeType, isBlob: true, isText: isTextMime(mimeType), fileName: resourceFileName(resourceUri, mimeType, true), mtime };
  }
  throw new Error('the server returned contents with neither text nor blob');
}

/** A message for the user that names the server and the URI; undefined for a cancelled read. */
export function describeReadError(serverLabel: string, resourceUri: string, error: unknown): string | undefined {
  if ((error as { name?: string })?.name === 'AbortError') return undefined;
  const message = errorMessage(error).replace(/^MCP error -?\d+: /, '');
  if (isResourceNotFound(error)) return vscode.l10n.t('MCP server "{0}" has no resource {1} (resource not found).', serverLabel, resourceUri);
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout && /cancel|abort/i.test(message)) return undefined;
  return vscode.l10n.t('Could not read resource {0} from MCP server "{1}": {2}', resourceUri, serverLabel, message);
}

export class ResourceFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly cache = new Map<string, ResourceContent>();
  /** Re-reads in flight per key; a refresh asked for meanwhile runs once more afterwards. */
  private readonly refreshing = new Map<string, { again: boolean }>();
  private lastMtime = 0;
  private readonly onDidChangeFileEmitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.onDidChangeFileEmitter.event;

  constructor(private readonly registry: ServerRegistry) {}

  /** Reads a resource from its server now (no cache); rejects with the connection's error. */
  async read(connection: McpServerConnection, resourceUri: string, signal?: AbortSignal): Promise<ResourceContent> {
    const result = await connection.readResource(resourceUri, { signal });
    return toResourceContent(resourceUri, result, this.nextMtime());
  }

  /** Stores freshly read content; if a document already shows different bytes, it is told to reload. */
  put(serverId: string, resourceUri: string, content: ResourceContent): vscode.Uri {
    const key = resourceKey(serverId, resourceUri);
    const previous = this.cache.get(key);
    this.cache.set(key, content);
    const uri = resourceDocumentUri(serverId, resourceUri, content.fileName);
    if (previous && !sameBytes(previous.data, content.data)) {
      this.onDidChangeFileEmitter.fire([{ type: vscode.FileChangeType.Changed, uri: resourceDocumentUri(serverId, resourceUri, previous.fileName) }]);
    }
    return uri;
  }

  /** Forgets cached contents except those of the given keys (the ones still open). */
  retainOnly(openKeys: ReadonlySet<string>): void {
    for (const key of [...this.cache.keys()]) if (!openKeys.has(key)) this.cache.delete(key);
  }

  /** Re-reads a cached resource and fires a change so open editors reload. */
  async refresh(serverId: string, resourceUri: string): Promise<void> {
    const key = resourceKey(serverId, resourceUri);
    const running = this.refreshing.get(key);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.refreshing.set(key, state);
    try {
      do {
        state.again = false;
        const connection = this.registry.get(serverId);
        if (!connection?.client || !this.cache.has(key)) return;
        try {
          this.put(serverId, resourceUri, await this.read(connection, resourceUri));
        } catch (error) {
          void showWarningMessage(
            describeReadError(connection.definition.label, resourceUri, error) ?? vscode.l10n.t('Reading {0} again was cancelled.', resourceUri),
          );
          return;
        }
      } while (state.again);
    } finally {
      this.refreshing.delete(key);
    }
  }

  watch(): vscode.Disposable {
    // Changes are pushed through subscriptions (see resourceSubscriptions.ts), not polled.
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const id = parseResourceDocumentUri(uri);
    if (!id) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0, permissions: vscode.FilePermission.Readonly };
    const content = await this.contentFor(id);
    return {
      type: vscode.FileType.File,
      ctime: content.mtime,
      mtime: content.mtime,
      size: content.data.byteLength,
      permissions: vscode.FilePermission.Readonly,
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const id = parseResourceDocumentUri(uri);
    if (!id) throw vscode.FileSystemError.FileIsADirectory(uri);
    return (await this.contentFor(id)).data;
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  writeFile(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  dispose(): void {
    this.onDidChangeFileEmitter.dispose();
    this.cache.clear();
  }

  /** Cached content, or a read (e.g. an editor restored after a reload), waiting for a starting server. */
  private async contentFor(id: ResourceDocumentId): Promise<ResourceContent> {
    const key = resourceKey(id.serverId, id.resourceUri);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const connection = this.registry.get(id.serverId) ?? this.registry.find(id.serverId);
    if (!connection)
      throw vscode.FileSystemError.Unavailable(vscode.l10n.t('No MCP server with id "{0}" is configured (resource {1}).', id.serverId, id.resourceUri));
    if (connection.state.kind === 'starting') await waitForSettled(connection, 30_000);
    if (!connection.client) {
      throw vscode.FileSystemError.Unavailable(
        vscode.l10n.t('MCP server "{0}" is not running; start it to read {1}.', connection.definition.label, id.resourceUri),
      );
    }
    try {
      const content = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading {0} from {1}…', id.resourceUri, connection.definition.label) },
        () => this.read(connection, id.resourceUri),
      );
      this.cache.set(key, content);
      return content;
    } catch (error) {
      const message = describeReadError(connection.definition.label, id.resourceUri, error) ?? vscode.l10n.t('Reading {0} was cancelled.', id.resourceUri);
      throw isResourceNotFound(error) ? vscode.FileSystemError.FileNotFound(message) : vscode.FileSystemError.Unavailable(message);
    }
  }

  /** Strictly increasing, so every re-read looks newer to the editor's reload check. */
  private nextMtime(): number {
    this.lastMtime = Math.max(Date.now(), this.lastMtime + 1);
    return this.lastMtime;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

function waitForSettled(connection: McpServerConnection, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    const sub = connection.onDidChangeState((s) => {
      if (s.kind !== 'starting') done();
    });
    function done() {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    }
  });
}
