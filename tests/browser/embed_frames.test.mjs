// embed.js sizes only the playground's own frames (issue 23, item 7): a course page (one origin) holds a
// playground iframe (the playground's origin, where embed.js comes from) and two foreign frames, one on a
// third origin and one on the course page's own, each posting the size message the playground posts.
// The foreign frames keep their height; the playground's frame still grows to its content.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, serveSite, openUrl, frameFollowsContent } from './harness.mjs';

let h, course, foreign;

/** A frame that claims to be a playground: it posts the size message, 20,000 px, again and again. */
const impostor = `<!doctype html><html><head><meta charset="utf-8"><title>not a playground</title><link rel="icon" href="data:,"></head>
<body><p>An advert.</p><script>
  const post = () => parent.postMessage({ type: 'attention-playground:size', height: 20000 }, '*');
  post();
  setInterval(post, 100);
  // It answers embed.js's question as a playground would, too.
  addEventListener('message', (e) => { if (e.data?.type === 'attention-playground:measure') post(); });
</script></body></html>`;

const coursePage = (playground, other) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Course page</title><link rel="icon" href="data:,">
<style>iframe { width: 100%; border: 0; display: block; }</style>
</head><body>
<iframe id="foreign" height="150" title="another origin" src="${other}impostor.html"></iframe>
<iframe id="local" height="150" title="the course page's origin" src="impostor.html"></iframe>
<iframe id="playground" height="400" title="playground" src="${playground}index.html#embed=1&panels=shapes&d_model=16&n_heads=2&source=random&n_q=3"></iframe>
<script src="${playground}embed.js"></script>
</body></html>`;

before(async () => {
  h = await startHarness();
  foreign = await serveSite({ 'impostor.html': impostor });
  course = await serveSite({ 'course.html': coursePage(h.url, foreign.url), 'impostor.html': impostor });
});
after(async () => { await course?.close(); await foreign?.close(); await h?.close(); });

test('a frame that is not a playground is never resized by its size message; the playground frame is', async () => {
  const page = await openUrl(h, `${course.url}course.html`, { waitForResult: false });
  const height = (id) => page.$eval(`#${id}`, (el) => el.getBoundingClientRect().height);
  // The playground's frame grows to its content (the message is from its origin and its window).
  await page.frameLocator('#playground').locator('#status', { hasText: 'Ran in' }).waitFor({ timeout: 30000 });
  // Grown to its content once its panels are built (settled), its fonts are in and the frame follows the
  // content's height (read in the frame, of another origin): that height is final, so it must stay.
  const frame = page.frames().find((f) => f.url().startsWith(h.url));
  await frame.waitForFunction(() => document.getElementById('playground')?.shadowRoot?.querySelector('.ap')?.dataset.settled === '1', null, { timeout: 30000 });
  await frame.evaluate(() => document.fonts.ready.then(() => {}));
  const seen = await frameFollowsContent(page, '#playground', frame);
  assert.ok(Math.abs(seen.frame - seen.content) <= 2, `the frame follows its content: ${JSON.stringify(seen)}`);
  const grown = await height('playground');
  assert.ok(grown > 400 && grown < 20000, `the playground frame is ${grown} px`);
  // The impostors have posted dozens of times by now (every 100 ms, and on embed.js's question).
  const posted = await page.frames().find((f) => f.url().startsWith(foreign.url))?.evaluate(() => document.readyState);
  assert.equal(posted, 'complete');
  await page.waitForTimeout(1000);
  assert.equal(await height('foreign'), 150, 'a frame of another origin keeps its height');
  assert.equal(await height('local'), 150, 'a frame of the course page’s own origin keeps its height');
  assert.equal(await height('playground'), grown);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
