import { readFileSync } from 'node:fs';
const [file, fn] = [process.argv[2]!, process.argv[3]!];
const p = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map<number, any>(p.nodes.map((n: any) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map<number, number>();
p.samples.forEach((id: number, i: number) => self.set(id, (self.get(id) ?? 0) + p.timeDeltas[i]));
const agg = new Map<string, number>();
for (const [id, us] of self) {
  const n = byId.get(id);
  if (n.callFrame.functionName !== fn) continue;
  const chain: string[] = [];
  for (let cur = parent.get(id); cur !== undefined && chain.length < 14; cur = parent.get(cur)) {
    const f = byId.get(cur).callFrame;
    chain.push(`${f.functionName || '(anon)'}@${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`);
  }
  const k = chain.join(' < ');
  agg.set(k, (agg.get(k) ?? 0) + us);
}
for (const [k, us] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log((us / 1000).toFixed(0), 'ms', k);
