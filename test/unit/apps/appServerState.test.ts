import * as assert from 'node:assert/strict';
import { appServerLine } from '../../../src/apps/common/appServerState';
import { parseAppFromWebview } from '../../../src/apps/common/appsProtocol';

describe('apps: the line beside an app whose server is not running', () => {
  it('says the server stopped and offers Start; nothing while it runs', () => {
    assert.equal(appServerLine('weather', 'running'), undefined);
    assert.deepEqual(appServerLine('weather', 'stopped'), { text: 'Server weather stopped.', canStart: true });
    assert.deepEqual(appServerLine('weather', 'error'), { text: 'Server weather stopped.', canStart: true });
    assert.equal(appServerLine('weather', 'needsAuth')?.canStart, true);
  });

  it('offers no Start while the server starts, nor for a server no longer configured', () => {
    assert.deepEqual(appServerLine('weather', 'starting'), { text: 'Server weather is starting…', canStart: false });
    assert.equal(appServerLine('weather', undefined)?.canStart, false);
  });

  it('takes Start from the webview as appStartServer with an app id only: the host picks the server', () => {
    assert.deepEqual(parseAppFromWebview({ type: 'appStartServer', appId: 'app-1', serverId: 'other' }), { type: 'appStartServer', appId: 'app-1' });
    assert.equal(parseAppFromWebview({ type: 'appStartServer' }), undefined);
    assert.equal(parseAppFromWebview({ type: 'appStartServer', appId: 'x'.repeat(101) }), undefined);
  });
});
