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

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
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
  }
}
