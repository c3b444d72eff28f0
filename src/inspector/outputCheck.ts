/**
 * The Inspector's check of tools/call results against the tool's `outputSchema` (issue 29: a
 * result that breaks it is marked on its row, the issues listed in its detail), with ajv as Run
 * Tool and Check Server check it (outputSchemaIssues). The tool is the server's as listed now
 * for a live exchange, or as the recording's last tools/list answer listed it for an imported one.
 * No `vscode` import.
 */
import { factsOf, type ExchangeFacts } from '../traffic/common/exchangeFacts';
import type { InspectorRecord, RowFacts } from './common/inspectorRows';
import { outputSchemaIssues } from '../jsonSchema/common/schemaValidation';

type ListedTool = { outputSchema?: unknown };

export class OutputCheck {
  /** An imported recording's tools by server, from its tools/list answers (read once). */
  private recorded: Map<string, Map<string, ListedTool>> | undefined;

  constructor(
    private readonly liveTool: (serverId: string, name: string) => ListedTool | undefined,
    /** An imported recording's records (their own tools/list answers name the tools); undefined: live. */
    private readonly recording: readonly InspectorRecord[] | undefined,
  ) {}

  /** An exchange's facts, with `outputIssues` when its result breaks its tool's outputSchema. */
  factsFor = (record: InspectorRecord): RowFacts => {
    const facts = factsOf(record);
    const outputIssues = this.issues(record, facts);
    return outputIssues?.length ? { ...facts, outputIssues } : facts;
  };

  /** How a client tools/call's result breaks its tool's outputSchema; undefined when there is nothing to check. */
  issues(record: InspectorRecord, facts: ExchangeFacts): string[] | undefined {
    if (record.method !== 'tools/call' || record.kind !== 'request' || record.direction !== 'send' || record.status.kind !== 'ok') return undefined;
    if (facts.name === undefined || facts.isError) return undefined;
    const records = this.recording;
    const tool = records ? this.recordedTool(records, record.serverId, facts.name) : this.liveTool(record.serverId, facts.name);
    if (tool?.outputSchema === undefined) return undefined;
    // Read only now: reading a logged message redacts it.
    return outputSchemaIssues(tool.outputSchema, (record.response as { result?: unknown } | undefined)?.result);
  }

  private recordedTool(records: readonly InspectorRecord[], serverId: string, name: string): ListedTool | undefined {
    if (!this.recorded) {
      this.recorded = new Map();
      for (const r of records) {
        if (r.method !== 'tools/list' || r.direction !== 'send' || r.status.kind !== 'ok') continue;
        const tools = (r.response as { result?: { tools?: unknown } } | undefined)?.result?.tools;
        if (!Array.isArray(tools)) continue;
        const byName = this.recorded.get(r.serverId) ?? new Map<string, ListedTool>();
        for (const t of tools)
          if (t && typeof t === 'object' && typeof (t as { name?: unknown }).name === 'string') byName.set((t as { name: string }).name, t);
        this.recorded.set(r.serverId, byName);
      }
    }
    return this.recorded.get(serverId)?.get(name);
  }
}
