import * as assert from 'node:assert/strict';
import { progressLine, progressPercent } from '../../../src/toolRunner/common/progressLine';

describe('Run Tool progress: the one line and fill of the panel and the notification', () => {
  it('waits, then says the message, else the numbers; a task says its status', () => {
    assert.equal(progressLine({}), 'Waiting for the server…');
    assert.equal(progressLine({ progress: { progress: 2, total: 5, message: 'step 2 of 5' } }), 'step 2 of 5');
    assert.equal(progressLine({ progress: { progress: 2, total: 5 } }), '2 / 5');
    assert.equal(progressLine({ progress: { progress: 7 } }), '7');
    // An empty message says nothing: the numbers stand in (the notification showed an empty message, the panel the numbers).
    assert.equal(progressLine({ progress: { progress: 1, total: 4, message: '' } }), '1 / 4');
    assert.equal(
      progressLine({ progress: { progress: 1 }, task: { taskId: 't', status: 'working', text: 'working: step 1 of 2' } }),
      'Task working: step 1 of 2',
    );
  });

  it('fills by progress out of total, within 0–100; unknown without a total or for a task', () => {
    assert.equal(progressPercent({ progress: { progress: 1, total: 4 } }), 25);
    assert.equal(progressPercent({ progress: { progress: 9, total: 4 } }), 100);
    assert.equal(progressPercent({ progress: { progress: 3 } }), undefined);
    assert.equal(progressPercent({}), undefined);
    assert.equal(progressPercent({ progress: { progress: 1, total: 2 }, task: { taskId: 't', status: 'working', text: 'working' } }), undefined);
  });
});
