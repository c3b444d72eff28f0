/**
 * The host side of a panel's webview: one typed channel instead of each panel's own
 * ready/parse/post/dispose handshake. It waits for the page's `ready` (its script ran: the CSP
 * let it, the listener is in place), validates every other message with the panel's own parser
 * (a webview is untrusted input), keeps what the panel posts before `ready` and sends it then,
 * in order, and drops everything once disposed. The page side is webview/shared/hostChannel.ts.
 *
 * A page that is not retained when hidden is re-created when shown and says `ready` again: the
 * panel's `ready` handler sends it its whole state each time (what was posted while it was
 * hidden is lost, as VS Code drops it).
 *
 * No `vscode` import: the webview is what this needs of `vscode.Webview`, so a unit test can
 * drive it (test/unit/shared/webviewChannel.test.ts).
 */

/** What the channel uses of a `vscode.Webview`. */
export interface ChannelWebview {
  postMessage(message: unknown): PromiseLike<boolean>;
  onDidReceiveMessage(listener: (message: unknown) => void): { dispose(): void };
}

export interface WebviewChannelOptions<In> {
  /** The panel's parser of what its page sends, `ready` aside: undefined for what it does not know. */
  parse(raw: unknown): In | undefined;
  /** Each valid message, in order of arrival. A rejection goes to `error`. */
  receive(message: In): void | Promise<void>;
  /** The page said `ready` (first load, or re-created after being hidden), after the queued posts went out: send its state. */
  ready?(): void | Promise<void>;
  /** A message the parser refused (logged by the panel; nothing else happens). */
  invalid?(raw: unknown): void;
  /** A `receive` or `ready` that threw or rejected: nothing a page sends may end in an unhandled rejection. */
  error(error: unknown): void;
}

/**
 * Posts kept before `ready`, at most: a page whose script never runs (blocked by its CSP) must not
 * grow the queue for good. Far more than any panel posts before its page loads.
 */
export const MAX_QUEUED_POSTS = 1000;

/** Whether a raw message is the page's `ready`. */
export function isReadyMessage(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'ready';
}

export class WebviewChannel<In, Out> {
  private queue: Out[] = [];
  private isReadyNow = false;
  private disposed = false;
  /** Posts VS Code said it could not deliver (no page there to take them): a diagnostic for tests. */
  lost = 0;
  private readonly listener: { dispose(): void };
  /** Resolves when the page first said `ready` (tests wait for it: the page's script runs). */
  readonly whenReady: Promise<void>;
  private resolveReady!: () => void;

  constructor(
    private readonly webview: ChannelWebview,
    private readonly options: WebviewChannelOptions<In>,
  ) {
    this.whenReady = new Promise((resolve) => (this.resolveReady = resolve));
    this.listener = webview.onDidReceiveMessage((raw) => this.onMessage(raw));
  }

  /** Whether the page said `ready` and the channel is not disposed. */
  get isReady(): boolean {
    return this.isReadyNow && !this.disposed;
  }

  /** Sends a message to the page now, or, before its `ready`, then. Nothing after dispose. */
  post(message: Out): void {
    if (this.disposed) return;
    if (!this.isReadyNow) {
      this.queue.push(message);
      if (this.queue.length > MAX_QUEUED_POSTS) this.queue.shift();
      return;
    }
    this.send(message);
  }

  private send(message: Out): void {
    void Promise.resolve(this.webview.postMessage(message)).then(
      (delivered) => void (delivered || this.lost++),
      () => this.lost++,
    );
  }

  private onMessage(raw: unknown): void {
    if (this.disposed) return;
    if (isReadyMessage(raw)) {
      this.isReadyNow = true;
      const queued = this.queue;
      this.queue = [];
      for (const message of queued) this.send(message);
      this.resolveReady();
      this.run(() => this.options.ready?.());
      return;
    }
    const message = this.options.parse(raw);
    if (message === undefined) {
      this.options.invalid?.(raw);
      return;
    }
    this.run(() => this.options.receive(message));
  }

  private run(work: () => void | Promise<void>): void {
    try {
      const result = work();
      if (result) result.catch((error: unknown) => this.options.error(error));
    } catch (error) {
      this.options.error(error);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.queue = [];
    this.listener.dispose();
  }
}

/** For a log line: what a refused message looked like, cut short. */
export function describeRaw(raw: unknown): string {
  try {
    return String(JSON.stringify(raw)).slice(0, 200);
  } catch {
    return String(raw).slice(0, 200);
  }
}
