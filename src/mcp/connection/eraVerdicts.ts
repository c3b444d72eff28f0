/**
 * The era a server was found to speak, kept so a restart of the same launch skips the
 * `server/discover` probe (`connect({ prior })`). The probe costs a round trip, and on stdio a
 * second short-lived process (the SDK probes on a disposable sibling), so without this every
 * restart would spawn the server twice. No `vscode` import.
 */
import type { DiscoverResult, PriorDiscovery } from '@modelcontextprotocol/client';
import { launchKey, type ServerDefinition } from '../../config/common/launchDefinition';

/**
 * How long a verdict is trusted. A stale `legacy` verdict would keep an upgraded server on the
 * old handshake without any error, so verdicts are for quick restarts (config edits, the
 * debugger, a crash), not for the whole day.
 */
const VERDICT_TTL_MS = 10 * 60_000;

export class EraVerdicts {
  private verdict: { key: string; at: number; prior: PriorDiscovery } | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** Keeps what a start under `auto` found; other settings need no verdict. */
  remember(def: ServerDefinition, era: 'modern' | 'legacy', discover: DiscoverResult | undefined): void {
    if ((def.protocolEra ?? 'auto') !== 'auto') return;
    const prior: PriorDiscovery | undefined = era === 'modern' ? (discover ? { kind: 'modern', discover } : undefined) : { kind: 'legacy' };
    this.verdict = prior && { key: launchKey(def), at: this.now(), prior };
  }

  /** The verdict for this launch if it is recent and the era setting is still `auto`. */
  get(def: ServerDefinition): PriorDiscovery | undefined {
    const v = this.verdict;
    if (!v || (def.protocolEra ?? 'auto') !== 'auto' || v.key !== launchKey(def) || this.now() - v.at > VERDICT_TTL_MS) return undefined;
    return v.prior;
  }

  forget(): void {
    this.verdict = undefined;
  }
}
