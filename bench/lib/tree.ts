import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './proc.js';

/** The source tree the backend and runtime are started from. */
export interface ProductTree {
  readonly root: string;
  /** The commit it is, when it is a snapshot of one. */
  readonly ref?: { name: string; sha: string; subject: string };
  cleanup(): void;
}

/**
 * Without `ref`, the working tree as it is. With `ref` (a commit, `HEAD`), a snapshot of that
 * commit's sources in a temporary directory, sharing the installed dependencies: the numbers
 * are then those of the commit, whatever is being edited meanwhile.
 */
export function productTree(ref?: string): ProductTree {
  if (!ref) return { root: ROOT, cleanup: () => undefined };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const subject = git('log', '-1', '--format=%s', sha);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sd-bench-tree-'));
  const archive = spawnSync('sh', ['-c', `git archive ${sha} packages examples package.json tsconfig.json tsconfig.base.json | tar -x -C "${dir}"`], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (archive.status !== 0) throw new Error(`git archive ${ref} failed: ${archive.stderr}`);
  // The dependencies are those installed here; the workspace packages are the snapshot's own.
  const modules = path.join(dir, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === '@servicedesk') continue;
    symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  mkdirSync(path.join(modules, '@servicedesk'));
  for (const entry of readdirSync(path.join(ROOT, 'node_modules', '@servicedesk'))) {
    const target = entry.startsWith('example-') ? path.join(dir, 'examples', entry.slice('example-'.length)) : path.join(dir, 'packages', entry);
    symlinkSync(target, path.join(modules, '@servicedesk', entry));
  }
  return { root: dir, ref: { name: ref, sha, subject }, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
