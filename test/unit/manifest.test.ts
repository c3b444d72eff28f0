// The manifest's user-facing parts that VS Code does not check until a user clicks them: the
// walkthrough's pictures and command links, and the pictures the README shows.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
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
    assert.deepEqual(walkthroughs[0].steps.map((s) => s.id), ['addServer', 'browse', 'runTool', 'approveSampling', 'debugServer']);
  });

  for (const step of walkthroughs.flatMap((w) => w.steps)) {
    it(`walkthrough step ${step.id}: its media exists and its command links are contributed commands`, () => {
      const media = step.media.image ?? step.media.markdown;
      assert.ok(media && fs.existsSync(path.join(REPO, media)), `${media} exists`);
      if (step.media.image) assert.ok(step.media.altText, 'an image has alt text');
      const linked = [...step.description.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]);
      const events = (step.completionEvents ?? []).filter((e) => e.startsWith('onCommand:')).map((e) => e.slice('onCommand:'.length));
      assert.ok(linked.length > 0, 'the step offers a command');
      for (const command of [...linked, ...events]) assert.ok(commands.has(command), `${command} is contributed`);
    });
  }

  it('every picture the README shows is in the repository', () => {
    const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const pictures = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((p) => !/^https?:/.test(p));
    assert.ok(pictures.length >= 5, `the README shows the main features (${pictures.length} pictures)`);
    for (const picture of pictures) assert.ok(fs.existsSync(path.join(REPO, picture)), `${picture} exists`);
  });
});
