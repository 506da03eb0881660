import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export interface StaticPage {
  /** HTML, CSS and JavaScript of the page, uncompressed and as served (Brotli). */
  readonly rawBytes: number;
  readonly encodedBytes: number;
  readonly listRows: number;
}

interface TicketRow {
  id: number;
  contact?: { name?: string; number?: string } | null;
  lastMessage?: string;
  updatedAt: string;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('') || '?';

/** One row with the console's markup and classes, at its place in a list of 72 px rows. */
function row(t: TicketRow, i: number): string {
  const name = t.contact?.name ?? t.contact?.number ?? '';
  return (
    `<li class="ticket-row-wrap" style="transform: translateY(${i * 72}px); height: 72px"><button type="button" class="ticket-row" data-testid="ticket-${t.id}">` +
    `<span class="avatar" aria-hidden="true">${esc(initials(name))}</span><span class="ticket-main"><span class="ticket-name">${esc(name)}</span>` +
    `<span class="ticket-last">${esc(t.lastMessage ?? '')}</span></span><span class="ticket-meta"><time>${esc(t.updatedAt.slice(11, 16))}</time></span></button></li>`
  );
}

/**
 * What the static page runs: a click on a row fetches that conversation's message page (a file of
 * the API's own answer) and renders its messages with the console's classes, scrolled to the
 * newest; a websocket frame `{id, name, lastMessage}` puts a row on top. Written as a string so
 * that it is served as is.
 */
const SCRIPT = `
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
const list = document.querySelector('[data-testid="ticket-list"] ul');
const pane = document.querySelector('.conversation-pane');
const place = () => [...list.children].forEach((li, i) => (li.style.transform = 'translateY(' + i * 72 + 'px)'));
list.addEventListener('click', async (e) => {
  const row = e.target.closest('[data-testid^="ticket-"]');
  if (!row) return;
  const page = await (await fetch('/assets/messages-' + row.dataset.testid.slice(7) + '.json')).json();
  pane.innerHTML = '<div class="conversation"><div class="messages" data-testid="messages" role="log" tabindex="0">' +
    page.messages.map((m) => '<article class="bubble' + (m.fromMe ? ' mine' : '') + '" data-testid="message"><p class="text">' + esc(m.body) +
      '</p><p class="meta"><time>' + new Date(m.createdAt).toLocaleTimeString() + '</time></p></article>').join('') + '</div></div>';
  const log = pane.querySelector('.messages');
  log.scrollTop = log.scrollHeight;
});
const ws = (window.__ws = new WebSocket('ws://' + location.host + '/ws'));
ws.onmessage = (e) => {
  const t = JSON.parse(e.data);
  list.insertAdjacentHTML('afterbegin', '<li class="ticket-row-wrap" style="height: 72px"><button type="button" class="ticket-row" data-testid="ticket-' + t.id +
    '"><span class="avatar" aria-hidden="true">NC</span><span class="ticket-main"><span class="ticket-name">' + esc(t.name) + '</span><span class="ticket-last">' +
    esc(t.lastMessage) + '</span></span><span class="ticket-meta"><time>now</time></span></button></li>');
  place();
};
`;

function html(title: string, rows: string, height: number): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    <link rel="stylesheet" href="/assets/page.css" />
    <script type="module" src="/assets/page.js"></script>
  </head>
  <body>
    <div id="root"><div class="inbox"><section class="ticket-pane"><h1 class="pane-title">Conversations</h1>
    <div class="ticket-list" data-testid="ticket-list"><ul style="height: ${height}px; position: relative">${rows}</ul></div></section>
    <section class="conversation-pane" aria-label="Messages"></section></div></div>
  </body>
</html>
`;
}

/**
 * Writes the console scenario's baseline into `dir`: `index.html` with the first page of tickets
 * already in it, the console's own stylesheet, and a script that is the few lines above followed
 * by the console's JavaScript inside a comment, padded so that HTML, CSS and JavaScript together
 * weigh `rawBytes` as the console's do (the browser fetches, decompresses and scans the same
 * bytes, and runs nothing of ours); the message pages as files; `list.html`, a static list to
 * scroll. Brotli and gzip copies beside each HTML, CSS and JavaScript file, as the console's build writes them.
 */
export async function buildStaticPage(
  dir: string,
  o: { css: string[]; js: string[]; rawBytes: number; tickets: TicketRow[]; messagePages: Record<number, string>; listRows: number },
): Promise<StaticPage> {
  const assets = path.join(dir, 'assets');
  mkdirSync(assets, { recursive: true });
  const index = html('Service Desk', o.tickets.map(row).join(''), o.tickets.length * 72);
  const css = o.css.join('\n');
  const fixed = Buffer.byteLength(index) + Buffer.byteLength(css) + Buffer.byteLength(SCRIPT) + 5;
  let comment = o.js.join('\n').replaceAll('*/', '* /');
  const room = Math.max(0, o.rawBytes - fixed);
  comment =
    Buffer.byteLength(comment) > room ? Buffer.from(comment).subarray(0, room).toString('utf8') : comment + ' '.repeat(room - Buffer.byteLength(comment));
  const js = `${SCRIPT}/*${comment}*/\n`;
  const files: Record<string, string> = { 'index.html': index, 'assets/page.css': css, 'assets/page.js': js };
  for (const [id, body] of Object.entries(o.messagePages)) files[`assets/messages-${id}.json`] = body;
  const many = Array.from({ length: o.listRows }, (_, i) => ({ ...o.tickets[i % o.tickets.length]!, id: 2_000_000 + i }));
  files['list.html'] = html('Service Desk', many.map(row).join(''), o.listRows * 72);
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  let encodedBytes = 0;
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    const data = Buffer.from(text);
    writeFileSync(file, data);
    let sent = data.length;
    // The API answers its JSON uncompressed: so are the message pages here.
    if (data.length >= 1024 && !name.endsWith('.json')) {
      const br = await brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
      writeFileSync(`${file}.br`, br);
      writeFileSync(`${file}.gz`, await gz(data, { level: 9 }));
      sent = br.length;
    }
    if (name === 'index.html' || name === 'assets/page.css' || name === 'assets/page.js') encodedBytes += sent;
  }
  return { rawBytes: Buffer.byteLength(index) + Buffer.byteLength(css) + Buffer.byteLength(js), encodedBytes, listRows: o.listRows };
}
