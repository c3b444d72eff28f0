/**
 * Servers with VS Code's `"sandboxEnabled": true`: the bubblewrap argv built from the file's
 * `sandbox` (pure), the refusals with their one-line reasons, and a real fixture server started
 * through a connection under the real `bwrap` (Debian package `bubblewrap`,
 * scripts/install-system-deps.sh): it may write only where the sandbox lets it and cannot open
 * a TCP connection to this process.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_SANDBOX_SETTINGS, planSandbox, type SandboxInput } from '../../../src/mcp/process/sandbox';
import { resolveCommand } from '../../../src/mcp/process/commandResolution';
import { McpServerConnection } from '../../../src/mcp/connection/serverConnection';
import type { SandboxSettings } from '../../../src/config/common/entryPolicy';
import { definition, recordingHost, RecordingLog, stdioLaunch, waitFor } from './testHost';

const none: SandboxSettings = { filesystem: { allowWrite: [], denyWrite: [], denyRead: [] }, network: { allowedDomains: [], deniedDomains: [] } };

function input(overrides: Partial<SandboxInput> = {}): SandboxInput {
  return {
    who: 'Server "s"',
    sandbox: none,
    settings: DEFAULT_SANDBOX_SETTINGS,
    platform: 'linux',
    bwrap: '/usr/bin/bwrap',
    command: '/usr/bin/node',
    args: ['server.js'],
    cwd: '/work/app',
    home: '/home/u',
    kindOf: (p) => (p === '/home/u/.ssh/id_rsa' ? 'file' : p.startsWith('/missing') ? undefined : 'dir'),
    ...overrides,
  };
}

describe('sandboxed servers (bubblewrap)', () => {
  it('builds the bwrap command line: read-only root, a /tmp of its own, writable cwd, ~/.npm and allowWrite, no network', () => {
    const plan = planSandbox(
      input({
        sandbox: {
          filesystem: { allowWrite: ['/work/out', '/missing/dir'], denyWrite: ['/work/out/keep'], denyRead: ['/home/u/.ssh', '/home/u/.ssh/id_rsa'] },
        },
      }),
    );
    assert.equal(plan.kind, 'sandboxed');
    if (plan.kind !== 'sandboxed') return;
    assert.equal(plan.command, '/usr/bin/bwrap');
    assert.deepEqual(
      plan.args.join(' '),
      [
        '--die-with-parent --unshare-pid --unshare-net --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp',
        '--bind /work/app /work/app --bind /home/u/.npm /home/u/.npm --bind /work/out /work/out',
        '--ro-bind /work/out/keep /work/out/keep --tmpfs /home/u/.ssh --ro-bind /dev/null /home/u/.ssh/id_rsa',
        '--chdir /work/app -- /usr/bin/node server.js',
      ].join(' '),
    );
    assert.match(plan.summary, /network: none/);
  });

  it('refuses, with the reason and the setting, where it cannot sandbox: not Linux, or no bwrap', () => {
    const mac = planSandbox(input({ platform: 'darwin' }));
    assert.deepEqual(mac, {
      kind: 'refused',
      reason:
        'Server "s" is sandboxed ("sandboxEnabled": true) and MCP Workbench can sandbox servers only on Linux, with bubblewrap; not started. Turn on mcpWorkbench.sandbox.allowUnsandboxed (user settings) to run it unsandboxed.',
    });
    const noBwrap = planSandbox(input({ bwrap: undefined, settings: { ...DEFAULT_SANDBOX_SETTINGS, bwrapPath: '/opt/none/bwrap' } }));
    assert.equal(noBwrap.kind, 'refused');
    assert.match(
      noBwrap.kind === 'refused' ? noBwrap.reason : '',
      /bubblewrap \("\/opt\/none\/bwrap"\) was not found: install it .*; not started\. Turn on mcpWorkbench\.sandbox\.allowUnsandboxed/,
    );
    const allowed = planSandbox(input({ platform: 'win32', settings: { ...DEFAULT_SANDBOX_SETTINGS, allowUnsandboxed: true } }));
    assert.equal(allowed.kind, 'unsandboxed');
    assert.match(allowed.kind === 'unsandboxed' ? allowed.warning : '', /runs unsandboxed because mcpWorkbench\.sandbox\.allowUnsandboxed is on/);
  });

  it('a list of allowed domains, which bwrap cannot filter, is refused unless the user lets it reach any host', () => {
    const sandbox: SandboxSettings = { network: { allowedDomains: ['api.example.com'] } };
    const refused = planSandbox(input({ sandbox }));
    assert.equal(refused.kind, 'refused');
    assert.match(
      refused.kind === 'refused' ? refused.reason : '',
      /may reach only api\.example\.com .* cannot filter by domain; not started\. Set mcpWorkbench\.sandbox\.networkWithDomains to "all"/,
    );
    const all = planSandbox(input({ sandbox, settings: { ...DEFAULT_SANDBOX_SETTINGS, networkWithDomains: 'all' } }));
    assert.equal(all.kind, 'sandboxed');
    if (all.kind !== 'sandboxed') return;
    assert.ok(!all.args.includes('--unshare-net'));
    assert.ok(all.args.includes('--ro-bind'), 'the filesystem stays sandboxed');
  });

  describe('a real server under bwrap', function () {
    this.timeout(30000);
    const bwrap = resolveCommand('bwrap', { pathValue: process.env.PATH ?? '' }).resolved;
    let dir: string;
    /** Outside /tmp, which the sandbox replaces by its own: a folder of the build output (removed after each test). */
    let outsideDir: string;
    let listener: net.Server;
    let port: number;
    let accepted = 0;
    const open: McpServerConnection[] = [];
    before(async function () {
      if (process.platform !== 'linux' || !bwrap) this.skip();
      listener = net.createServer((socket) => {
        accepted++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      port = (listener.address() as net.AddressInfo).port;
    });
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwb-sandbox-test-'));
      fs.mkdirSync(path.join(dir, 'allowed'));
      fs.mkdirSync(path.join(dir, 'cwd'));
      outsideDir = fs.mkdtempSync(path.join(path.resolve(__dirname, '../..'), 'sandbox-outside-'));
      accepted = 0;
    });
    afterEach(async () => {
      await Promise.all(open.splice(0).map((c) => c.dispose()));
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(outsideDir, { recursive: true, force: true });
    });
    after(() => listener?.close());

    const start = async (sandbox: SandboxSettings | undefined) => {
      const report = path.join(dir, 'allowed', 'report.json');
      const probe = { write: [path.join(outsideDir, 'outside.txt'), path.join(dir, 'allowed', 'inside.txt')], connect: port, report };
      const launch = stdioLaunch({ FIXTURE_PROBE: JSON.stringify(probe) }, { cwd: path.join(dir, 'cwd'), ...(sandbox ? { sandbox } : {}) });
      const log = new RecordingLog();
      const c = new McpServerConnection(definition(launch, { protocolEra: 'legacy' }), recordingHost(), log);
      open.push(c);
      await c.start();
      assert.equal(c.state.kind, 'running', c.state.kind === 'error' ? c.state.message : c.state.kind);
      const result = await waitFor(
        () => fs.existsSync(report) && (JSON.parse(fs.readFileSync(report, 'utf8')) as { write: Record<string, string>; connect: string; tmpdir: string }),
        'the probe report',
      );
      return { result, log, outside: path.join(outsideDir, 'outside.txt'), inside: path.join(dir, 'allowed', 'inside.txt') };
    };

    it('writes only to allowWrite and cannot connect to this process; unsandboxed, the same server can', async () => {
      const { result, log, outside, inside } = await start({ filesystem: { allowWrite: [path.join(dir, 'allowed')] } });
      assert.equal(result.write[outside], 'EROFS', 'a write outside allowWrite is refused');
      assert.equal(result.write[inside], 'ok');
      assert.ok(!fs.existsSync(outside));
      assert.ok(fs.existsSync(inside));
      assert.equal(result.connect, 'ECONNREFUSED', 'no network: its loopback is its own');
      assert.equal(accepted, 0);
      assert.equal(result.tmpdir, '/tmp');
      assert.match(log.text('info'), /sandboxed by bubblewrap: writes to .*allowed.*; network: none/);

      // The control: the same probe without a sandbox reaches both (what the old code did with sandboxEnabled).
      fs.rmSync(path.join(dir, 'allowed', 'report.json'));
      const free = await start(undefined);
      assert.equal(free.result.write[outside], 'ok');
      assert.equal(free.result.connect, 'ok');
    });

    it("has a /tmp of its own: it sees none of the host's /tmp and leaves nothing there", async () => {
      const marker = path.join('/tmp', `mcpwb-sandbox-marker-${process.pid}`);
      fs.writeFileSync(marker, 'host');
      try {
        const report = path.join(dir, 'allowed', 'report.json');
        const probe = { write: [marker, '/tmp/written-inside'], report };
        const launch = stdioLaunch(
          { FIXTURE_PROBE: JSON.stringify(probe) },
          { cwd: path.join(dir, 'cwd'), sandbox: { filesystem: { allowWrite: [path.join(dir, 'allowed')] } } },
        );
        const c = new McpServerConnection(definition(launch), recordingHost(), new RecordingLog());
        open.push(c);
        await c.start();
        const result = await waitFor(
          () => fs.existsSync(report) && (JSON.parse(fs.readFileSync(report, 'utf8')) as { write: Record<string, string>; tmpdir: string }),
          'the probe report',
        );
        assert.equal(result.write['/tmp/written-inside'], 'ok');
        assert.equal(result.tmpdir, '/tmp');
        assert.equal(fs.readFileSync(marker, 'utf8'), 'host', "the host's file in /tmp was not reached");
        assert.ok(!fs.existsSync('/tmp/written-inside'));
      } finally {
        fs.rmSync(marker, { force: true });
      }
    });

    it('with bwrap missing it is not started and says why', async () => {
      const launch = stdioLaunch({}, { sandbox: {} });
      const host = { ...recordingHost(), sandboxSettings: () => ({ ...DEFAULT_SANDBOX_SETTINGS, bwrapPath: path.join(dir, 'no-bwrap') }) };
      const c = new McpServerConnection(definition(launch), host, new RecordingLog());
      open.push(c);
      await c.start().catch(() => undefined);
      assert.equal(c.state.kind, 'error');
      assert.match(
        c.state.kind === 'error' ? c.state.message : '',
        /^Server "fixture" is sandboxed \("sandboxEnabled": true\) and bubblewrap \(".*no-bwrap"\) was not found/,
      );
    });
  });
});
