/**
 * What the language server's features know about the machine and the workspace: injected so
 * every feature is a pure function of (document, context) and can be tested on fixtures.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface OtherServer {
  name: string;
  /** Where it is defined, e.g. `folder-b/.mcp.json`. */
  where: string;
}

/** `.vscode/mcp-workbench.json` beside a `.vscode/mcp.json` (src/config/common/ownKeys/workbenchFile.ts). */
export interface WorkbenchFileContext {
  uri: string;
  /** Its text (the open editor's, else the disk's), undefined when it does not exist. */
  text: string | undefined;
  /** The open document's version, when it is open. */
  version?: number;
}

export interface LanguageContext {
  /** Absolute path of the document, when it is a file. */
  filePath?: string;
  /** The workspace folder holding the document: `${workspaceFolder}` and relative paths. */
  folderPath?: string;
  workspaceFolders: ReadonlyArray<{ name: string; path: string }>;
  userHome: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The PATH stdio servers are spawned with (VS Code's, merged with the login shell's). */
  pathValue: string;
  /** True when `pathValue` includes the login shell's directories. */
  loginShellPath: boolean;
  platform: NodeJS.Platform;
  /** What is on disk; injected so tests use fixtures. */
  stat(p: string): 'file' | 'directory' | undefined;
  /** A file's text, or undefined; injected like `stat`. Defaults to reading the disk. */
  readText?(p: string): string | undefined;
  isExecutableFile?(p: string): boolean;
  /** Servers of the workspace's other config files, for duplicate names. */
  otherServers: readonly OtherServer[];
  /** For `.vscode/mcp.json`: the file beside it that holds MCP Workbench's own keys. */
  workbenchFile?: WorkbenchFileContext;
  /** VS Code's JSON language features validate and complete against the schema already. */
  hostProvidesJsonSchema: boolean;
}

export function statOnDisk(p: string): 'file' | 'directory' | undefined {
  try {
    const s = fs.statSync(p);
    return s.isDirectory() ? 'directory' : s.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

/** The folder `${workspaceFolder}` means for a file: the workspace folder containing it, the deepest one. */
export function folderOf(filePath: string, folders: ReadonlyArray<{ name: string; path: string }>): string | undefined {
  let best: string | undefined;
  for (const f of folders) {
    const rel = path.relative(f.path, filePath);
    if (!rel.startsWith('..') && !path.isAbsolute(rel) && (!best || f.path.length > best.length)) best = f.path;
  }
  return best;
}

export function readTextOnDisk(p: string): string | undefined {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
}
