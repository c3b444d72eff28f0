#!/usr/bin/env node
// Moves every user-facing string of package.json into package.nls.json (VS Code's manifest
// localization: `"title": "%command.startServer.title%"`), so translators get one file and a
// `package.nls.<locale>.json` beside it translates the manifest. Idempotent: strings already
// `%key%` are left alone, new ones are added; keys no longer used are dropped.
//
//   node scripts/nls-manifest.mjs          rewrite package.json and package.nls.json
//   node scripts/nls-manifest.mjs --check  exit 1 if a user-facing string is not localized
//                                          (test/unit/manifest.test.ts runs the same check)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { localizeManifest } from './nlsManifest.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifestFile = path.join(root, 'package.json');
const nlsFile = path.join(root, 'package.nls.json');
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
const nls = fs.existsSync(nlsFile) ? JSON.parse(fs.readFileSync(nlsFile, 'utf8')) : {};
const { manifest: localized, nls: strings, moved, unknownKeys } = localizeManifest(manifest, nls);

if (process.argv.includes('--check')) {
  const problems = [
    ...moved.map((m) => `${m.where}: "${m.text}" is not in package.nls.json`),
    ...unknownKeys.map((k) => `%${k}% is used in package.json but not defined in package.nls.json`),
  ];
  for (const p of problems) console.error(p);
  if (problems.length) console.error('Run `node scripts/nls-manifest.mjs` to move them.');
  process.exit(problems.length ? 1 : 0);
}
fs.writeFileSync(manifestFile, JSON.stringify(localized, null, 2) + '\n');
fs.writeFileSync(nlsFile, JSON.stringify(strings, null, 2) + '\n');
console.log(`package.nls.json: ${Object.keys(strings).length} strings (${moved.length} moved now).`);
