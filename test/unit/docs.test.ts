// The documentation's links: every relative link and picture in README.md, CONTRIBUTING.md,
// SECURITY.md, CHANGELOG.md and docs/**/*.md points at a file of the repository, and every
// #anchor at a heading of that file (as GitHub makes anchors from headings). The guide pages
// link to each other's sections, so moving or renaming a heading breaks a link silently
// otherwise. Also: the README stays the user's front page (short), and keeps the section the
// coexistence notification's "Learn More" opens.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');

function markdownFiles(): string[] {
  const files = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'CHANGELOG.md'].filter((f) => fs.existsSync(path.join(REPO, f)));
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) files.push(rel);
    }
  };
  walk('docs');
  return files;
}

/** The lines of a Markdown file outside fenced code blocks, inline code removed. */
function proseLines(text: string): string[] {
  let fenced = false;
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push(line.replace(/`[^`]*`/g, ''));
  }
  return lines;
}

/** GitHub's heading anchors: lower case, punctuation dropped, each space a hyphen, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const slug = m[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    result.add(n ? `${slug}-${n}` : slug);
  }
  return result;
}

describe('documentation', () => {
  const files = markdownFiles();

  it('finds the README, the guide and the developer documents', () => {
    for (const f of ['README.md', 'CONTRIBUTING.md', 'docs/guide/configuration.md', 'docs/performance.md']) assert.ok(files.includes(f), f);
  });

  for (const file of files) {
    it(`${file}: every relative link and picture points at an existing file and heading`, () => {
      const text = fs.readFileSync(path.join(REPO, file), 'utf8');
      const broken: string[] = [];
      for (const line of proseLines(text)) {
        for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
          const target = m[1];
          if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, vscode:, command:
          const [rel, anchor] = target.split('#', 2);
          const resolved = rel ? path.resolve(path.dirname(path.join(REPO, file)), decodeURIComponent(rel)) : path.join(REPO, file);
          if (!resolved.startsWith(REPO) || !fs.existsSync(resolved)) {
            broken.push(`${target}: no such file`);
          } else if (anchor !== undefined && !anchors(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
            broken.push(`${target}: no heading with the anchor #${anchor}`);
          }
        }
      }
      assert.deepEqual(broken, []);
    });
  }

  it('the README stays a front page for users: under 250 lines', () => {
    const lines = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8').split('\n').length;
    assert.ok(lines < 250, `README.md has ${lines} lines; move details into docs/guide/ or CONTRIBUTING.md`);
  });

  it('the README has the section the coexistence code links to ("Learn More"), if it links to one', () => {
    // The one-time toast that linked there became a choice in the Servers view; a link may return.
    const source = fs.readFileSync(path.join(REPO, 'src', 'coexistence', 'registerCoexistence.ts'), 'utf8');
    const section = /README_SECTION = '([^']+)'/.exec(source)?.[1];
    if (!section) return;
    assert.ok(anchors(fs.readFileSync(path.join(REPO, 'README.md'), 'utf8')).has(section), `README.md has a heading with the anchor #${section}`);
  });
});
