/**
 * Tool use in sampling without VS Code: MCP content blocks to model content, the tool calls
 * the user edits as JSON, and the result content returned to the server.
 */
import * as assert from 'node:assert/strict';
import {
  modelTools,
  parseToolCallsJson,
  samplingBlockToModelContent,
  toolCallsJson,
  toolResultContent,
  toolResultText,
} from '../../../src/models/common/samplingTools';
import { stopReasonFromFinish } from '../../../src/models/common/modelSelection';

describe('sampling with tools', () => {
  it('converts MCP sampling blocks, tool_use and tool_result included', () => {
    assert.deepEqual(samplingBlockToModelContent({ type: 'text', text: 'hi' }), { type: 'text', text: 'hi' });
    assert.deepEqual(samplingBlockToModelContent({ type: 'text', text: 'hi' }, 'edited'), { type: 'text', text: 'edited' });
    assert.deepEqual(samplingBlockToModelContent({ type: 'image', data: 'AA', mimeType: 'image/png' }), { type: 'image', data: 'AA', mimeType: 'image/png' });
    assert.deepEqual(samplingBlockToModelContent({ type: 'tool_use', id: 'u1', name: 'get_weather', input: { city: 'Oslo' } }), {
      type: 'tool_use',
      id: 'u1',
      name: 'get_weather',
      input: { city: 'Oslo' },
    });
    assert.deepEqual(
      samplingBlockToModelContent({
        type: 'tool_result',
        toolUseId: 'u1',
        content: [
          { type: 'text', text: 'rain' },
          { type: 'text', text: '7 °C' },
        ],
      }),
      { type: 'tool_result', toolUseId: 'u1', text: 'rain\n7 °C' },
    );
    assert.deepEqual(samplingBlockToModelContent({ type: 'tool_result', toolUseId: 'u1', content: [], structuredContent: { t: 7 }, isError: true }), {
      type: 'tool_result',
      toolUseId: 'u1',
      text: '{"t":7}',
      isError: true,
    });
    assert.equal(
      toolResultText({ type: 'tool_result', content: [{ type: 'image', data: 'AA', mimeType: 'image/png' }] }),
      '{"type":"image","data":"AA","mimeType":"image/png"}',
    );
  });

  it('maps the offered tools; OpenAI finish reasons tool_calls → toolUse', () => {
    assert.deepEqual(
      modelTools([
        { name: 't', inputSchema: { type: 'object' } },
        { name: 'u', description: 'd', inputSchema: { type: 'object' } },
      ]),
      [
        { name: 't', inputSchema: { type: 'object' } },
        { name: 'u', description: 'd', inputSchema: { type: 'object' } },
      ],
    );
    assert.equal(modelTools(undefined), undefined);
    assert.equal(stopReasonFromFinish('tool_calls'), 'toolUse');
  });

  it('parses the edited tool calls: only offered tools, input an object, ids kept or generated', () => {
    const offered = [{ name: 'get_weather' }];
    const json = toolCallsJson([{ id: 'c1', name: 'get_weather', input: { city: 'Oslo' } }]);
    assert.deepEqual(parseToolCallsJson(json, offered), { ok: true, calls: [{ id: 'c1', name: 'get_weather', input: { city: 'Oslo' } }] });
    assert.deepEqual(parseToolCallsJson('', offered), { ok: true, calls: [] });
    assert.deepEqual(parseToolCallsJson(toolCallsJson(undefined), offered), { ok: true, calls: [] });
    const generated = parseToolCallsJson('[{"name":"get_weather"}]', offered);
    assert.ok(generated.ok && generated.calls[0].id.startsWith('call_1_') && Object.keys(generated.calls[0].input).length === 0);
    assert.match((parseToolCallsJson('[{', offered) as { reason: string }).reason, /not valid JSON/);
    assert.match((parseToolCallsJson('{}', offered) as { reason: string }).reason, /JSON array/);
    assert.match((parseToolCallsJson('[{"name":"rm"}]', offered) as { reason: string }).reason, /"rm", which is not one of the offered tools \(get_weather\)/);
    assert.match((parseToolCallsJson('[{"name":"get_weather","input":[1]}]', offered) as { reason: string }).reason, /"input" must be a JSON object/);
    assert.match((parseToolCallsJson('[{"input":{}}]', offered) as { reason: string }).reason, /needs a "name"/);
  });

  it('builds the result content: tool_use blocks with toolUse; text alone keeps its stop reason', () => {
    const call = { id: 'c1', name: 'get_weather', input: { city: 'Oslo' } };
    assert.deepEqual(toolResultContent('', [call], 'toolUse'), { content: { type: 'tool_use', ...call }, stopReason: 'toolUse' });
    assert.deepEqual(toolResultContent('Checking.', [call], 'endTurn'), {
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', ...call },
      ],
      stopReason: 'toolUse',
    });
    assert.deepEqual(toolResultContent('Sunny.', [], 'endTurn'), { content: { type: 'text', text: 'Sunny.' }, stopReason: 'endTurn' });
    // The user removed every call the model made: no longer a tool use.
    assert.deepEqual(toolResultContent('ok', [], 'toolUse'), { content: { type: 'text', text: 'ok' }, stopReason: 'endTurn' });
  });
});
