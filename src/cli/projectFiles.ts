/**
 * What the command line reads from disk for a test file: the project's MCP config above it,
 * its stored snapshots, and the `*.mcptest.json` files of a folder. Node only (no `vscode`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConfigDocument } from '../config/common/definitionBuilder';
import { configDocument, PROJECT_CONFIG_FILES } from '../mcpTests/common/testServer';

/** The nearest folder at or above `dir` that has `.vscode/mcp.json` or `.mcp.json`, with those files. */
export function projectConfig(dir: string): { folder?: string; configs: ConfigDocument[] } {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const found = PROJECT_CONFIG_FILES.map((name) => path.join(current, name)).filter((file) => fs.existsSync(file));
    if (found.length) return { folder: current, configs: found.map((file) => configDocument(file, fs.readFileSync(file, 'utf8'), current)) };
    if (path.dirname(current) === current) return { configs: [] };
  }
}

export function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const SKIPPED = new Set(['node_modules', '.git', 'out', 'dist', '.vscode-test']);

/** The `*.mcptest.json` files under a folder (not in node_modules, .git or build output), sorted. */
export function findTestFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) walk(path.join(current, entry.name));
      } else if (entry.name.endsWith('.mcptest.json')) found.push(path.join(current, entry.name));
    }
  };
  walk(dir);
  return found.sort();
}
