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

  constructor(
    private readonly fetch: (value: string, signal: AbortSignal) => Promise<string[]>,
    private readonly delayMs = 150,
  ) {}

  request(value: string): Promise<string[] | undefined> {
    const generation = ++this.generation;
    clearTimeout(this.timer);
    this.controller?.abort();
    this.controller = undefined;
    return new Promise((resolve) => {
      this.timer = setTimeout(() => {
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
    clearTimeout(this.timer);
    this.controller?.abort();
  }
}
