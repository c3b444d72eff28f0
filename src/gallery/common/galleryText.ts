/**
 * Registry text (titles, descriptions) as quick pick text. Pure. The registry is a remote
 * service anyone can publish to: its text is shown as the characters it is.
 */
import { revealControlCharacters } from '../../shared/common/untrustedText';
import type { RegistryEntry } from './registryTypes';
import { transportSummary } from './registryTypes';

const MAX_TEXT = 200;

/**
 * Quick picks draw `$(name)` in labels, descriptions and details as an icon, with no escape;
 * a hair space after the `$` keeps the text readable and draws no icon (a registry entry
 * could otherwise dress itself in `$(verified)`). Line breaks become spaces.
 */
export function plainForQuickPick(text: string, max = MAX_TEXT): string {
  const flat = revealControlCharacters(text).replace(/\s+/g, ' ').trim().replace(/\$\(/g, '$\u200A(');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** What a registry entry looks like in the picker (texts only; the glue adds icons). */
export function entryTexts(entry: RegistryEntry): { label: string; description: string; detail: string; deprecated: boolean } {
  const { server, official } = entry;
  const deprecated = official.status === 'deprecated';
  const label = plainForQuickPick(server.title || server.name.split('/').pop() || server.name, 80);
  const description = plainForQuickPick(
    [server.version && `v${server.version}`, transportSummary(server) || 'no packages or remotes'].filter(Boolean).join(' · '),
  );
  const detail = plainForQuickPick(
    [deprecated ? `Deprecated${official.statusMessage ? `: ${official.statusMessage}` : ''}.` : '', server.description, `(${server.name})`]
      .filter(Boolean)
      .join(' '),
  );
  return { label, description, detail, deprecated };
}
