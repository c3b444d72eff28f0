/**
 * A server's skills (Skills over MCP, SEP-2640), on the SDK's SkillsClient: the listing, cached
 * like the other lists (whole, per session, good for the server's `ttlMs` on 2026-07-28, fetched
 * again on `notifications/resources/list_changed`, the signal the extension uses for a changed
 * catalog), and verified reads of a skill's SKILL.md.
 *
 * Listing never reads a skill's files: a host must not fetch them ahead of need (SEP-2640,
 * "no prefetch"); SKILL.md is read only when the user opens a skill, offers it to chat, or runs
 * Check Server. Every read is verified by the SDK (size, digest, and SKILL.md's frontmatter
 * against the listed entry); a mismatch throws SkillVerificationError, whose details go to
 * the server log here so callers can show one line. No `vscode` import.
 */
import type { Client, RequestOptions } from '@modelcontextprotocol/client';
import {
  SKILLS_EXTENSION_ID,
  SkillsClient,
  SkillVerificationError,
  type InvalidSkillEntry,
  type Skill,
  type SkillFile,
} from '@modelcontextprotocol/client/ext/skills';
import { Emitter } from '../../shared/common/emitter';
import { errorMessage } from '../../shared/common/errors';
import type { ServerLog } from './connectionTypes';

export { SkillVerificationError, type InvalidSkillEntry, type Skill, type SkillFile };

/** What the skills need from the connection that owns them. */
export interface SkillsHost {
  /** The running server's capabilities, or undefined when it does not run. */
  capabilities(): Record<string, unknown> | undefined;
  /** Runs a request on the current session (with the connection's re-authorization). */
  request<T>(method: string, run: (client: Client) => Promise<T>): Promise<T>;
  requestOptions(method: string): RequestOptions;
  readonly log: ServerLog;
}

/** A skill listing: the valid entries and the ones the SDK refused (kept for Check Server). */
export interface SkillListing {
  skills: Skill[];
  invalid: InvalidSkillEntry[];
}

/** A server cannot pin its listing longer than a day (as for the other lists). */
const MAX_TTL_MS = 86_400_000;

/** Whether capabilities declare the skills extension. */
export function offersSkills(capabilities: Record<string, unknown> | undefined): boolean {
  const extensions = capabilities?.extensions;
  const value = typeof extensions === 'object' && extensions !== null ? (extensions as Record<string, unknown>)[SKILLS_EXTENSION_ID] : undefined;
  // As the SDK reads it: an object (maybe empty); anything else is no declaration.
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class ServerSkills {
  private listing: SkillListing | undefined;
  private expiresAt: number | undefined;
  /** Bumped by `clear` and by each fetch: only the newest fetch of this session fills the cache. */
  private epoch = 0;
  private pending: Promise<SkillListing> | undefined;
  private readonly onDidChangeEmitter = new Emitter<void>();
  /** Fires when the listing changed (fetched with other contents, or cleared). */
  readonly onDidChange = this.onDidChangeEmitter.event;

  constructor(
    private readonly host: SkillsHost,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the running server offers skills. */
  get offered(): boolean {
    return offersSkills(this.host.capabilities());
  }

  /** The cached listing, or undefined when not fetched yet (or not offered). */
  cached(): SkillListing | undefined {
    return this.listing;
  }

  /** Forgets the listing (the session started, stopped or was lost). */
  clear(): void {
    this.epoch++;
    this.pending = undefined;
    this.expiresAt = undefined;
    if (this.listing) {
      this.listing = undefined;
      this.onDidChangeEmitter.fire();
    }
  }

  /** The listing, from cache while fresh; an empty one when the server offers no skills. */
  async list(): Promise<SkillListing> {
    if (this.listing && (this.expiresAt === undefined || this.now() < this.expiresAt)) return this.listing;
    return this.pending ?? this.refresh();
  }

  /**
   * Fetches the listing again (all pages). `list` shares a fetch under way; a refresh always
   * fetches (a change notice must see the newest catalog), and only the newest fetch is kept.
   */
  refresh(): Promise<SkillListing> {
    if (!this.offered) return Promise.resolve({ skills: [], invalid: [] });
    const epoch = ++this.epoch;
    const fetch = this.host
      .request('skills/list', async (client) => {
        // skipInvalid: one bad entry must not hide the good ones; Check Server reports the others.
        const result = await new SkillsClient(client, { skipInvalid: true }).list({}, this.host.requestOptions('skills/list'));
        return { listing: { skills: result.skills, invalid: result.invalid }, ttlMs: client.getProtocolEra() === 'modern' ? result.ttlMs : undefined };
      })
      .then(
        ({ listing, ttlMs }) => {
          if (epoch !== this.epoch) return listing;
          if (this.pending === fetch) this.pending = undefined;
          const same = JSON.stringify(this.listing) === JSON.stringify(listing);
          this.listing = listing;
          this.expiresAt = ttlMs === undefined ? undefined : this.now() + Math.min(Math.max(ttlMs, 0), MAX_TTL_MS);
          for (const bad of listing.invalid)
            this.host.log.log('warn', `skills/list: entry #${bad.index}${bad.uri ? ` (${bad.uri})` : ''} is invalid and was skipped: ${bad.reason}`);
          if (!same) this.onDidChangeEmitter.fire();
          return listing;
        },
        (error: unknown) => {
          if (this.pending === fetch) this.pending = undefined;
          this.host.log.log('warn', `Listing skills failed: ${errorMessage(error)}`);
          throw error;
        },
      );
    this.pending = fetch;
    return fetch;
  }

  /** The server said its resources changed: the catalog may have too. */
  changed(): void {
    if (this.offered) this.refresh().catch(() => undefined);
  }

  /**
   * Reads a skill's SKILL.md (or `ref`, a file of the skill) from the server, fresh, and
   * verifies it against the entry. A refusal is logged with its details and rethrown.
   */
  async read(skill: Skill, ref?: string): Promise<SkillFile> {
    try {
      return await this.host.request('resources/read', (client) =>
        new SkillsClient(client).read(skill, ref, { ...this.host.requestOptions('resources/read'), cacheMode: 'refresh' }),
      );
    } catch (error) {
      if (error instanceof SkillVerificationError) {
        const lines = [`Refused skill ${skill.uri}: ${error.reason} check failed. ${error.message}`, ...error.differences.map((d) => `  ${d}`)];
        this.host.log.log('error', lines.join('\n'));
      }
      throw error;
    }
  }

  dispose(): void {
    this.onDidChangeEmitter.dispose();
  }
}
