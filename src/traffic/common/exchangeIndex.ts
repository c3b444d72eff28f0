/**
 * The Activity log's index (activityLog.ts): entries by server, the direction of their request
 * and JSON-RPC id (a Map tells 1 from "1"): looked up for every response, so without building
 * and hashing a key string per message.
 */
export class ExchangeIndex<T> {
  private readonly servers = new Map<string, { send: Map<string | number, T>; receive: Map<string | number, T> }>();

  get(serverId: string, direction: 'send' | 'receive', id: string | number): T | undefined {
    return this.servers.get(serverId)?.[direction].get(id);
  }

  set(serverId: string, direction: 'send' | 'receive', id: string | number, value: T): void {
    let ids = this.servers.get(serverId);
    if (!ids) this.servers.set(serverId, (ids = { send: new Map(), receive: new Map() }));
    ids[direction].set(id, value);
  }

  delete(serverId: string, direction: 'send' | 'receive', id: string | number): void {
    this.servers.get(serverId)?.[direction].delete(id);
  }

  /** Removes and returns every entry of a server. */
  take(serverId: string): T[] {
    const ids = this.servers.get(serverId);
    this.servers.delete(serverId);
    return ids ? [...ids.send.values(), ...ids.receive.values()] : [];
  }

  clear(): void {
    this.servers.clear();
  }
}
