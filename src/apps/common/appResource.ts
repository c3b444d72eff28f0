/**
 * The app's HTML and its `_meta.ui` (csp, permissions, prefersBorder) out of a `resources/read`
 * result. The content's own `_meta.ui` wins over the result's (the spec puts it on the
 * content; some servers put it on the listing or the result).
 */
import { APP_MIME_TYPE } from './appTools';

export interface AppPermissions {
  camera?: object;
  microphone?: object;
  geolocation?: object;
  clipboardWrite?: object;
}

export interface AppResource {
  html: string;
  /** `_meta.ui.csp` as declared (buildAppCsp checks it). */
  csp?: Record<string, unknown>;
  permissions?: AppPermissions;
  prefersBorder: boolean;
}

/** Largest app document accepted. */
export const MAX_APP_HTML_BYTES = 10 * 1024 * 1024;

interface ContentLike {
  uri?: unknown;
  mimeType?: unknown;
  text?: unknown;
  blob?: unknown;
  _meta?: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function uiOf(meta: unknown): Record<string, unknown> | undefined {
  return isRecord(meta) && isRecord(meta.ui) ? meta.ui : undefined;
}

function permissionsOf(raw: unknown): AppPermissions | undefined {
  if (!isRecord(raw)) return undefined;
  const out: AppPermissions = {};
  for (const key of ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const) if (isRecord(raw[key])) out[key] = {};
  return Object.keys(out).length ? out : undefined;
}

/** The app document, or a one-line reason it cannot be shown. */
export function appResourceFrom(result: { contents?: unknown; _meta?: unknown }, uri: string): AppResource | { error: string } {
  const contents = Array.isArray(result.contents) ? (result.contents as ContentLike[]) : [];
  const content =
    contents.find((c) => isRecord(c) && c.uri === uri && typeof c.mimeType === 'string' && c.mimeType.startsWith('text/html')) ??
    contents.find((c) => isRecord(c) && typeof c.mimeType === 'string' && c.mimeType.startsWith('text/html'));
  if (!content) {
    const types = contents.map((c) => (isRecord(c) ? String(c.mimeType ?? 'no mimeType') : 'malformed')).join(', ') || 'no contents';
    return { error: `The resource ${uri} has no HTML content (${APP_MIME_TYPE}); it returned: ${types}.` };
  }
  let html: string;
  if (typeof content.text === 'string') html = content.text;
  else if (typeof content.blob === 'string') html = Buffer.from(content.blob, 'base64').toString('utf8');
  else return { error: `The resource ${uri} has neither text nor blob content.` };
  if (Buffer.byteLength(html, 'utf8') > MAX_APP_HTML_BYTES) return { error: `The app document ${uri} is larger than ${MAX_APP_HTML_BYTES / 1024 / 1024} MB.` };
  const ui = { ...uiOf(result._meta), ...uiOf(content._meta) };
  return {
    html,
    ...(isRecord(ui.csp) ? { csp: ui.csp } : {}),
    ...(permissionsOf(ui.permissions) ? { permissions: permissionsOf(ui.permissions) } : {}),
    prefersBorder: ui.prefersBorder === true,
  };
}
