/**
 * What an object that owns listeners, watchers and child objects keeps them in, so that disposing
 * it ends them all (VS Code's own `DisposableStore`, without `vscode`). Every owner used to keep an
 * array and end it with `forEach((d) => d.dispose())`: one that threw stopped the rest, and one
 * added after the owner was gone lived on.
 */

export interface DisposableLike {
  dispose(): unknown;
}

export class DisposableStore implements DisposableLike {
  private items: DisposableLike[] = [];
  private disposed = false;

  /** Keeps each; after dispose() they are disposed at once instead (the owner is gone). */
  push(...items: DisposableLike[]): void {
    if (this.disposed) {
      disposeEach(items);
      return;
    }
    this.items.push(...items);
  }

  /** Keeps one and returns it, for `const watcher = store.add(createWatcher())`. */
  add<T extends DisposableLike>(item: T): T {
    this.push(item);
    return item;
  }

  /** Disposes what it holds, in the order added, and stays usable (for sets that are replaced). */
  clear(): void {
    const items = this.items;
    this.items = [];
    disposeEach(items);
  }

  /** Disposes what it holds; later additions are disposed as they come. */
  dispose(): void {
    this.disposed = true;
    this.clear();
  }
}

/** Disposes each; one that throws does not keep the others alive (the first error is rethrown after). */
function disposeEach(items: DisposableLike[]): void {
  let failure: { error: unknown } | undefined;
  for (const item of items) {
    try {
      item.dispose();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
