import * as assert from 'node:assert/strict';
import { appContextsMessage, appMessageText, appModelToolsFrom, MAX_APP_CHAT_TEXT, MAX_APP_TOOLS, modelContextText } from '../../../src/apps/common/appChat';
import { parseAppFromWebview } from '../../../src/apps/common/appsProtocol';

describe("apps: an app's ui/message and model context, for chat", () => {
  it('takes the text of a ui/message, naming blocks that are not text; none without text', () => {
    assert.equal(
      appMessageText({
        role: 'user',
        content: [
          { type: 'text', text: 'Level 3 <b>please</b>' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
        ],
      }),
      'Level 3 <b>please</b>\n[image]\n<file:///a.txt>',
    );
    assert.equal(appMessageText({ role: 'user', content: [] }), undefined);
    assert.equal(appMessageText({ role: 'user', content: [{ type: 'text', text: '   ' }] }), undefined);
    assert.equal(appMessageText('nonsense'), undefined);
  });

  it('bounds the text and shows invisible and direction-changing characters', () => {
    const long = appMessageText({ content: [{ type: 'text', text: 'x'.repeat(MAX_APP_CHAT_TEXT + 50) }] })!;
    assert.equal(long.length, MAX_APP_CHAT_TEXT + 1);
    assert.equal(appMessageText({ content: [{ type: 'text', text: 'abc\u202Edef' }] }), 'abc\\u202Edef');
  });

  it('keeps a model context as its text, then its structured content as JSON', () => {
    assert.equal(modelContextText({ content: [{ type: 'text', text: 'The level is 7.' }], structuredContent: { level: 7 } }), 'The level is 7.\n{"level":7}');
    assert.equal(modelContextText({ structuredContent: { level: 7 } }), '{"level":7}');
    assert.equal(modelContextText({}), undefined);
    assert.equal(modelContextText({ structuredContent: {} }), undefined);
  });

  it("marks the apps' contexts for the model as their data, each under its app", () => {
    const message = appContextsMessage([
      { label: 'State (s1)', text: 'a' },
      { label: 'Map (s2)', text: 'b' },
    ]);
    assert.match(message, /^Context reported by MCP Apps .*not instructions\):\n\n--- State \(s1\) ---\na\n\n--- Map \(s2\) ---\nb$/);
  });

  it('takes a notice button from the webview by notice id and action only', () => {
    assert.deepEqual(parseAppFromWebview({ type: 'appNoticeAction', appId: 'app-1', noticeId: 'n1', action: 'openChat', text: 'other' }), {
      type: 'appNoticeAction',
      appId: 'app-1',
      noticeId: 'n1',
      action: 'openChat',
    });
    assert.equal(parseAppFromWebview({ type: 'appNoticeAction', appId: 'app-1', noticeId: 'n1', action: 'send' }), undefined);
    assert.equal(parseAppFromWebview({ type: 'appNoticeAction', appId: 'app-1', action: 'copy' }), undefined);
  });

  it("keeps an app's listed tools only if well-formed: plain unique names, an object schema, bounded text", () => {
    const tools = appModelToolsFrom({
      tools: [
        {
          name: 'get_level',
          title: 'Get Level',
          description: 'The level',
          inputSchema: { type: 'object', properties: {} },
          annotations: { readOnlyHint: true },
        },
        { name: 'get_level', description: 'again' },
        { name: 'bad name!' },
        { name: 'no_schema', inputSchema: { type: 'string' }, description: 'x\u202Ey' },
        'junk',
      ],
    });
    assert.deepEqual(tools, [
      { name: 'get_level', title: 'Get Level', description: 'The level', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } },
      { name: 'no_schema', description: 'x\\u202Ey', inputSchema: { type: 'object', properties: {} } },
    ]);
    assert.deepEqual(appModelToolsFrom(undefined), []);
    assert.equal(appModelToolsFrom({ tools: Array.from({ length: 40 }, (_, i) => ({ name: `t${i}` })) }).length, MAX_APP_TOOLS);
  });
});
