// Test helper: the repository root and every .js file under a folder, for the tests that read the
// sources or the built bundles as text (core rules, old browsers, import cycles, pool sources).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The path of every .js file under dir, depth first. */
export function jsFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...jsFiles(path));
    else if (name.endsWith('.js')) out.push(path);
  }
  return out;
}
