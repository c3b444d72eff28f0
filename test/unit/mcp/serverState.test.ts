import * as assert from 'node:assert/strict';
import { countStates, describeState, isRunning, stateIcon, type ServerState } from '../../../src/mcp/serverState';

describe('serverState', () => {
  const running: ServerState = {
    kind: 'running',
    protocolVersion: '2025-11-25',
    era: 'legacy',
    capabilities: {},
    serverInfo: { name: 's', version: '1' },
    transport: 'stdio',
  };
  const states: ServerState[] = [
    running,
    { kind: 'starting' },
    { kind: 'error', message: 'boom' },
    { kind: 'stopped', reason: 'the workspace is not trusted' },
    { kind: 'stopped' },
    { kind: 'needsAuth', message: 'token expired' },
  ];

  it('describes each state for the UI', () => {
    assert.deepEqual(states.map(describeState), [
      'Running (stdio, protocol 2025-11-25)',
      'Starting…',
      'Error: boom',
      'Stopped: the workspace is not trusted',
      'Stopped',
      'Sign-in required: token expired',
    ]);
    assert.deepEqual(states.map(stateIcon), ['pass-filled', 'loading~spin', 'error', 'debug-stop', 'debug-stop', 'account']);
  });

  it('counts states for the status bar', () => {
    assert.deepEqual(countStates(states), { running: 1, starting: 1, failed: 1, stopped: 3, needsAuth: 1 });
    assert.ok(isRunning(running));
    assert.ok(!isRunning(states[1]));
  });
});
