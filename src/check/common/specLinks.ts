/**
 * Links to the spec section a finding is about, for the revision the server speaks: a
 * 2026-07-28 server is pointed at the 2026-07-28 text, a 2025 one at the revision it
 * negotiated (2025-11-25 when it is not one the site publishes).
 */
import type { CheckInput, SpecSection } from './checkTypes';

const PUBLISHED = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

/** The spec revision whose text applies to this server. */
export function specRevision(input: Pick<CheckInput, 'protocolVersion' | 'era'>): string {
  if (PUBLISHED.includes(input.protocolVersion)) return input.protocolVersion;
  return input.era === 'modern' ? '2026-07-28' : '2025-11-25';
}

/** `path` below the revision (e.g. `server/tools`), `anchor` a heading's slug. */
export function specSection(input: Pick<CheckInput, 'protocolVersion' | 'era'>, title: string, path: string, anchor?: string): SpecSection {
  return { title, url: `https://modelcontextprotocol.io/specification/${specRevision(input)}/${path}${anchor ? `#${anchor}` : ''}` };
}
