// The manifest's user-facing parts that VS Code does not check until a user clicks them: the
// walkthrough's pictures and command links, the pictures the README shows, and that every
// string a user reads is in package.nls.json (translatable).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
const nls: Record<string, string> = JSON.parse(fs.readFileSync(path.join(REPO, 'package.nls.json'), 'utf8'));
/** A manifest string as VS Code shows it (English): `%key%` looked up in package.nls.json. */
const text = (value: string) => value.replace(/^%([^%\s]+)%$/, (_, key: string) => nls[key] ?? value);
const commands = new Set<string>(manifest.contributes.commands.map((c: { command: string }) => c.command));

interface Step {
  id: string;
  description: string;
  media: { image?: string; markdown?: string; altText?: string };
  completionEvents?: string[];
}

describe('manifest', () => {
  it('has a PNG icon of at least 128 px that the VSIX ships', () => {
    const icon = fs.readFileSync(path.join(REPO, manifest.icon));
    assert.equal(icon.subarray(1, 4).toString(), 'PNG');
    assert.ok(icon.readUInt32BE(16) >= 128 && icon.readUInt32BE(20) >= 128, 'width and height ≥ 128');
  });

  const walkthroughs: { id: string; steps: Step[] }[] = manifest.contributes.walkthroughs;
  it('has a walkthrough: add a server, browse, run a tool, review requests, debug', () => {
    assert.equal(walkthroughs.length, 1);
    assert.deepEqual(
      walkthroughs[0].steps.map((s) => s.id),
      ['addServer', 'browse', 'runTool', 'approveSampling', 'debugServer'],
    );
  });

  for (const step of walkthroughs.flatMap((w) => w.steps)) {
    it(`walkthrough step ${step.id}: its media exists and its command links are contributed commands`, () => {
      const media = step.media.image ?? step.media.markdown;
      assert.ok(media && fs.existsSync(path.join(REPO, media)), `${media} exists`);
      if (step.media.image) assert.ok(step.media.altText && text(step.media.altText), 'an image has alt text');
      const linked = [...text(step.description).matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]);
      const events = (step.completionEvents ?? []).filter((e) => e.startsWith('onCommand:')).map((e) => e.slice('onCommand:'.length));
      assert.ok(linked.length > 0, 'the step offers a command');
      for (const command of [...linked, ...events]) assert.ok(commands.has(command), `${command} is contributed`);
    });
  }

  it('every string a user reads is localizable: in package.nls.json, and every key it uses is defined', () => {
    // The same check as `node scripts/nls-manifest.mjs --check`, which also moves new strings there.
    const check = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'nls-manifest.mjs'), '--check'], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
    assert.equal(text(manifest.displayName), 'MCP Workbench');
    for (const command of manifest.contributes.commands) assert.equal(text(command.category), 'MCP', `${command.command} is in the MCP category`);
  });

  it('l10n/bundle.l10n.json (the runtime strings for translators) matches the l10n.t calls in src and webview', function () {
    // The export parses every source file: ~11 s on an idle machine, over 60 s once beside the
    // bench, the conformance run and two VS Code instances (finalZ). A bound far above its work.
    this.timeout(300_000);
    assert.equal(manifest.l10n, './l10n');
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'l10n-'));
    const cli = path.join(REPO, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js');
    const exported = spawnSync(process.execPath, [cli, 'export', '-o', out, path.join(REPO, 'src'), path.join(REPO, 'webview')], {
      encoding: 'utf8',
      timeout: 290_000,
    });
    assert.equal(exported.status, 0, exported.stderr);
    const fresh = JSON.parse(fs.readFileSync(path.join(out, 'bundle.l10n.json'), 'utf8'));
    const committed = JSON.parse(fs.readFileSync(path.join(REPO, 'l10n', 'bundle.l10n.json'), 'utf8'));
    assert.deepEqual(committed, fresh, 'run `npm run l10n` and commit l10n/bundle.l10n.json');
  });

  it('every picture the README shows is in the repository', () => {
    const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const pictures = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((p) => !/^https?:/.test(p));
    assert.ok(pictures.length >= 5, `the README shows the main features (${pictures.length} pictures)`);
    for (const picture of pictures) assert.ok(fs.existsSync(path.join(REPO, picture)), `${picture} exists`);
  });
});
