/**
 * What a client sees in the lists: descriptions (a model picks tools by them), tool names
 * (2025-11-25 guidance: 1–128 of A-Z a-z 0-9 _ - ., unique) and pages too large to handle.
 */
import { resultOf, type CheckInput, type Finding, type ListedItem } from './checkTypes';
import { specSection } from './specLinks';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

const hasText = (v: unknown) => typeof v === 'string' && v.trim() !== '';
const label = (item: ListedItem) => String(item.name ?? item.uri ?? item.uriTemplate ?? '(unnamed)');

export function checkDescriptions(input: CheckInput): Finding[] {
  const findings: Finding[] = [];
  const missing = (kind: string, items: readonly ListedItem[], path: string, anchor: string, severity: 'warning' | 'info') => {
    const names = items.filter((i) => !hasText(i.description)).map(label);
    if (!names.length) return;
    findings.push({
      check: 'description',
      severity,
      subject: kind,
      spec: specSection(input, `${kind[0].toUpperCase()}${kind.slice(1)} › data types`, path, anchor),
      message:
        names.length === 1
          ? `The ${kind.replace(/s$/, '')} "${names[0]}" has no description${kind === 'tools' ? ': a model cannot tell when to use it' : ''}.`
          : `${names.length} ${kind} have no description: ${names
              .slice(0, 10)
              .map((n) => `"${n}"`)
              .join(', ')}${names.length > 10 ? ', …' : ''}.`,
    });
  };
  missing('tools', input.tools, 'server/tools', 'tool', 'warning');
  missing('prompts', input.prompts, 'server/prompts', 'prompt', 'info');
  missing('resources', input.resources, 'server/resources', 'resource', 'info');
  missing('resource templates', input.resourceTemplates, 'server/resources', 'resource-templates', 'info');
  return findings;
}

export function checkToolNames(input: CheckInput): Finding[] {
  const spec = specSection(input, 'Tools › Tool Names', 'server/tools', 'tool-names');
  const findings: Finding[] = [];
  const seen = new Map<string, number>();
  for (const tool of input.tools) {
    const name = typeof tool.name === 'string' ? tool.name : undefined;
    if (name === undefined) {
      findings.push({ check: 'tool-name', severity: 'error', spec, message: `A tool has no name (${JSON.stringify(tool.name) ?? 'missing'}).` });
      continue;
    }
    seen.set(name, (seen.get(name) ?? 0) + 1);
    if (!TOOL_NAME.test(name)) {
      const why =
        name.length === 0
          ? 'is empty'
          : name.length > 128
            ? `is ${name.length} characters long (at most 128)`
            : 'has characters other than A-Z, a-z, 0-9, _, - and .';
      findings.push({
        check: 'tool-name',
        severity: 'warning',
        subject: name,
        spec,
        message: `The tool name "${name}" ${why}; clients may reject or rename it.`,
      });
    }
  }
  for (const [name, count] of seen) {
    if (count > 1)
      findings.push({
        check: 'tool-name',
        severity: 'error',
        subject: name,
        spec,
        message: `The tool name "${name}" is listed ${count} times; names must be unique within a server.`,
      });
  }
  return findings;
}

const LIST_KEYS: Record<string, string> = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
};

/** Pages of a list with more than `maxPageItems` items: one finding per method, on the largest page. */
export function checkPaging(input: CheckInput): Finding[] {
  const spec = specSection(input, 'Pagination', 'server/utilities/pagination');
  const largest = new Map<string, { seq: number; count: number; paged: boolean }>();
  for (const entry of input.messages) {
    const key = LIST_KEYS[entry.method];
    if (!key || entry.direction !== 'send') continue;
    const result = resultOf(entry);
    const items = result?.[key];
    if (!Array.isArray(items) || items.length <= input.budgets.maxPageItems) continue;
    const known = largest.get(entry.method);
    if (!known || items.length > known.count) largest.set(entry.method, { seq: entry.seq, count: items.length, paged: typeof result!.nextCursor === 'string' });
  }
  return [...largest].map(([method, { seq, count, paged }]) => ({
    check: 'paging',
    severity: 'warning' as const,
    subject: method,
    spec,
    seq,
    message: `\`${method}\` answered ${count} items in one page${paged ? '' : ' and no `nextCursor`'} (more than ${input.budgets.maxPageItems}); page it so clients can load it in parts.`,
  }));
}
