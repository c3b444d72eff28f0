// The page side of a panel's webview channel (the host side is src/shared/webviewChannel.ts):
// acquires the VS Code API once, posts typed messages, keeps the page's state, and, once the
// page can handle messages (`start`, called last), listens to the host, checks each message with
// the page's parser and says `ready`, which makes the host send what it queued and the state.

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export interface HostChannel<ToHost, State> {
  post(message: ToHost): void;
  /** What the page saved before it was hidden or reloaded, if anything. */
  savedState(): State | undefined;
  saveState(state: State): void;
  /**
   * Listens to the host and says `ready`. `listen` replaces the plain window listener where the
   * page must tell the host's messages from those of a frame it holds (apps/appFrame.ts).
   */
  start<FromHost>(options: {
    parse(raw: unknown): FromHost | undefined;
    receive(message: FromHost): void;
    listen?(handle: (raw: unknown) => void): void;
  }): void;
}

/** Connects the page to its panel; call once per page (VS Code hands its API out once). */
export function connectHost<ToHost, State = unknown>(): HostChannel<ToHost, State> {
  const api = acquireVsCodeApi();
  let started = false;
  return {
    post: (message) => api.postMessage(message),
    savedState: () => api.getState() as State | undefined,
    saveState: (state) => api.setState(state),
    start({ parse, receive, listen }) {
      if (started) return;
      started = true;
      const handle = (raw: unknown) => {
        const message = parse(raw);
        if (message !== undefined) receive(message);
      };
      if (listen) listen(handle);
      else window.addEventListener('message', (event: MessageEvent) => handle(event.data));
      api.postMessage({ type: 'ready' });
    },
  };
}

/** A parser for a host whose messages are trusted and typed (the extension): anything with a string `type`. */
export function typedMessage<T extends { type: string }>(raw: unknown): T | undefined {
  return typeof raw === 'object' && raw !== null && typeof (raw as { type?: unknown }).type === 'string' ? (raw as T) : undefined;
}
