/**
 * Completion requests as the user types, for the quick picks that ask for a prompt's arguments
 * (src/prompts) and a resource template's variables (src/resources). Pure: timers and an
 * AbortController only.
 */

/**
 * Debounces completion requests and aborts the one a newer keystroke supersedes (the SDK
 * sends `notifications/cancelled` for it). `request` resolves undefined when superseded.
 */
export class CompletionDebouncer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private controller: AbortController | undefined;
  private generation = 0;
  /** Settles the request still waiting for its timer (undefined) when a newer one replaces it. */
  private settleWaiting: (() => void) | undefined;

  constructor(
    private readonly fetch: (value: string, signal: AbortSignal) => Promise<string[]>,
    private readonly delayMs = 150,
  ) {}

  request(value: string): Promise<string[] | undefined> {
    const generation = ++this.generation;
    this.stop();
    return new Promise((resolve) => {
      this.settleWaiting = () => resolve(undefined);
      this.timer = setTimeout(() => {
        this.settleWaiting = undefined;
        if (generation !== this.generation) return resolve(undefined);
        const controller = new AbortController();
        this.controller = controller;
        this.fetch(value, controller.signal).then(
          (values) => resolve(generation === this.generation ? values : undefined),
          () => resolve(generation === this.generation ? [] : undefined),
        );
      }, this.delayMs);
    });
  }

  dispose(): void {
    this.generation++;
    this.stop();
  }

  /** Cancels the waiting request (it resolves undefined) and aborts the one in flight. */
  private stop(): void {
    clearTimeout(this.timer);
    this.settleWaiting?.();
    this.settleWaiting = undefined;
    this.controller?.abort();
    this.controller = undefined;
  }
}
