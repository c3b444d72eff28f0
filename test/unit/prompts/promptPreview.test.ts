import * as assert from 'node:assert/strict';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { promptResultMarkdown, promptResultModelMessages, promptResultText } from '../../../src/prompts/common/promptPreview';
import { promptCommandIds } from '../../../src/prompts/common/promptCommands';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const conversation: GetPromptResult = {
  description: 'Review of go code',
  messages: [
    { role: 'user', content: { type: 'text', text: 'Review this:\n\nx := 1' } },
    {
      role: 'user',
      content: { type: 'resource', resource: { uri: 'fixture://static/style-guide', mimeType: 'text/markdown', text: '# Guide\n\n```go\nx\n```' } },
    },
    { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
    { role: 'assistant', content: { type: 'text', text: 'Looks fine.' } },
    { role: 'user', content: { type: 'resource_link', uri: 'fixture://static/hello', name: 'hello' } },
  ],
};

describe('promptPreview', () => {
  it('renders roles, text, embedded resources, images and links as markdown', () => {
    const md = promptResultMarkdown(conversation, {
      serverLabel: 'fixture',
      promptName: 'review',
      title: 'Code review',
      arguments: { language: 'go', code: 'x := 1' },
    });
    assert.match(md, /^# Code review\n/);
    assert.match(md, /Prompt `review` of MCP server \*\*fixture\*\* · arguments: `language` = `go`, `code` = `x := 1`/);
    assert.match(md, /> Review of go code/);
    assert.match(md, /## 1\. User\n\nReview this:\n\nx := 1/);
    // The resource's own ``` fence cannot close the block around it.
    assert.match(md, /## 2\. User\n\nEmbedded resource `fixture:\/\/static\/style-guide` \(text\/markdown\):\n\n````markdown\n# Guide\n\n```go\nx\n```\n````/);
    assert.match(md, /## 3\. User\n\n!\[image \(image\/png, 70 bytes\)\]\[image-1\]/);
    assert.match(md, /## 4\. Assistant\n\nLooks fine\./);
    assert.match(md, /## 5\. User\n\nResource link: \[hello\]\(fixture:\/\/static\/hello\)/);
    assert.ok(md.trimEnd().endsWith(`[image-1]: data:image/png;base64,${PNG}`));
  });

  it('does not inline images that are too large or not images', () => {
    const md = promptResultMarkdown(
      { messages: [{ role: 'user', content: { type: 'image', data: 'A'.repeat(300_000), mimeType: 'image/png' } }] },
      { serverLabel: 's', promptName: 'p' },
    );
    assert.match(md, /\*\[image \(image\/png, 225000 bytes\): not shown inline\]\*/);
    assert.doesNotMatch(md, /data:/);
  });

  it('says when there are no messages', () => {
    assert.match(promptResultMarkdown({ messages: [] }, { serverLabel: 's', promptName: 'p' }), /returned no messages/);
  });

  it('plain text: one user message alone, a conversation with roles', () => {
    assert.equal(promptResultText({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi Ada!' } }] }), 'Hi Ada!');
    const text = promptResultText(conversation);
    assert.match(text, /^User:\nReview this:/);
    assert.match(text, /User:\nfixture:\/\/static\/style-guide:\n````markdown\n# Guide/);
    assert.match(text, /User:\n\[image image\/png\]/);
    assert.match(text, /Assistant:\nLooks fine\./);
  });

  it('model messages merge consecutive roles and keep images', () => {
    const messages = promptResultModelMessages(conversation);
    assert.deepEqual(
      messages.map((m) => [m.role, m.content.map((c) => c.type)]),
      [
        ['user', ['text', 'text', 'image']],
        ['assistant', ['text']],
        ['user', ['text']],
      ],
    );
  });

  it('prompt command ids are stable, sanitized, and distinct for servers sharing a name', () => {
    const ids = promptCommandIds([
      { serverId: 'a::fixture', serverName: 'fixture', promptName: 'greet' },
      { serverId: 'a::fixture', serverName: 'fixture', promptName: 'my prompt' },
      { serverId: 'b::fixture', serverName: 'fixture', promptName: 'greet' },
      { serverId: 'c::x y', serverName: 'x y', promptName: 'p' },
    ]);
    assert.deepEqual(
      [...ids.keys()],
      ['mcpWorkbench.prompt.fixture.greet', 'mcpWorkbench.prompt.fixture.my_prompt', 'mcpWorkbench.prompt.fixture-2.greet', 'mcpWorkbench.prompt.x_y.p'],
    );
  });
});
