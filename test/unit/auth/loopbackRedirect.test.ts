/**
 * The loopback listener for OAuth redirects (RFC 8252 §7.3), with real HTTP requests to the
 * real listener: anyone on this machine, and any web page, can reach it, so only the browser's
 * redirect with this sign-in's `state` (and the redirect URL's Host) may end the sign-in.
 */
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenForLoopbackRedirect } from '../../../src/mcp/auth/loopbackRedirect';

/** A free port on 127.0.0.1 (listening on 0 and closing again). */
async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A GET with a chosen Host header (fetch does not let a caller set it). */
function get(port: number, path: string, host = `127.0.0.1:${port}`): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', headers: { host }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('loopback OAuth redirect listener', () => {
  const STATE = 'state-9f1c2b7e64a04d0e8a5f3c1d2e4b6a70';

  it("ignores requests without the sign-in's state or with another Host, and keeps listening for the real redirect", async () => {
    const port = await freePort();
    const listener = await listenForLoopbackRedirect(`http://127.0.0.1:${port}/callback`, STATE);
    let settled: unknown;
    void listener.response.then(
      (r) => (settled = r),
      (e: unknown) => (settled = e),
    );
    try {
      // Another local process or a web page: an error of its own wording, no state or a wrong one.
      const forged = await get(port, '/callback?error=access_denied&error_description=Your%20account%20is%20locked');
      assert.equal(forged.status, 400, forged.body);
      assert.match(forged.body, /not the answer to the sign-in/);
      assert.equal((await get(port, `/callback?error=access_denied&state=${STATE}x`)).status, 400);
      // The right state through a rebound DNS name: its Host is not the redirect URL's.
      assert.equal((await get(port, `/callback?code=stolen&state=${STATE}`, `attacker.example:${port}`)).status, 400);
      assert.equal(settled, undefined, 'the sign-in is still waiting');

      const real = await get(port, `/callback?code=the-code&state=${STATE}&iss=https%3A%2F%2Fauth.example`);
      assert.equal(real.status, 200);
      assert.match(real.body, /Signed in\./);
      const answer = await listener.response;
      assert.equal(answer.code, 'the-code');
      assert.equal(answer.state, STATE);
      assert.equal(answer.error, undefined);
    } finally {
      listener.close();
    }
  });

  it("an error with the sign-in's state does end it", async () => {
    const port = await freePort();
    const listener = await listenForLoopbackRedirect(`http://localhost:${port}/cb`, STATE);
    try {
      const page = await get(port, `/cb?error=access_denied&state=${STATE}`, `localhost:${port}`);
      assert.match(page.body, /Sign-in was refused\./);
      assert.equal((await listener.response).error, 'access_denied');
    } finally {
      listener.close();
    }
  });
});
