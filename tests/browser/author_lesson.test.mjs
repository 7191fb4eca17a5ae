// An author's own words and exercises (issue 38) on a course page of another origin: an element's child
// <script type="application/json" slot="lesson"> replaces a sentence and adds exercises graded by the
// engine (the learner's input and answer(), wrong then right), a refused lesson says why (an `error`
// event and a visible note naming the path); iframes with ?lesson= (a file on the playground's origin,
// and one on another origin, refused), whose every message carries its label and frame id; the
// statements the events and messages carry validate as xAPI.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { writeFile, rm, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startHarness, serveSite, openUrl, root, notebookPage } from './harness.mjs';
import { TEXT } from '../../web/src/lesson/chapters/attention/chapter.js';

const validate = createRequire(import.meta.url)('xapi-validation').default;
let h, course, foreign;
const LESSON_FILE = join(root, 'dist', 'author-lesson-test.json'); // on the playground's origin, as an author puts it

// The lesson's own sentence as the chapter's data has it (a copy here went stale when the chapter was rewritten).
const ORIGINAL = TEXT['chapter.attention.scores.p1'].slice(0, 40);
const elementLesson = {
  text: { 'chapter.attention.scores.p1': 'MY WORDS: a query scores every key, and the softmax makes the scores weights.',
    // A sentence of a lazy panel (its code and words arrive in panels.js, a bundle of its own): replaced too.
    'exercises.predict_then_check_engine': 'MY LEAD: guess first, then let the engine check.' },
  exercises: [
    { id: 'course.total', chapter: 'attention', kind: 'number', prompt: 'How many parameters has this layer (d_model {d_model}, {n_heads} heads, with biases)?',
      answer: { quantity: 'params.total' }, hint: 'Four matrices of {d_model}×{d_model}, and their biases.' },
    { id: 'course.scores', chapter: 'attention', kind: 'shape', prompt: 'The shape of the scores S_i for {n_q} tokens?', answer: { quantity: 'shape.scores' } },
  ],
};
const frameLesson = {
  text: { 'chapter.attention.scores.p1': 'MY FRAME WORDS about attention, read from a file beside the playground.' },
  exercises: [{ id: 'course.weight', chapter: 'attention', kind: 'number', prompt: 'Head {head_number}: how much weight does “{query_word}” give “{key_word}”?',
    answer: { quantity: 'attention_weight', head: 0, query: 3, key: 2 }, tolerance: { abs: 0.005 } }],
};
const badLesson = { exercises: [{ id: 'course.bad', chapter: 'attention', kind: 'number', prompt: 'x', answer: { quantity: 'params.everything' } }], colour: 'red' };

const script = (lesson) => `<script type="application/json" slot="lesson">${JSON.stringify(lesson)}</script>`;
const coursePage = (a, own) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A course page</title><link rel="icon" href="data:,">
<script type="module" src="${a}attention-playground.js"></script>
<style>iframe { width: 100%; height: 600px; border: 0; }</style>
<script>
  window.events = [];
  for (const type of ['attempt', 'progress', 'error']) document.addEventListener(type, (e) => window.events.push({ type, from: e.target.id, detail: e.detail }));
  window.messages = [];
  addEventListener('message', (e) => { if (String(e.data?.type).startsWith('attention-playground:')) window.messages.push({ origin: e.origin, data: e.data }); });
</script>
</head><body>
<attention-playground id="el" chapter="attention" exercises="course.total,course.scores,attention.uniform">${script(elementLesson)}</attention-playground>
<attention-playground id="bad" chapter="attention" panels="heatmaps">${script(badLesson)}</attention-playground>
<attention-playground id="empty" chapter="attention" panels="heatmaps"><script type="application/json" slot="lesson">  </script></attention-playground>
<iframe id="f1" name="intro" title="intro" src="${a}index.html?lesson=author-lesson-test.json#embed=1&chapter=attention&exercises=course.weight&label=Intro"></iframe>
<iframe id="f2" title="second" src="${a}index.html?lesson=${encodeURIComponent(`${own}lesson.json`)}#embed=1&chapter=attention&label=Second"></iframe>
</body></html>`;

before(async () => {
  h = await startHarness();
  await writeFile(LESSON_FILE, JSON.stringify(frameLesson));
  foreign = await serveSite({ 'lesson.json': JSON.stringify(frameLesson) }); // a lesson file on another origin
  course = await serveSite({ 'course.html': coursePage(h.url, foreign.url) });
});
after(async () => { await course?.close(); await foreign?.close(); await h?.close(); await rm(LESSON_FILE, { force: true }); });

const shadowText = (page, id) => page.evaluate((i) => document.getElementById(i).shadowRoot.textContent, id);
const card = (id) => `#el [data-exercise="${id}"]`;
const shadowOf = (page, selector) => page.evaluate((s) => document.querySelector(s).shadowRoot.textContent, selector);

/** Submits a card's typed answer and waits for the verdict. */
async function check(page, id, value) {
  const before = await page.locator(`${card(id)} .ex-verdict`).textContent();
  await page.fill(`${card(id)} input[name="answer"]`, value);
  await page.click(`${card(id)} button[type="submit"]`);
  await page.waitForFunction(([sel, was]) => {
    const text = document.querySelector('#el').shadowRoot.querySelector(sel)?.textContent ?? '';
    return text !== was && !text.startsWith('Asking');
  }, [`[data-exercise="${id}"] .ex-verdict`, before]);
  return page.locator(`${card(id)} .ex-verdict`).textContent();
}

test('an author\'s lesson: words replaced, exercises graded by the engine, bad files refused by path, frames named in every message', async () => {
  const own = foreign.url;
  const page = await openUrl(h, `${course.url}course.html`, { waitForResult: false });
  page.setDefaultTimeout(60000);

  // The element: the author's sentence instead of the lesson's.
  await page.locator('#el [data-exercise="course.total"]').waitFor();
  const words = await shadowText(page, 'el');
  assert.match(words, /MY WORDS: a query scores every key/);
  assert.equal(words.includes(ORIGINAL), false, 'the lesson\'s own sentence is replaced');
  assert.match(words, /MY LEAD: guess first, then let the engine check\./, 'a lazy panel\'s sentence is replaced too');
  assert.equal(words.includes('Predict, then check: the engine answers'), false);

  // Its exercises, listed with prompts filled from the live layer (after the chapter's own, in the attribute's order).
  const listed = await page.evaluate(() => document.querySelector('#el').exercises);
  assert.deepEqual(listed.map((e) => [e.id, e.kind]), [['course.total', 'number'], ['course.scores', 'shape'], ['attention.uniform', 'number']]);
  assert.equal(listed[0].prompt, 'How many parameters has this layer (d_model 64, 4 heads, with biases)?');
  assert.equal(listed[1].prompt, 'The shape of the scores S_i for 10 tokens?');

  // Wrong, then right, by answer(): the author's hint, then the engine's answer (4·64² + 4·64, computed here).
  const results = await page.evaluate(async () => {
    const el = document.querySelector('#el');
    return [await el.answer('course.total', 16384), await el.answer('course.total', '16,640')];
  });
  assert.deepEqual(results[0], { correct: false, hint: 'Four matrices of 64×64, and their biases.' });
  assert.equal(results[1].correct, true);
  assert.equal(results[1].expected, 4 * 64 * 64 + 4 * 64);
  assert.equal(results[1].explanation, 'The engine computes params.total = 16640 for this layer.');
  // Wrong, then right, by the learner's input in the card.
  await page.click('#el [data-mark="course.scores"]');
  assert.match(await check(page, 'course.scores', '1×4×10×9'), /^Not quite\. Hint: Look again at what the playground shows for this layer: the engine computes shape\.scores from it\./);
  assert.match(await check(page, 'course.scores', '1×4×10×10'), /^Right\. The engine’s answer: 1×4×10×10\./);

  // The events: attempts counted in progress, each with an xAPI statement that validates.
  const events = await page.evaluate(() => window.events.filter((e) => e.from === 'el'));
  const attempts = events.filter((e) => e.type === 'attempt').map((e) => e.detail);
  assert.deepEqual(attempts.map((a) => [a.id, a.correct, a.attempts]), [['course.total', false, 1], ['course.total', true, 2], ['course.scores', false, 1], ['course.scores', true, 2]]);
  for (const a of attempts) {
    assert.deepEqual(validate(a.statement), [], `${a.id}: ${JSON.stringify(a.statement)}`);
    assert.equal(a.statement.object.id, `urn:attention-playground:exercise:${a.id}`);
    assert.equal(a.statement.result.success, a.correct);
  }
  const progress = events.filter((e) => e.type === 'progress').at(-1).detail;
  assert.deepEqual([progress.done, progress.total], [2, 3]);
  assert.equal(events.some((e) => e.type === 'error'), false, 'a good lesson is no error');

  // A refused lesson: an error event naming every path, and a note the learner sees; the lesson's words stay.
  const refused = await page.evaluate(() => window.events.filter((e) => e.from === 'bad' && e.type === 'error').map((e) => e.detail));
  assert.equal(refused.length, 1, JSON.stringify(refused));
  assert.equal(refused[0].field, 'lesson');
  assert.match(refused[0].message, /colour: unknown field/);
  assert.match(refused[0].message, /exercises\[0\]\.answer\.quantity: unknown quantity "params\.everything"/);
  await page.waitForFunction(() => /Your lesson file is not used: the lesson file is refused/.test(document.querySelector('#bad').shadowRoot.getElementById('notes')?.textContent ?? ''));
  assert.equal(await page.evaluate(() => document.querySelector('#bad').shadowRoot.getElementById('notes').hidden), false);
  // The note is the lesson's, not the link's (an element has no link), and an edit does not take it away.
  await page.$eval('#bad', (el) => el.setAttribute('d_model', '32'));
  await page.waitForFunction(() => document.querySelector('#bad').result?.state?.d_model === '32');
  const notes = await page.evaluate(() => document.querySelector('#bad').shadowRoot.getElementById('notes').textContent);
  assert.match(notes, /^Your lesson file is not used: the lesson file is refused/, notes);
  assert.doesNotMatch(notes, /From the link/);
  // An empty lesson script is refused too (it was ignored without a word).
  const empty = await page.waitForFunction(() => window.events.find((e) => e.from === 'empty' && e.type === 'error')?.detail);
  assert.deepEqual(await empty.jsonValue(), { field: 'lesson', message: 'the lesson file is refused: lesson: the slot="lesson" script is empty: put the lesson\'s JSON in it, or remove it' });

  // The frame with ?lesson= on the playground's origin: the file's words and its exercise, answered by the learner.
  await page.locator('#f1').scrollIntoViewIfNeeded(); // a frame of another origin off screen is not laid out
  const f1 = page.frameLocator('#f1');
  await f1.locator('#status', { hasText: 'Ran in' }).waitFor();
  await f1.locator('[data-exercise="course.weight"] input[name="answer"]').waitFor();
  assert.match(await f1.locator('#playground').evaluate((el) => el.shadowRoot.textContent), /MY FRAME WORDS about attention/);
  assert.match(await f1.locator('[data-exercise="course.weight"] h3').textContent(), /^Head 1: how much weight does “on” give “sat”\?/);
  await f1.locator('[data-exercise="course.weight"] input[name="answer"]').fill('0.01');
  await f1.locator('[data-exercise="course.weight"] button[type="submit"]').click();
  await page.waitForFunction(() => window.messages.some((m) => m.data.type === 'attention-playground:attempt'));

  // The frame on another origin's lesson: refused, saying where a lesson file must be.
  await page.locator('#f2').scrollIntoViewIfNeeded();
  const f2 = page.frameLocator('#f2');
  await f2.locator('#notes', { hasText: 'not on this page\'s origin' }).waitFor();
  const note = await f2.locator('#notes').textContent();
  assert.match(note, new RegExp(`lesson=${own.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}lesson\\.json is on ${new URL(own).origin.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, not on this page's origin`));
  assert.doesNotMatch(await f2.locator('#playground').evaluate((el) => el.shadowRoot.textContent), /MY FRAME WORDS/);

  // Every message names its frame: the label and the frame id (the iframe's name, else one made per load).
  await page.waitForFunction(() => window.messages.some((m) => m.data.label === 'Second'));
  const messages = await page.evaluate(() => window.messages);
  const playgroundOrigin = new URL(h.url).origin;
  assert.ok(messages.length >= 4, `${messages.length} messages`);
  for (const { origin, data } of messages) {
    assert.equal(origin, playgroundOrigin);
    assert.ok(['Intro', 'Second'].includes(data.label), JSON.stringify(data));
    if (data.label === 'Intro') assert.equal(data.frame, 'intro');
    else assert.match(data.frame, /^frame-[0-9a-f]{8}$/);
  }
  assert.equal(new Set(messages.filter((m) => m.data.label === 'Second').map((m) => m.data.frame)).size, 1, 'one id per frame');
  assert.ok(messages.some((m) => m.data.type === 'attention-playground:size' && m.data.frame === 'intro'), 'the size message is named too');
  const attempt = messages.find((m) => m.data.type === 'attention-playground:attempt');
  assert.deepEqual([attempt.data.id, attempt.data.correct, attempt.data.label, attempt.data.frame], ['course.weight', false, 'Intro', 'intro']);
  assert.deepEqual(validate(attempt.data.statement), [], JSON.stringify(attempt.data.statement));
  assert.equal(attempt.data.statement.object.definition.description['en-US'], 'Head 1: how much weight does “on” give “sat”?');
  assert.deepEqual(page.problems.filter((p) => !/lesson/.test(p)), []);
  await page.closeAll();
});

test('EMBED.md\'s snippets as written: the example lesson in an element, and the listener that tells two frames apart', async () => {
  const doc = await readFile(join(root, 'web/EMBED.md'), 'utf8');
  const own = doc.slice(doc.indexOf('## Your own words and exercises'), doc.indexOf('## Grades in an LMS'));
  const element = /```html\n([\s\S]*?)```/.exec(own)[1];
  const framesSection = doc.slice(doc.indexOf('### Messages from frames'), doc.indexOf('## Export and import'));
  const frames = /```html\n([\s\S]*?)```/.exec(framesSection)[1];
  const playground = new URL(h.url).origin;
  const framesHere = frames.replaceAll('https://example.org/attention/', h.url).replaceAll("'https://example.org'", `'${playground}'`);
  assert.notEqual(framesHere, frames);
  const site = await serveSite({
    'element.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title><link rel="icon" href="data:,">
<script type="module" src="${h.url}attention-playground.js"></script></head><body>${element}</body></html>`,
    'frames.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title><link rel="icon" href="data:,"></head><body>${framesHere}</body></html>`,
  });
  try {
    // "changes the playground's words and adds exercises of your own": the sentence, and the three exercises after the chapter's own.
    const page = await openUrl(h, `${site.url}element.html`, { waitForResult: false });
    page.setDefaultTimeout(60000);
    await page.locator('attention-playground [data-exercise="mycourse.dominant"]').waitFor({ state: 'attached' });
    assert.match(await shadowOf(page, 'attention-playground'), /Each word asks a question \(its query\) and offers an answer/);
    await page.waitForFunction(() => document.querySelector('attention-playground').exercises.every((e) => e.prompt));
    const listed = await page.evaluate(() => document.querySelector('attention-playground').exercises.map((e) => [e.id, e.prompt]));
    assert.deepEqual(listed.slice(-3), [['mycourse.weight', 'In head 1, how much weight does “on” give “sat”?'],
      ['mycourse.params', 'How many parameters has this layer (d_model 64, 4 heads, with biases)?'],
      ['mycourse.dominant', 'With 10 tokens and d_model 64, which part costs the most?']]);
    // Graded by the engine: a first try at the choice, right (10 tokens < 64: the projections), with the author's explanation.
    const r = await page.evaluate(() => document.querySelector('attention-playground').answer('mycourse.dominant', 'the four projections'));
    assert.deepEqual([r.correct, r.expected, r.explanation], [true, 'projections', 'The engine\'s count says: projections.']);
    assert.deepEqual(page.problems, []);
    await page.closeAll();

    // "Name your frames and the messages say which is which": each paragraph shows its own frame's progress.
    const frames = await openUrl(h, `${site.url}frames.html`, { waitForResult: false, height: 2000 });
    frames.setDefaultTimeout(60000);
    await frames.waitForFunction(() => document.getElementById('score-intro').textContent && document.getElementById('score-cost').textContent);
    assert.match(await frames.textContent('#score-intro'), /^Introduction: 0 of \d+ done$/);
    assert.match(await frames.textContent('#score-cost'), /^Cost: 0 of 9 done$/);
    assert.deepEqual(frames.problems, []);
    await frames.closeAll();
  } finally {
    await site.close();
  }
});

test('the notebook widget reads a `lesson` key: the author\'s sentence and exercise, counted in its progress trait', async () => {
  const site = await serveSite({ 'cell.html': notebookPage(h.url, { chapter: 'attention', exercises: 'course.total', progress: {}, lesson: elementLesson }) });
  try {
    const page = await openUrl(h, `${site.url}cell.html`, { waitForResult: false });
    page.setDefaultTimeout(60000);
    const root = () => page.evaluate(() => document.querySelector('#cell > div').shadowRoot.textContent);
    await page.locator('#cell [data-exercise="course.total"] input[name="answer"]').fill('16640');
    assert.match(await root(), /MY WORDS: a query scores every key/);
    assert.match(await page.locator('#cell [data-exercise="course.total"] h3').textContent(), /\(d_?model 64, 4 heads, with biases\)/); // d_model is drawn with a subscript
    await page.click('#cell [data-exercise="course.total"] button[type="submit"]');
    await page.waitForFunction(() => window.model.get('progress')?.done === 1);
    assert.deepEqual(await page.evaluate(() => window.model.get('progress')), { chapter: 'attention', done: 1, total: 1, score: 1, first_try: 1 });
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  } finally {
    await site.close();
  }
});

test('the share builder keeps the lesson: its links name the file, the element and the widgets carry it (a hostile probe: they dropped it)', async () => {
  const page = await openUrl(h, `${h.url}index.html?lesson=author-lesson-test.json#chapter=attention`);
  try {
    await page.waitForFunction(() => /MY FRAME WORDS about attention/.test(document.querySelector('#playground')?.shadowRoot?.textContent ?? ''));
    await page.click('#share-builder summary');
    await page.waitForSelector('[data-snippet="element"]');
    const texts = await page.$$eval('[data-snippet]', (all) => Object.fromEntries(all.map((f) => [f.dataset.snippet, f.value])));
    assert.match(texts.permalink, /\/index\.html\?lesson=author-lesson-test\.json#/, texts.permalink);
    assert.match(texts.iframe, /index\.html\?lesson=author-lesson-test\.json#[^"]*embed=1/, texts.iframe);
    assert.match(texts.element, /<script type="application\/json" slot="lesson">\{.*MY FRAME WORDS about attention.*\}<\/script>\n<\/attention-playground>/s, texts.element);
    assert.equal(JSON.parse(texts.myst.split('\n')[1]).lesson.text['chapter.attention.scores.p1'], frameLesson.text['chapter.attention.scores.p1']);
    assert.match(texts.python, /^ {4}lesson = traitlets\.Unicode\(".*MY FRAME WORDS.*"\)\.tag\(sync=True\)$/m);
    assert.match(texts.scorm, /^npm run scorm -- --chapter attention .*--lesson dist\/author-lesson-test\.json$/m, texts.scorm);
    // The link opens the same view: the file's words and its exercise.
    const again = await openUrl(h, texts.permalink);
    try {
      await again.waitForFunction(() => /MY FRAME WORDS about attention/.test(document.querySelector('#playground')?.shadowRoot?.textContent ?? ''));
      assert.deepEqual(again.problems, []);
    } finally {
      await again.context().close();
    }
    assert.deepEqual(page.problems, []);
  } finally {
    await page.context().close();
  }
});

test('a link may carry lesson= in the hash: it moves into the query, the words are the file\'s, and an edit keeps it', async () => {
  const page = await openUrl(h, `${h.url}index.html#chapter=attention&lesson=author-lesson-test.json&step=1`);
  try {
    await page.waitForFunction(() => /MY FRAME WORDS about attention/.test(document.querySelector('#playground')?.shadowRoot?.textContent ?? document.body.textContent));
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('lesson'), 'author-lesson-test.json', page.url());
    assert.doesNotMatch(url.hash, /lesson=/, 'the hash keeps only view keys');
    assert.match(url.hash, /chapter=attention/);
    assert.deepEqual(page.problems, []);
  } finally {
    await page.context().close();
  }
});
