/**
 * The Content-Security-Policy an MCP App runs under, built only from what its resource declares
 * (`_meta.ui.csp`: connectDomains, resourceDomains, frameDomains, baseUriDomains) as SEP-1865
 * describes. Nothing is allowed that was not declared: no network by default, inline script and
 * style (an app is one HTML document), `data:` images, fonts and media.
 *
 * Inside that, code may run as its authors built it, as in the ext-apps reference host
 * (examples/basic-host/src/csp.ts: `script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data:`,
 * `worker-src 'self' blob:`): `'unsafe-eval'` (three.js scene code, Zod's JIT parser run through
 * `new Function`), and `blob:`/`data:` scripts and workers (pdf.js starts its worker from a
 * `blob:` URL). These do not widen what the app can reach: the isolation is the sandboxed frame
 * on its own origin (no access to the webview, VS Code or other apps) plus the network
 * directives above, which code that is eval'd or runs in a worker obeys just the same. Unlike the spec's
 * example policy there is no `'self'`: the app's origin is the local sandbox server, which has
 * nothing for it. Entries that are not plain origins (keywords, quotes, `*`, schemes like
 * `data:`) are dropped and reported, so a server cannot widen the policy by smuggling a
 * directive or a keyword into a domain.
 */

export interface AppCspDeclaration {
  connectDomains?: unknown;
  resourceDomains?: unknown;
  frameDomains?: unknown;
  baseUriDomains?: unknown;
}

export interface AppCsp {
  /** The policy, one line. */
  policy: string;
  /** The origins kept per list (for the host capabilities and the log). */
  allowed: { connect: string[]; resource: string[]; frame: string[]; baseUri: string[] };
  /** Declared entries that were not valid origins and were left out. */
  rejected: string[];
}

// scheme://host[:port][/path]; host may start with one "*." wildcard label.
const SOURCE =
  /^(https?|wss?):\/\/(\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::(?:\d{1,5}|\*))?(?:\/[a-z0-9._~%!$&()*+=:@/-]*)?$/i;
const MAX_ENTRIES = 64;

/** Whether one declared entry is a plain origin (optionally with a path) a CSP may list. */
export function isValidCspSource(entry: unknown): entry is string {
  return typeof entry === 'string' && entry.length <= 512 && SOURCE.test(entry);
}

function sources(list: unknown, rejected: string[]): string[] {
  if (!Array.isArray(list)) {
    if (list !== undefined) rejected.push(String(JSON.stringify(list)).slice(0, 100));
    return [];
  }
  const kept: string[] = [];
  for (const entry of list.slice(0, MAX_ENTRIES)) {
    if (isValidCspSource(entry)) {
      if (!kept.includes(entry)) kept.push(entry);
    } else {
      rejected.push(String(typeof entry === 'string' ? entry : JSON.stringify(entry)).slice(0, 100));
    }
  }
  return kept;
}

/** The app's policy from its declaration (undefined or malformed = the strictest policy). */
export function buildAppCsp(declared: AppCspDeclaration | undefined): AppCsp {
  const d = typeof declared === 'object' && declared !== null ? declared : {};
  const rejected: string[] = [];
  const connect = sources(d.connectDomains, rejected);
  const resource = sources(d.resourceDomains, rejected);
  const frame = sources(d.frameDomains, rejected);
  const baseUri = sources(d.baseUriDomains, rejected);
  const list = (items: string[], fallback: string) => (items.length ? items.join(' ') : fallback);
  const withResources = (base: string) => [base, ...resource].join(' ');
  const policy = [
    "default-src 'none'",
    withResources("script-src 'unsafe-inline' 'unsafe-eval' blob: data:"),
    withResources('worker-src blob: data:'),
    withResources("style-src 'unsafe-inline'"),
    withResources('img-src data: blob:'),
    withResources('font-src data:'),
    withResources('media-src data: blob:'),
    `connect-src ${list(connect, "'none'")}`,
    `frame-src ${list(frame, "'none'")}`,
    "object-src 'none'",
    `base-uri ${list(baseUri, "'none'")}`,
    "form-action 'none'",
  ].join('; ');
  return { policy, allowed: { connect, resource, frame, baseUri }, rejected };
}
