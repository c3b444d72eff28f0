/**
 * Which URIs may go where. Whether a URL a server chose (an elicitation in URL mode, an OAuth
 * authorization endpoint) may be opened outside VS Code: only https, or http on a loopback
 * host; never `command:`, `file:`, `vscode:`, `javascript:` or any other scheme, and never with
 * credentials in it. Also the parts the panel shows prominently.
 */
export type UrlCheck = { ok: true; url: string; domain: string; loopback: boolean } | { ok: false; reason: string; domain?: string };

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Whether a URL a server chose may be opened outside VS Code (see above): elicitations, OAuth sign-in. */
export function checkExternalUrl(raw: string): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'it is not a valid absolute URL' };
  }
  const domain = url.hostname;
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: `the scheme "${url.protocol}" is not allowed (only https, or http on this computer)`, ...(domain ? { domain } : {}) };
  if (!domain) return { ok: false, reason: 'it has no host' };
  const loopback = isLoopbackHost(domain);
  if (url.protocol === 'http:' && !loopback)
    return { ok: false, reason: 'plain http is allowed only for this computer (localhost); other sites must use https', domain };
  if (url.username || url.password) return { ok: false, reason: 'it contains a user name or password', domain };
  return { ok: true, url: url.toString(), domain, loopback };
}

/** The check for URL-mode elicitations (the same rules as every URL opened outside). */
export const checkElicitationUrl = checkExternalUrl;

/** A workspace folder as roots need it: its URI as a string, and its name. */
export interface FolderForRoot {
  uri: string;
  name: string;
}

/**
 * The roots offered to servers (`roots/list`) for the workspace folders. The MCP spec requires
 * `file://` URIs: a folder of a remote or virtual file system (`vscode-remote:`,
 * `vscode-vfs:`) means nothing to a server, so it is left out (and listed, to be logged).
 */
export function workspaceRoots(folders: readonly FolderForRoot[]): { roots: { uri: string; name: string }[]; skipped: FolderForRoot[] } {
  const isFile = (f: FolderForRoot) => /^file:/i.test(f.uri);
  return { roots: folders.filter(isFile).map((f) => ({ uri: f.uri, name: f.name })), skipped: folders.filter((f) => !isFile(f)) };
}
