import * as assert from 'node:assert/strict';
import { DisposableStore } from '../../../src/shared/common/disposables';

describe('DisposableStore', () => {
  const recorder = () => {
    const ended: string[] = [];
    return {
      ended,
      item: (name: string, fail = false) => ({
        dispose: () => (
          ended.push(name),
          fail
            ? (() => {
                throw new Error(`${name} failed`);
              })()
            : undefined
        ),
      }),
    };
  };

  it('disposes what it holds in the order added, once', () => {
    const { ended, item } = recorder();
    const store = new DisposableStore();
    store.push(item('a'), item('b'));
    assert.equal(store.add(item('c')).dispose !== undefined, true);
    store.dispose();
    store.dispose();
    assert.deepEqual(ended, ['a', 'b', 'c']);
  });

  it('one that throws does not keep the others alive; the error still surfaces', () => {
    const { ended, item } = recorder();
    const store = new DisposableStore();
    store.push(item('a'), item('b', true), item('c'));
    assert.throws(() => store.dispose(), /b failed/);
    assert.deepEqual(ended, ['a', 'b', 'c']);
  });

  it('what is added after the owner is gone is disposed at once', () => {
    const { ended, item } = recorder();
    const store = new DisposableStore();
    store.dispose();
    store.push(item('late'));
    assert.deepEqual(ended, ['late']);
  });

  it('clear() ends the current set and stays usable', () => {
    const { ended, item } = recorder();
    const store = new DisposableStore();
    store.push(item('old'));
    store.clear();
    store.push(item('new'));
    assert.deepEqual(ended, ['old']);
    store.dispose();
    assert.deepEqual(ended, ['old', 'new']);
  });
});
