/** Links for file paths in `args`, `cwd` and `envFile`, once their variables are resolved and they exist. */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as jsonc from 'jsonc-parser';
import type { DocumentLink } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { resolveValue } from './configDiagnostics';
import { serverField, type ConfigModel } from './configModel';
import type { LanguageContext } from './serverContext';

export function documentLinks(model: ConfigModel, doc: TextDocument, ctx: LanguageContext): DocumentLink[] {
  const links: DocumentLink[] = [];
  const base = ctx.folderPath ?? (ctx.filePath ? path.dirname(ctx.filePath) : undefined);
  if (!base) return links;
  const p = ctx.platform === 'win32' ? path.win32 : path.posix;
  const link = (node: jsonc.Node, pathLike: boolean) => {
    if (node.type !== 'string' || node.length < 3) return;
    const raw = String(node.value);
    // Only values that look like paths: `-y` or a package name is not a file even if one exists with that name.
    if (!pathLike && !/[\\/]/.test(raw) && !raw.startsWith('.')) return;
    const value = resolveValue(raw, ctx);
    if (value === undefined || value === '' || /^[a-z][a-z0-9+.-]+:\/\//i.test(value)) return;
    const target = p.resolve(base, value);
    if (!ctx.stat(target)) return;
    links.push({
      range: { start: doc.positionAt(node.offset + 1), end: doc.positionAt(node.offset + node.length - 1) },
      target: pathToFileURL(target).toString(),
      tooltip: target,
    });
  };
  for (const server of model.servers) {
    const args = serverField(server, 'args');
    if (args?.value.type === 'array') for (const a of args.value.children ?? []) link(a, false);
    const cwd = serverField(server, 'cwd');
    if (cwd) link(cwd.value, true);
    const envFile = serverField(server, 'envFile');
    if (envFile) link(envFile.value, true);
  }
  return links;
}
