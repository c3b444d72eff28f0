/**
 * How an MCP resource is shown in the editor: which file name (and so which language or
 * preview) it gets, and whether its bytes are text, an image or something to save.
 */

/** Extensions per MIME type; the first is used when a name needs one. */
const MIME_EXTENSIONS: Record<string, string[]> = {
  'text/plain': ['.txt', '.text', '.log'],
  'text/markdown': ['.md', '.markdown'],
  'text/x-markdown': ['.md', '.markdown'],
  'text/html': ['.html', '.htm'],
  'text/css': ['.css'],
  'text/csv': ['.csv'],
  'text/xml': ['.xml'],
  'text/yaml': ['.yaml', '.yml'],
  'text/x-yaml': ['.yaml', '.yml'],
  'application/yaml': ['.yaml', '.yml'],
  'application/x-yaml': ['.yaml', '.yml'],
  'text/javascript': ['.js', '.mjs', '.cjs'],
  'application/javascript': ['.js', '.mjs', '.cjs'],
  'text/typescript': ['.ts'],
  'application/typescript': ['.ts'],
  'text/x-typescript': ['.ts'],
  'text/x-python': ['.py'],
  'text/x-rust': ['.rs'],
  'text/x-go': ['.go'],
  'text/x-java': ['.java'],
  'text/x-c': ['.c', '.h'],
  'text/x-c++': ['.cpp', '.hpp'],
  'text/x-sh': ['.sh'],
  'application/x-sh': ['.sh'],
  'application/sql': ['.sql'],
  'text/x-sql': ['.sql'],
  'application/json': ['.json'],
  'application/ld+json': ['.jsonld', '.json'],
  'application/schema+json': ['.json'],
  'application/x-ndjson': ['.jsonl', '.ndjson'],
  'application/jsonl': ['.jsonl'],
  'application/xml': ['.xml'],
  'application/toml': ['.toml'],
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/gif': ['.gif'],
  'image/webp': ['.webp'],
  'image/svg+xml': ['.svg'],
  'image/bmp': ['.bmp'],
  'image/x-icon': ['.ico'],
  'image/vnd.microsoft.icon': ['.ico'],
  'application/pdf': ['.pdf'],
  'application/zip': ['.zip'],
  'application/gzip': ['.gz'],
  'application/octet-stream': ['.bin'],
  'audio/mpeg': ['.mp3'],
  'audio/wav': ['.wav'],
  'video/mp4': ['.mp4'],
};

/** MIME types that say nothing about the content: a URI's own extension wins over them. */
const GENERIC = new Set(['text/plain', 'application/octet-stream']);

/** Extensions VS Code's built-in image preview opens. */
const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.bmp', '.ico', '.svg']);

function baseMime(mimeType: string | undefined): string | undefined {
  return mimeType?.split(';')[0]?.trim().toLowerCase() || undefined;
}

export function extensionForMime(mimeType: string | undefined): string | undefined {
  const mime = baseMime(mimeType);
  if (!mime) return undefined;
  const known = MIME_EXTENSIONS[mime];
  if (known) return known[0];
  if (mime.endsWith('+json')) return '.json';
  if (mime.endsWith('+xml')) return '.xml';
  return undefined;
}

/** True for MIME types whose bytes are text, so a blob of that type can be shown as text. */
export function isTextMime(mimeType: string | undefined): boolean {
  const mime = baseMime(mimeType);
  if (!mime) return false;
  if (mime === 'image/svg+xml') return false;
  return mime.startsWith('text/') || /[/+](json|xml|yaml|toml|javascript|typescript|sql|x-sh|jsonl|x-ndjson)$/.test(mime);
}

export function isImageName(fileName: string): boolean {
  return IMAGE_EXTENSIONS.has(extensionOf(fileName) ?? '');
}

function extensionOf(name: string): string | undefined {
  const m = /(\.[A-Za-z0-9]{1,10})$/.exec(name);
  return m && m.index > 0 ? m[1].toLowerCase() : undefined;
}

/** The last path segment of a resource URI (without query or fragment), decoded and made file-name safe. */
export function lastSegment(resourceUri: string): string {
  const noQuery = resourceUri.replace(/[?#].*$/, '');
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:(?:\/\/([^/]*))?(.*)$/.exec(noQuery);
  const authority = m?.[1] ?? '';
  const path = m ? m[2] : noQuery;
  // `docs://guide` names its resource in the authority.
  const segment = path.split('/').filter(Boolean).pop() ?? authority.replace(/^.*@/, '');
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // keep it encoded
  }
  return decoded.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').slice(0, 120);
}

/**
 * The file name a resource is shown under: the URI's last segment, with an extension from
 * the MIME type unless the segment already has a fitting one (or the MIME type is generic).
 */
export function resourceFileName(resourceUri: string, mimeType: string | undefined, isBlob: boolean): string {
  const base = lastSegment(resourceUri) || 'resource';
  const own = extensionOf(base);
  const mime = baseMime(mimeType);
  const fromMime = extensionForMime(mime);
  if (own && (!mime || GENERIC.has(mime) || !fromMime || (MIME_EXTENSIONS[mime] ?? [fromMime]).includes(own))) return base;
  return base + (fromMime ?? (isBlob && !isTextMime(mime) ? '.bin' : '.txt'));
}
