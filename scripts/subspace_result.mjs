// Writes the lesson's recorded result of "one head against two" (web/src/lesson/chapters/heads/subspace_result.js):
// the subspace panel's own handler run by the engine in Node, so the page can show the figures before
// (or without) training in the tab. tests/js/subspace.test.mjs runs it again and holds the record to it.
// Run: node scripts/subspace_result.mjs
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../web/src/engine/attention.js';
import { handlers } from '../web/src/features/subspace/handler.js';

const OUT = fileURLToPath(new URL('../web/src/lesson/chapters/heads/subspace_result.js', import.meta.url));

const attn = await loadAttention({ simd: true });
const result = await handlers.subspaceTrain({}, { labs: () => attn.labs() });
writeFileSync(OUT, `// One head against two on the training lab's two-relation task, as the core computed it (written by
// scripts/subspace_result.mjs with the subspace panel's handler, ${attn.isa}; tests/js/subspace.test.mjs
// recomputes it). The subspace panel shows it until the learner trains both models in the tab.

export const SUBSPACE_RESULT = ${JSON.stringify({ ...result, isa: attn.isa }, null, 2)};
`);
console.log(result.runs.map((r) => `${r.n_heads} head(s), d_k ${r.d_k}: accuracy ${r.accuracy}`).join('\n'));
