// The pure part of scripts/nls-manifest.mjs: which strings of package.json a user reads, and
// the keys they get in package.nls.json. VS Code replaces a `%key%` string anywhere in the
// manifest (its replaceNLStrings walks every value), so the rule is by field name and place.

/** Field names whose string (or array of strings) a user reads. */
const TEXT_FIELDS = new Set([
  'displayName',
  'title',
  'shortTitle',
  'category',
  'description',
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'deprecationMessage',
  'markdownDeprecationMessage',
  'label',
  'contents',
  'fullName',
  'altText',
  'contextualTitle',
  'enumItemLabels',
]);
/** Subtrees that hold no user-facing text, or whose text is an identifier. */
const SKIPPED_TOP = new Set([
  'name',
  'publisher',
  'version',
  'license',
  'repository',
  'keywords',
  'engines',
  'categories',
  'main',
  'activationEvents',
  'scripts',
  'dependencies',
  'devDependencies',
  'icon',
  'galleryBanner',
  'private',
  'l10n',
]);
const SKIPPED_CONTRIBUTES = new Set(['menus', 'jsonValidation', 'grammars', 'languages', 'keybindings']);

const NLS_REF = /^%([^%\s]+)%$/;

/**
 * @param {object} manifest package.json
 * @param {Record<string, string>} nls package.nls.json as it is
 * @returns {{ manifest: object, nls: Record<string, string>, moved: {where: string, text: string}[], unknownKeys: string[] }}
 */
export function localizeManifest(manifest, nls) {
  const out = structuredClone(manifest);
  /** @type {Record<string, string>} */
  const strings = {};
  const moved = [];
  const unknownKeys = [];

  const take = (key, text, where) => {
    const ref = NLS_REF.exec(text);
    if (ref) {
      if (nls[ref[1]] === undefined) unknownKeys.push(ref[1]);
      else strings[ref[1]] = nls[ref[1]];
      return text;
    }
    let unique = key;
    for (let i = 2; strings[unique] !== undefined && strings[unique] !== text; i++) unique = `${key}.${i}`;
    strings[unique] = text;
    moved.push({ where, text });
    return `%${unique}%`;
  };

  const walk = (node, keyPath, where) => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, [...keyPath, nameOf(item, i)], `${where}[${i}]`));
      return;
    }
    if (!node || typeof node !== 'object') return;
    for (const [field, value] of Object.entries(node)) {
      if (field === 'default' || field === 'examples' || field === 'enum' || field === 'const' || field === 'pattern') continue;
      const here = `${where}.${field}`;
      // A view's `name` is its title; elsewhere `name` is an identifier (a chat participant's, a command's).
      const isText = TEXT_FIELDS.has(field) || (field === 'name' && keyPath[0] === 'views');
      if (isText && typeof value === 'string' && value.trim()) {
        node[field] = take(keyFor([...keyPath, field], value, field), value, here);
      } else if (isText && Array.isArray(value) && value.every((v) => typeof v === 'string')) {
        node[field] = value.map((v, i) => (v.trim() ? take(keyFor([...keyPath, field, String(i)], v, field), v, `${here}[${i}]`) : v));
      } else if (value && typeof value === 'object') {
        walk(value, [...keyPath, field], here);
      }
    }
  };

  for (const field of ['displayName', 'description']) {
    if (typeof out[field] === 'string') out[field] = take(`extension.${field}`, out[field], field);
  }
  for (const [field, value] of Object.entries(out)) {
    if (SKIPPED_TOP.has(field) || field === 'displayName' || field === 'description' || field === 'contributes') continue;
    walk(value, [field], field);
  }
  for (const [field, value] of Object.entries(out.contributes ?? {})) {
    if (SKIPPED_CONTRIBUTES.has(field)) continue;
    walk(value, [field], `contributes.${field}`);
  }
  return { manifest: out, nls: strings, moved, unknownKeys };
}

/** An array item's name in a key: its id, command or type rather than its index, where it has one. */
function nameOf(item, index) {
  if (item && typeof item === 'object') {
    for (const field of ['command', 'id', 'view', 'type', 'name']) {
      if (typeof item[field] === 'string' && !NLS_REF.test(item[field])) return item[field].replace(/^mcpWorkbench\./, '');
    }
  }
  return String(index);
}

/** `contributes.commands.startServer.title` → `command.startServer.title`; one shared key for the "MCP" category. */
function keyFor(parts, text, field) {
  if (field === 'category' && parts[0] === 'commands') return `command.category.${text.replace(/\W+/g, '')}`;
  const [head, ...rest] = parts;
  const prefix =
    {
      commands: 'command',
      configuration: 'config',
      views: 'view',
      viewsContainers: 'viewContainer',
      viewsWelcome: 'viewWelcome',
      walkthroughs: 'walkthrough',
      debuggers: 'debugger',
      chatParticipants: 'chat',
      capabilities: 'capabilities',
    }[head] ?? head;
  return [prefix, ...rest.filter((p) => p !== 'properties' || prefix !== 'config')].map((p) => p.replace(/^mcpWorkbench\./, '')).join('.');
}
