/**
 * A minimal event emitter with the shape of `vscode.Event`, so modules that must run
 * outside VS Code (connections in unit tests and the conformance client) can still offer
 * events the extension subscribes to directly.
 */
export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (e: T) => void) => Disposable;

export class Emitter<T> implements Disposable {
  private listeners = new Set<(e: T) => void>();
  /** The listeners as of the last change, so that firing (per message, for some) copies nothing. */
  private snapshot: readonly ((e: T) => void)[] | undefined;

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    this.snapshot = undefined;
    return {
      dispose: () => {
        this.listeners.delete(listener);
        this.snapshot = undefined;
      },
    };
  };

  fire(value: T): void {
    // A listener added or removed while firing does not change who hears this event.
    const listeners = (this.snapshot ??= [...this.listeners]);
    for (const listener of listeners) {
      try {
        listener(value);
      } catch (error) {
        // A faulty listener must not break the others or the connection that fires.
        console.error('MCP Workbench: event listener failed', error);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
    this.snapshot = undefined;
  }
}
