/** Elicitation inside a real VS Code: form mode (every field kind, defaults, validation, decline/cancel) and URL mode. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApprovalService } from '../../../src/approval/approvalService';
import type { ElicitFormView, ElicitUrlView } from '../../../src/approval/common/approvalProtocol';
import type { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import { activateApi, running, textOf, waitFor } from '../helpers';

suite('Elicitation', function () {
  this.timeout(60000);
  let service: ApprovalService;
  let connection: McpServerConnection;
  const call = (name: string, args: Record<string, unknown>) =>
    connection
      .callTool(name, args)
      .then((r) => JSON.parse(textOf(r)) as { ok: boolean; result?: { action: string; content?: Record<string, unknown> }; message?: string });
  const form = () => waitFor(() => service.views().find((v): v is ElicitFormView => v.kind === 'elicitForm'), 'a form in the panel');
  const url = () => waitFor(() => service.views().find((v): v is ElicitUrlView => v.kind === 'elicitUrl' && !v.opened), 'a URL request in the panel');

  suiteSetup(async () => {
    const api = await activateApi();
    connection = await running(api, 'fixture-stdio');
    service = (await vscode.commands.executeCommand<ApprovalService>('mcpWorkbench.showRequests'))!;
  });

  test('every field kind is shown with defaults pre-filled; invalid input is not sent; accept includes untouched defaults', async () => {
    const result = call('elicit', {});
    const view = await form();
    assert.deepEqual(
      view.form.fields.map((f) => f.kind),
      ['string', 'string', 'string', 'string', 'string', 'integer', 'number', 'boolean', 'enum', 'enum', 'enum', 'multiEnum', 'multiEnum', 'string'],
    );
    assert.deepEqual(view.values, {
      name: '',
      email: '',
      homepage: '',
      birthday: '',
      meeting: '',
      age: '30',
      ratio: '',
      subscribe: true,
      color: 'green',
      size: '',
      legacy: '',
      toppings: ['cheese'],
      extras: [],
      nickname: 'buddy',
    });
    const invalid = service.accept(view.id, { name: 'A', email: 'not-an-email', age: '200' });
    assert.equal(invalid.ok, false);
    assert.deepEqual(!invalid.ok && invalid.issues?.map((i) => i.pointer).sort(), ['/age', '/email', '/name']);
    assert.deepEqual((service.views().find((v) => v.id === view.id) as ElicitFormView).issues?.length, 3, 'problems are shown');
    assert.deepEqual(service.accept(view.id, { name: 'Ada', email: 'ada@example.com', age: '36', size: 'm', extras: ['y'] }), { ok: true });
    const outcome = await result;
    assert.deepEqual(outcome.result, {
      action: 'accept',
      content: {
        name: 'Ada',
        email: 'ada@example.com',
        age: 36,
        subscribe: true,
        color: 'green',
        size: 'm',
        toppings: ['cheese'],
        extras: ['y'],
        nickname: 'buddy',
      },
    });
  });

  test('decline and cancel map to the spec actions', async () => {
    let result = call('elicit', { schema: { type: 'object', properties: { x: { type: 'string' } } } });
    service.decline((await form()).id);
    assert.deepEqual((await result).result, { action: 'decline' });
    result = call('elicit', { schema: { type: 'object', properties: { x: { type: 'string' } } } });
    service.cancel((await form()).id);
    assert.deepEqual((await result).result, { action: 'cancel' });
  });

  test('URL mode: shows the domain, opens only after agreeing, accepts, then waits for completion', async () => {
    const opened: string[] = [];
    const original = service.openExternal;
    service.openExternal = async (uri) => {
      opened.push(uri.toString(true));
      return true;
    };
    try {
      const result = call('elicitUrl', { url: 'https://auth.example.com/login?x=1', elicitationId: 'e-1', complete: true });
      const view = await url();
      assert.equal(view.domain, 'auth.example.com');
      assert.equal(view.blocked, undefined);
      assert.deepEqual(opened, [], 'nothing opened before the user agrees');
      const completed = new Promise((resolve) => service.onDidCompleteElicitation(resolve));
      assert.deepEqual(await service.openUrl(view.id), { ok: true });
      assert.deepEqual(opened, ['https://auth.example.com/login?x=1']);
      assert.deepEqual((await result).result, { action: 'accept' });
      assert.equal(service.waiting().length, 1);
      assert.deepEqual(await completed, { serverId: view.server.id, elicitationId: 'e-1' });
      await waitFor(() => service.waiting().length === 0, 'the waiting entry to go');
    } finally {
      service.openExternal = original;
    }
  });

  test('URL mode: unsafe schemes are never opened; decline', async () => {
    const opened: string[] = [];
    const original = service.openExternal;
    service.openExternal = async (uri) => (opened.push(uri.toString()), true);
    try {
      for (const bad of ['http://example.com/x', 'https://user:pw@example.com/']) {
        const result = call('elicitUrl', { url: bad });
        const view = await url();
        assert.ok(view.blocked, bad);
        assert.equal((await service.openUrl(view.id)).ok, false);
        service.decline(view.id);
        assert.deepEqual((await result).result, { action: 'decline' });
      }
      assert.deepEqual(opened, []);
    } finally {
      service.openExternal = original;
    }
  });
});
