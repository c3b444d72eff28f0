/**
 * The era a server was found to speak, kept per launch so that a later start, also in another
 * session of VS Code, skips the SDK's `server/discover` probe. On stdio that probe runs on a
 * disposable sibling process: without a verdict every start spawns the server twice (an
 * `npx -y` server pays its start-up twice, a server with side effects at start runs them twice).
 * How a verdict is used is in connectionTransports.ts (`legacy`: `connect({ prior })`, no probe;
 * `modern`: the probe runs in place, on the session's own process). No `vscode` import.
 */
import { createHash } from 'node:crypto';
import type { ServerDefinition } from '../../config/common/launchDefinition';
import { redactText } from '../../shared/common/redact';
import type { EraSource } from '../serverState';

/** What a start found, and when that was last checked against the server. */
export interface EraVerdict {
  era: 'modern' | 'legacy';
  /** Epoch ms of the probe that found it (not of the last start that used it). */
  at: number;
}

/**
 * Where verdicts live across connections (the extension: `globalState`). Keys are hashes of
 * the launch (`verdictKey`); values hold no server data. Without a store, verdicts last as
 * long as the connection (the conformance client, the CLI, unit tests).
 */
export interface EraVerdictStore {
  get(key: string): EraVerdict | undefined;
  /** Undefined forgets the verdict. */
  set(key: string, verdict: EraVerdict | undefined): void;
}

/**
 * How long a verdict is trusted: 30 days. A `modern` verdict is checked at every start anyway
 * (the in-place probe is one request on the session's own process), so the lifetime matters
 * for `legacy` ones only. A stale `legacy` verdict fails silently: an upgraded server still
 * answers `initialize`, and keeps working on the 2025 era without its 2026 features. Against
 * that, a verdict is dropped at once when the launch changes (a pinned version in the args, the
 * command, the cwd, the env names: a new key) and when a start on it fails; what stays stale is
 * an unpinned upgrade (`npx -y pkg`) to a server that serves both eras, which loses nothing it
 * had. 30 days makes that re-probe (one extra spawn) a monthly cost instead of a daily one.
 */
export const VERDICT_LIFETIME_MS = 30 * 24 * 60 * 60_000;

/**
 * A `legacy` verdict older than this is re-checked in the background where that is cheap: over
 * Streamable HTTP (one `server/discover` request, no session). On stdio a check would spawn the
 * server again, the very cost the verdict saves, so there it waits for VERDICT_LIFETIME_MS.
 */
export const RECHECK_AFTER_MS = 24 * 60 * 60_000;

/** Verdicts kept in this process only. */
export class MemoryEraVerdictStore implements EraVerdictStore {
  private readonly verdicts = new Map<string, EraVerdict>();
  get(key: string): EraVerdict | undefined {
    return this.verdicts.get(key);
  }
  set(key: string, verdict: EraVerdict | undefined): void {
    if (verdict) this.verdicts.set(key, verdict);
    else this.verdicts.delete(key);
  }
}

/** The part of VS Code's `Memento` (`context.globalState`) the persistent store uses. */
export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** At most this many launches are remembered; the oldest verdicts go first. */
const MAX_VERDICTS = 200;

/**
 * Verdicts in one Memento entry (`globalState`, shared by the windows of a profile). Each write
 * reads the entry again, so windows lose each other's verdicts only when they write at the
 * same moment, which costs one probe.
 *
 * What this window wrote is also kept here, over what the Memento reads back. VS Code echoes
 * every `globalState` write back to the extension host, and an echo replaces the extension's
 * whole state with the value written then (the extension host's `ExtensionMemento` sets its
 * value from `onDidChangeStorage`; the main thread's storage fires that for its own writes
 * too). So when servers start together, an echo of the first verdict's write could arrive
 * after the second was set, the second vanished from `get`, and the next write stored the list
 * without it: under load one server in four was probed again on its restart (seen in the
 * integration tests on 1.100.3).
 */
export class MementoEraVerdictStore implements EraVerdictStore {
  static readonly KEY = 'mcpWorkbench.eraVerdicts';
  /** This window's own writes since it started (undefined: forgotten), laid over the Memento's value. */
  private readonly written = new Map<string, EraVerdict | undefined>();
  constructor(
    private readonly memento: MementoLike,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): EraVerdict | undefined {
    const v = this.all()[key];
    return v && (v.era === 'modern' || v.era === 'legacy') && typeof v.at === 'number' ? { era: v.era, at: v.at } : undefined;
  }

  set(key: string, verdict: EraVerdict | undefined): void {
    this.written.set(key, verdict);
    const kept = Object.entries(this.all())
      .filter(([, v]) => typeof v?.at === 'number' && this.now() - v.at <= VERDICT_LIFETIME_MS)
      .sort(([, a], [, b]) => b.at - a.at)
      .slice(0, MAX_VERDICTS);
    // A verdict of ours that was dropped (expired, or past MAX_VERDICTS) is not laid over again.
    const keptKeys = new Set(kept.map(([k]) => k));
    for (const [k, v] of this.written) if (v && !keptKeys.has(k)) this.written.delete(k);
    void Promise.resolve(this.memento.update(MementoEraVerdictStore.KEY, Object.fromEntries(kept))).catch(() => undefined);
  }

  private all(): Record<string, EraVerdict> {
    const value = this.memento.get<Record<string, EraVerdict>>(MementoEraVerdictStore.KEY);
    const all: Record<string, EraVerdict> = value && typeof value === 'object' ? { ...value } : {};
    for (const [k, v] of this.written) {
      if (v) all[k] = v;
      else delete all[k];
    }
    return all;
  }
}

/**
 * The key of a launch: a hash of what decides which program answers. stdio: command, args,
 * cwd, env file and the NAMES of the env variables (their values are often secrets and do not
 * change the program); HTTP: the URL without user and password, and the header names. Known
 * secrets are replaced before hashing, so not even a hash of one is stored.
 */
export function verdictKey(def: ServerDefinition): string {
  const l = def.launch;
  const shape =
    l.type === 'stdio'
      ? {
          command: l.command,
          args: l.args,
          cwd: l.cwd ?? null,
          envFile: l.envFile ?? null,
          env: Object.entries(l.env)
            .map(([name, value]) => (value === null ? `-${name}` : name))
            .sort(),
        }
      : {
          type: l.type,
          url: withoutCredentials(l.url),
          headers: Object.keys(l.headers)
            .map((h) => h.toLowerCase())
            .sort(),
        };
  return createHash('sha256')
    .update(redactText(JSON.stringify(shape), def.secrets))
    .digest('hex')
    .slice(0, 32);
}

function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    return url;
  }
}

/**
 * Where the `era` of a session opened on `verdict` (if any) came from, for the log and the
 * tooltip. A `modern` verdict is confirmed by the in-place probe, or corrected by it (then the
 * era was simply probed).
 */
export function eraSourceOf(def: ServerDefinition, verdict: EraVerdict | undefined, era: 'modern' | 'legacy'): EraSource {
  if ((def.protocolEra ?? 'auto') !== 'auto' || def.launch.type === 'sse') return { kind: 'configured' };
  if (!verdict || verdict.era !== era) return { kind: 'probed' };
  return era === 'modern' ? { kind: 'remembered', since: verdict.at, confirmed: true } : { kind: 'remembered', since: verdict.at };
}

/** The verdicts of one connection: read and written through the host's store, under the rules above. */
export class EraVerdicts {
  constructor(
    private readonly store: EraVerdictStore = new MemoryEraVerdictStore(),
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Keeps what a start under `auto` found. `checked`: the era was probed by this start (or
   * re-checked); a start that only used a remembered `legacy` verdict keeps its date, so the
   * verdict still expires while the server is used every day.
   */
  remember(def: ServerDefinition, era: 'modern' | 'legacy', checked: boolean): void {
    if ((def.protocolEra ?? 'auto') !== 'auto') return;
    const key = verdictKey(def);
    const known = this.store.get(key);
    if (!checked && known?.era === era) return;
    this.store.set(key, { era, at: this.now() });
  }

  /** The verdict for this launch if it is within its lifetime and the era setting is still `auto`. */
  get(def: ServerDefinition): EraVerdict | undefined {
    if ((def.protocolEra ?? 'auto') !== 'auto') return undefined;
    const v = this.store.get(verdictKey(def));
    if (!v) return undefined;
    const age = this.now() - v.at;
    return age >= 0 && age <= VERDICT_LIFETIME_MS ? v : undefined;
  }

  /** Whether a session opened on `verdict` should have its era re-checked in the background (see RECHECK_AFTER_MS). */
  recheckDue(kind: 'stdio' | 'http' | 'sse', verdict: EraVerdict | undefined): boolean {
    return kind === 'http' && verdict?.era === 'legacy' && this.now() - verdict.at > RECHECK_AFTER_MS;
  }

  /** A start on the verdict failed: the next start probes. */
  forget(def: ServerDefinition): void {
    if (this.store.get(verdictKey(def))) this.store.set(verdictKey(def), undefined);
  }
}
