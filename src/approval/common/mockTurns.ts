/**
 * How many requests each server's sampling mock profile has answered since the server started:
 * the turn that picks a profile's `replies` in order. Editing the profile or restarting the
 * server starts them over from the first.
 */
import type { SamplingMockProfile } from '../../config/common/samplingMockConfig';

export class MockTurns {
  private readonly turns = new Map<string, { profile: string; count: number }>();

  /** The turn of a new request (0 for the first) and counts it. */
  next(serverId: string, profile: SamplingMockProfile): number {
    const key = JSON.stringify(profile);
    const turns = this.turns.get(serverId);
    const count = turns?.profile === key ? turns.count : 0;
    this.turns.set(serverId, { profile: key, count: count + 1 });
    return count;
  }

  /** Starts a server's replies over from the first. */
  reset(serverId: string): void {
    this.turns.delete(serverId);
  }
}
