/**
 * The stdio transport of MCP servers, with the process owned here instead of inside the SDK.
 * The SDK's StdioClientTransport keeps its child private and reports only "closed", so a crash
 * message had to read its private `_process` and an oversized message its error text: an SDK
 * upgrade could break both without a sound. Owning the spawn gives, through public Node and SDK
 * API only (`serializeMessage`, `deserializeMessage`):
 * - the exit code or signal of the process (`exit`),
 * - a typed overflow (`oversized`, MessageTooLargeError) when one message outgrows the limit,
 * - a process group on POSIX, so what the server started is ended with it, whether the user
 *   stopped it or it crashed (the group outlives its leader; the orphans would not be findable).
 *
 * Era negotiation: the SDK probes `server/discover` on a disposable sibling process for its own
 * stdio class; it recognises that class by shape (`_serverParams`, an own `_dispose` on the
 * prototype), which this class provides, so the probe never spends the session's process. A
 * subclass (InPlaceProbe…) probes in place. Pinned by test/unit/mcp/ownedStdioTransport.test.ts.
 * No `vscode` import.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { asError } from '../../shared/common/errors';
import { endWithThisProcess } from './processTree';

export interface OwnedStdioParams {
  command: string;
  args?: string[];
  /** The whole environment of the process (undefined values are left out). */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** A `cmd /c` line already quoted for cmd.exe (stdioSpawn.ts). */
  windowsVerbatimArguments?: boolean;
  /** `pipe`: readable at `stderr` from construction on, so no early line is lost. */
  stderr?: 'pipe' | 'ignore';
  /** Largest message the server may send, in bytes (default 10 MB, the SDK's). */
  maxBufferSize?: number;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** One message (a line of stdout) outgrew the limit; the process is stopped. */
export class MessageTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The server sent a message larger than ${limit} bytes.`);
    this.name = 'MessageTooLargeError';
  }
}

const usesGroups = process.platform !== 'win32';

/**
 * The longest stretch, in milliseconds, spent handing stdout lines to the SDK before the event
 * loop gets a turn. A server that floods (100,000 log notifications at once) would otherwise
 * hold the extension host for each 64 KB chunk it sends, and every other server's answers, and
 * every other extension, would wait behind it. Past this the rest waits for the next turn
 * (setImmediate); past a backlog the pipe is paused, so the server waits instead of our memory
 * growing.
 * A single answer (the usual chunk) is always handed over at once.
 */
const READ_SLICE_MS = 0.25;
/**
 * Chunks of stdout (up to 64 KB each) read but not yet handed over before the pipe is paused.
 * Small on purpose: whatever is read ahead is in front of the server's next answer (with 16,
 * a call to a flooding server took 2-3x as long as with 1).
 */
const MAX_QUEUED_CHUNKS = 1;

export class OwnedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** How the process ended, once it has. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Set when the process was stopped because one message outgrew this many bytes. */
  oversized: number | undefined;

  private child: ChildProcess | undefined;
  private readonly stderrStream: PassThrough | null;
  private readonly limit: number;
  /** The unfinished line: chunks without a newline yet, and their total size. */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** Chunks of stdout not yet split into lines, and how far into the first one we are. */
  private queued: Buffer[] = [];
  private queuedOffset = 0;
  /** A drain is waiting for the next turn of the event loop. */
  private yielded = false;
  /** The process and its pipes closed while lines were still queued: the close is reported after them. */
  private closing = false;
  private exited: Promise<void> | undefined;

  /** Read by the SDK's era negotiation to spawn a disposable probe sibling (see the header). */
  readonly _serverParams: OwnedStdioParams;
  /**
   * The SDK's line codec, read once: in the bundle the SDK is loaded lazily (esbuild.mjs), so
   * every read of one of its names goes through two getters, and these two run per message.
   */
  private readonly serialize = serializeMessage;
  private readonly deserialize = deserializeMessage;

  constructor(params: OwnedStdioParams) {
    this._serverParams = params;
    this.limit = params.maxBufferSize ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.stderrStream = params.stderr === 'pipe' ? new PassThrough() : null;
  }

  get stderr(): PassThrough | null {
    return this.stderrStream;
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('OwnedStdioTransport already started.');
    const p = this._serverParams;
    return new Promise((resolve, reject) => {
      const child = spawn(p.command, p.args ?? [], {
        env: Object.fromEntries(Object.entries(p.env ?? process.env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv,
        cwd: p.cwd,
        stdio: ['pipe', 'pipe', p.stderr === 'pipe' ? 'pipe' : 'ignore'],
        // Its own process group: signals reach the children too, even after it is gone.
        detached: usesGroups,
        shell: false,
        windowsHide: true,
        windowsVerbatimArguments: p.windowsVerbatimArguments,
      });
      this.child = child;
      // Also when the extension host exits before this server is stopped (VS Code closing).
      const forget = child.pid !== undefined ? endWithThisProcess(child.pid, usesGroups) : () => undefined;
      this.exited = new Promise((done) =>
        child.once('exit', (code, signal) => {
          forget();
          this.exit = { code, signal };
          // Once the server is gone, what it started has no one to serve: it ends too, whether the
          // user stopped the server or it crashed (a child holding its stdout would also keep
          // 'close', and so the crash report, from coming).
          if (this.signalGroup('SIGTERM')) setTimeout(() => this.signalGroup('SIGKILL'), 1000).unref();
          done();
        }),
      );
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      // 'close' comes after 'exit' and the end of its output: the exit code is known by then.
      child.once('close', () => {
        // Whatever the server wrote before it ended is handed over (in slices) before the close.
        if (!this.queued.length) return this.onclose?.();
        this.closing = true;
        if (!this.yielded) this.drain();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      if (this.stderrStream && child.stderr) child.stderr.pipe(this.stderrStream);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.exit) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(this.serialize(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * The spec's shutdown: close stdin, wait, SIGTERM, wait, SIGKILL; the signals go to the
   * whole process group, so the server's children end with it.
   */
  async close(): Promise<void> {
    const child = this.child;
    if (child?.pid && !this.exit) {
      try {
        child.stdin?.end();
      } catch {
        // Already closed.
      }
      if (!(await this.exitWithin(2000))) {
        this.kill('SIGTERM');
        if (!(await this.exitWithin(2000))) this.kill('SIGKILL');
      }
    }
    this.partial = [];
    this.partialBytes = 0;
    this.queued = [];
    this.queuedOffset = 0;
  }

  /** The SDK's reaper of a probe sibling: signal first, wait for the exit. */
  async _dispose(): Promise<void> {
    if (this.child?.pid && !this.exit) {
      try {
        this.child.stdin?.end();
      } catch {
        // Already closed.
      }
      this.kill('SIGTERM');
      if (!(await this.exitWithin(1000))) this.kill('SIGKILL');
      await this.exited;
    }
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
  }

  private exitWithin(ms: number): Promise<boolean> {
    if (!this.exited) return Promise.resolve(true);
    return Promise.race([this.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
  }

  private kill(signal: NodeJS.Signals): void {
    if (this.signalGroup(signal)) return;
    try {
      this.child?.kill(signal);
    } catch {
      // Already gone.
    }
  }

  /** Signals the process group; false when there is none (Windows) or it is gone. */
  private signalGroup(signal: NodeJS.Signals): boolean {
    const pid = this.child?.pid;
    if (!usesGroups || !pid) return false;
    try {
      process.kill(-pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  private read(chunk: Buffer): void {
    this.queued.push(chunk);
    if (!this.yielded) this.drain();
  }

  private readonly resumeDrain = () => {
    this.yielded = false;
    this.drain();
  };

  /**
   * Splits the queued stdout into lines, without copying what was buffered for each chunk, and
   * delivers them for up to READ_SLICE_MS; the rest waits for the next turn of the event loop.
   */
  private drain(): void {
    const started = performance.now();
    while (this.queued.length) {
      const chunk = this.queued[0];
      const nl = chunk.indexOf(0x0a, this.queuedOffset);
      if (nl === -1) {
        // The rest of the chunk is an unfinished line.
        if (this.queuedOffset < chunk.length) {
          const rest = this.queuedOffset ? chunk.subarray(this.queuedOffset) : chunk;
          this.partial.push(rest);
          this.partialBytes += rest.length;
        }
        this.queued.shift();
        this.queuedOffset = 0;
        if (this.partialBytes > this.limit) return this.overflow();
        continue;
      }
      const piece = chunk.subarray(this.queuedOffset, nl);
      const line = this.partialBytes ? Buffer.concat([...this.partial, piece]) : piece;
      this.partial = [];
      this.partialBytes = 0;
      this.queuedOffset = nl + 1;
      if (line.length > this.limit) return this.overflow();
      this.deliver(line);
      const more = this.queuedOffset < chunk.length || this.queued.length > 1;
      if (more && performance.now() - started >= READ_SLICE_MS) {
        this.yielded = true;
        // Reading goes on meanwhile; only a backlog pauses the pipe (so the server waits).
        if (this.queued.length > MAX_QUEUED_CHUNKS) this.child?.stdout?.pause();
        setImmediate(this.resumeDrain);
        return;
      }
    }
    if (this.child?.stdout?.isPaused()) this.child.stdout.resume();
    if (this.closing) {
      this.closing = false;
      this.onclose?.();
    }
  }

  private deliver(line: Buffer): void {
    // A CRLF line: its \r is left out by where the text ends (no regular expression per message).
    const text = line.toString('utf8', 0, line.length > 0 && line[line.length - 1] === 13 ? line.length - 1 : line.length);
    if (!text.trim()) return;
    let message: JSONRPCMessage;
    try {
      message = this.deserialize(text);
    } catch (error) {
      // Not a JSON-RPC message (a stray console.log): reported, skipped, the session goes on.
      this.onerror?.(asError(error));
      return;
    }
    this.onmessage?.(message);
  }

  private overflow(): void {
    this.partial = [];
    this.partialBytes = 0;
    this.queued = [];
    this.queuedOffset = 0;
    if (this.closing) {
      this.closing = false;
      this.onclose?.();
    }
    if (this.oversized) return;
    this.oversized = this.limit;
    this.onerror?.(new MessageTooLargeError(this.limit));
    this.close().catch(() => undefined);
  }
}
