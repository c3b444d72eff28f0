/**
 * A small, safe markdown subset for tool results shown in a webview: the text is
 * HTML-escaped first, then headings, paragraphs, lists, block quotes, fenced and inline
 * code, emphasis, rules and http(s)/mailto links are produced by this code alone. A tool
 * result can therefore never inject markup, scripts, styles or event handlers.
 *
 * Why not a markdown library: results are untrusted, and a full CommonMark renderer would
 * need a sanitizer on top; this subset covers what tools actually return, in ~100 lines.
 */

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Whether a text result reads as markdown rather than plain text (then it is rendered). */
export function looksLikeMarkdown(text: string): boolean {
  const signals = [
    /^#{1,6}\s+\S/m, // heading
    /^```/m, // fence
    /^\s*[-*+]\s+\S[\s\S]*^\s*[-*+]\s+\S/m, // two list items
    /^\s*\d+\.\s+\S[\s\S]*^\s*\d+\.\s+\S/m, // two numbered items
    /\*\*[^*\n]+\*\*/, // bold
    /\[[^\]\n]+\]\((https?:|mailto:)[^)\s]+\)/, // link
    /^>\s+\S/m, // quote
    /^\|.*\|\s*$\n^\|\s*:?-{3,}/m, // table
  ];
  return signals.some((re) => re.test(text));
}

/** Renders the markdown subset to HTML that contains only the tags this function writes. */
export function renderMarkdown(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let paragraph: string[] = [];
  let list: { tag: 'ul' | 'ol'; items: string[] } | undefined;
  const flushParagraph = () => {
    if (paragraph.length) out.push(`<p>${paragraph.map(inline).join('<br>')}</p>`);
    paragraph = [];
  };
  const flushList = () => {
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join('')}</${list.tag}>`);
    list = undefined;
  };
  const flush = () => {
    flushParagraph();
    flushList();
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*(```|~~~)\s*([\w+-]*)/.exec(line);
    if (fence) {
      flush();
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].trimStart().startsWith(fence[1]); i++) body.push(lines[i]);
      const lang = fence[2] ? ` class="language-${escapeHtml(fence[2])}"` : '';
      out.push(`<pre><code${lang}>${escapeHtml(body.join('\n'))}</code></pre>`);
      continue;
    }
    if (/^\s*$/.test(line)) {
      flush();
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      out.push(`<h${heading[1].length}>${inline(heading[2])}</h${heading[1].length}>`);
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush();
      out.push('<hr>');
      continue;
    }
    const quote = /^>\s?(.*)$/.exec(line);
    if (quote) {
      flush();
      const body = [quote[1]];
      while (i + 1 < lines.length && /^>\s?/.test(lines[i + 1])) body.push(lines[++i].replace(/^>\s?/, ''));
      out.push(`<blockquote>${renderMarkdown(body.join('\n'))}</blockquote>`);
      continue;
    }
    const item = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line);
    if (item) {
      flushParagraph();
      const tag = item[1] ? 'ul' : 'ol';
      if (list && list.tag !== tag) flushList();
      list ??= { tag, items: [] };
      list.items.push(item[3]);
      continue;
    }
    if (list && /^\s{2,}\S/.test(line)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    flushList();
    paragraph.push(line);
  }
  flush();
  return out.join('\n');
}

/** Inline markup on one escaped line: code spans first, so their content stays literal. */
function inline(text: string): string {
  const parts = text.split(/(`[^`]+`)/);
  return parts
    .map((part) => {
      if (/^`[^`]+`$/.test(part)) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      let html = escapeHtml(part);
      html = html.replace(
        /\[([^\]]+)\]\(((?:https?:|mailto:)[^)\s]+)\)/g,
        (_m, label: string, href: string) => `<a href="${href}" title="${href}">${label}</a>`,
      );
      html = html.replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, (_m, a?: string, b?: string) => `<strong>${a ?? b}</strong>`);
      html = html.replace(
        /(^|[^*\w])\*([^*\s][^*]*?)\*(?!\*)|(^|\W)_([^_\s][^_]*?)_(?!\w)/g,
        (_m, p1?: string, a?: string, p2?: string, b?: string) => `${p1 ?? p2 ?? ''}<em>${a ?? b}</em>`,
      );
      html = html.replace(/~~([^~]+)~~/g, '<del>$1</del>');
      return html;
    })
    .join('');
}
