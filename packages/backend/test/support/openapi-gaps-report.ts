/**
 * Prints what the OpenAPI document's request side leaves undescribed (see `requestDocGaps`), by tag:
 * `node --conditions=source --import tsx packages/backend/test/support/openapi-gaps-report.ts [tag or path substring]`.
 */
import { requestDocGaps } from './openapi-checks.js';
import { client, startTestBackend } from './test-backend.js';

const filter = process.argv[2]?.toLowerCase();
const b = await startTestBackend();
try {
  const doc = (await client(b.url).get('/openapi.json')).body;
  const tagOf = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { tags?: string[] }>>))
    for (const [method, op] of Object.entries(item)) tagOf.set(`${method.toUpperCase()} ${path}`, op.tags?.[0] ?? '');
  const gaps = requestDocGaps(doc).filter((g) => {
    const op = g.slice(0, g.indexOf(': '));
    return !filter || op.toLowerCase().includes(filter) || (tagOf.get(op) ?? '').toLowerCase().includes(filter);
  });
  const byTag = new Map<string, string[]>();
  for (const g of gaps) {
    const tag = tagOf.get(g.slice(0, g.indexOf(': '))) ?? '';
    byTag.set(tag, [...(byTag.get(tag) ?? []), g]);
  }
  for (const [tag, list] of byTag) console.log(`\n## ${tag} (${list.length})\n${list.join('\n')}`);
  console.log(`\n${gaps.length} gaps`);
} finally {
  await b.close();
}
