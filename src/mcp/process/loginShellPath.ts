/**
 * The login shell's PATH that stdio servers get (merged into the extension host's, see
 * `mergePaths`), without making a window's first server start wait for a login shell. Starting
 * one takes 0.5 s for a bare bash on this project's machines and seconds with nvm or oh-my-zsh,
 * and VS Code started from a terminal or the Dock usually has that PATH already, so the wait
 * bought nothing there. The answer is kept across sessions (the profile's `globalState`): a start
 * uses the one kept for the same shell at once, and the shell is asked again in the background
 * once per session, its answer serving the starts after it and the next session. A command the
 * kept PATH does not find waits for the new answer (`fresh`), so a tool installed since is found.
 * The config language server checks commands on the same PATH (`known`, `onDidAnswer`): one
 * login shell a session serves both. No `vscode` import.
 */
import type { MementoLike } from '../connection/eraVerdicts';
import { readLoginShellPath } from './commandResolution';

/** The globalState entry: the shell asked and its PATH (undefined when it could not be read). */
export const LOGIN_SHELL_PATH_KEY = 'loginShellPath';

interface KeptPath {
  shell: string;
  path: string | undefined;
}

export class LoginShellPath {
  private asked: Promise<string | undefined> | undefined;
  /** This session's answer, once the shell gave it (since the last `reset`). */
  private answered: { path: string | undefined } | undefined;
  private readonly listeners = new Set<() => void>();

  /** `shell` defaults to `$SHELL` as it is when the shell is asked. */
  constructor(
    private readonly memento: MementoLike,
    private readonly givenShell?: string,
    private readonly read: (shell: string | undefined) => Promise<string | undefined> = readLoginShellPath,
  ) {}

  private get shell(): string | undefined {
    return this.givenShell ?? process.env.SHELL;
  }

  /** The kept PATH of this shell at once (the shell is asked in the background); else the shell's answer. */
  get(): Promise<string | undefined> {
    const answer = this.ask();
    const kept = this.keptPath();
    return kept ? Promise.resolve(kept.path) : answer;
  }

  /** This session's answer of the shell (asked now if it was not yet). */
  fresh(): Promise<string | undefined> {
    return this.ask();
  }

  /** What a start would use now, without waiting or asking: this session's answer, else the kept one. */
  known(): string | undefined {
    return this.answered ? this.answered.path : this.keptPath()?.path;
  }

  /** Called when this session's answer arrives (after a `reset`, the next one's). */
  onDidAnswer(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The next `get` asks the shell again (the setting was turned off and on). */
  reset(): void {
    this.asked = undefined;
    this.answered = undefined;
  }

  private keptPath(): KeptPath | undefined {
    const kept = this.memento.get<KeptPath>(LOGIN_SHELL_PATH_KEY);
    return kept && kept.shell === this.shell ? kept : undefined;
  }

  private ask(): Promise<string | undefined> {
    if (this.asked) return this.asked;
    const shell = this.shell;
    const asked = this.read(shell).then(async (path) => {
      // Written only when it changed: each write goes to VS Code's state database, in every session.
      const kept = this.memento.get<KeptPath>(LOGIN_SHELL_PATH_KEY);
      if (shell && (kept?.shell !== shell || kept.path !== path)) {
        await this.memento.update(LOGIN_SHELL_PATH_KEY, { shell, path } satisfies KeptPath).then(undefined, () => undefined);
      }
      // An answer asked before a reset is not this session's any more.
      if (this.asked === asked) {
        this.answered = { path };
        for (const listener of [...this.listeners]) listener();
      }
      return path;
    });
    return (this.asked = asked);
  }
}
