import * as assert from 'node:assert/strict';
import { callableForCheck } from '../../../src/check/common/checkTypes';

// Check Server and `mcp-workbench check` call these tools themselves to see their results; one rule for both.
describe('Check Server: the tools a check calls itself', () => {
  const out = { type: 'object', properties: { n: { type: 'number' } } };
  it('calls a read-only tool with an outputSchema and no required arguments', () => {
    assert.equal(callableForCheck({ name: 'stats', annotations: { readOnlyHint: true }, outputSchema: out, inputSchema: { type: 'object' } }), true);
    assert.equal(
      callableForCheck({ name: 'stats', annotations: { readOnlyHint: true }, outputSchema: out, inputSchema: { type: 'object', required: [] } }),
      true,
    );
  });
  it('never calls a tool that may change something, has no outputSchema, or needs arguments', () => {
    assert.equal(callableForCheck({ name: 'write', annotations: { readOnlyHint: false }, outputSchema: out }), false);
    assert.equal(callableForCheck({ name: 'write', outputSchema: out }), false);
    assert.equal(callableForCheck({ name: 'plain', annotations: { readOnlyHint: true } }), false);
    assert.equal(
      callableForCheck({ name: 'find', annotations: { readOnlyHint: true }, outputSchema: out, inputSchema: { type: 'object', required: ['q'] } }),
      false,
    );
  });
});
