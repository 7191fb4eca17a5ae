// The lesson's chapters on the page: the first view (no hash) is chapter `attention` with three
// constructed heads whose weights do what their line says; the chapter list is a named nav with
// aria-current, previous/next move focus to the new chapter's title and the URL follows; every chapter
// shows its own panels and form fields (reference: all of them), its secondary panels collapsed (a
// heading button that opens them, builds the panel and stays open within the chapter); an old link keeps
// its random heads; panels= alone replaces the chapter, beside a named chapter it picks the panels. Every chapter but reference fits in two 800-px screens at 1280 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, resultReady, chapterDrawn } from './harness.mjs';
import { CHAPTERS, chapterOf, foldedPanels, stepOf } from '../../web/src/lesson/chapters.js';
import { visiblePanels, FEATURE_NAMES } from '../../web/src/features/index.js';
import { defaults } from '../../web/src/model/schema.js';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** What the playground shows now: its panels, its form's visible fields, the chapter list and the head lines. */
const shown = (page) => page.evaluate(() => {
  const root = playgroundRoot();
  const visible = (el) => !!el && el.getClientRects().length > 0;
  return {
    panels: [...root.querySelectorAll('section[data-panel]')].filter((s) => !s.hidden).map((s) => s.dataset.panel),
    folds: [...root.querySelectorAll('.panel-fold')].filter((f) => !f.hidden).map((f) => f.dataset.fold), // collapsed sections
    fields: [...root.querySelectorAll('#controls [data-field]')].filter(visible).map((b) => b.dataset.field),
    preset: visible(root.getElementById('preset-field')),
    current: [...root.querySelectorAll('nav.chapters [aria-current="page"]')].map((b) => b.dataset.chapter),
    navName: root.querySelector('nav.chapters')?.getAttribute('aria-label'),
    navShown: visible(root.querySelector('nav.chapters')),
    title: root.getElementById('chapter-title')?.textContent,
    jobs: [...root.querySelectorAll('#head-jobs li')].map((li) => [li.dataset.pattern, li.textContent]),
    hash: location.hash,
  };
});

test('the first view: chapter attention, three constructed heads that do what their lines say, random heads one click away', async () => {
  const page = await openPage(h, '', { asIs: true });
  const s = await shown(page);
  assert.deepEqual(s.current, ['attention']);
  assert.equal(s.navName, 'Chapters');
  assert.equal(s.title, CHAPTERS[0].title);
  assert.deepEqual([...s.panels].sort(), visiblePanels({ ...defaults(), chapter: "attention" }).sort());
  // Step 1 of the chapter: the maps (the query is followed at step 2, checked below).
  assert.ok(s.panels.includes('heatmaps') && !s.panels.includes('cost'), `attention shows ${s.panels}`);
  // Only the chapter's fields: the sentence and the mask, not the layer's sizes.
  // (The mask is the field of the chapter's mask step: checked there below.)
  assert.ok(s.fields.includes('text'), `fields ${s.fields}`);
  assert.ok(!s.fields.includes('d_model') && !s.fields.includes('seed') && !s.preset, `fields ${s.fields}`);
  assert.deepEqual(s.jobs.map(([p]) => p), ['previous', 'same_word', 'first_token', 'random']);
  assert.match(s.jobs[0][1], /Head 1: built to look at the token just before/);
  assert.match(s.jobs[3][1], /random/);

  // The engine's weights do what the lines say: per head, where each query's largest weight lies.
  const words = 'the cat sat on the mat because it was warm'.split(' ');
  const argmax = await page.evaluate(() => [...playgroundRoot().querySelectorAll('.heat-small')].map((f) => f.dataset.head));
  assert.equal(argmax.length, 4);
  const rowsOf = async (head) => {
    await page.evaluate((k) => playgroundRoot().querySelector(`.heat-small[data-head="${k}"] canvas`).click(), head);
    await page.waitForFunction((k) => playgroundRoot().querySelector('.heat-small.selected')?.dataset.head === String(k), head);
    const flat = JSON.parse(await page.evaluate(() => playgroundRoot().querySelector('.heat-main-canvas').dataset.attention));
    return words.map((_, i) => flat.slice(i * words.length, (i + 1) * words.length));
  };
  const best = (row) => row.indexOf(Math.max(...row));
  const previous = await rowsOf(0);
  for (let i = 1; i < words.length; i++) assert.equal(best(previous[i]), i - 1, `head 1, query ${i} (“${words[i]}”) looks at ${best(previous[i])}`);
  const same = await rowsOf(1);
  assert.equal(best(same[4]), 0, 'head 2: the second “the” looks at the first');
  assert.equal(best(same[0]), 4, 'head 2: the first “the” looks at the second');
  const first = await rowsOf(2);
  for (let i = 0; i < words.length; i++) assert.equal(best(first[i]), 0, `head 3, query ${i} looks at the first token`);

  // Random heads, one click; the link keeps the choice (the page's hash always names the chapter).
  await page.click('#heads-switch');
  await page.waitForFunction(() => [...playgroundRoot().querySelectorAll('#head-jobs li')].every((li) => li.dataset.pattern === 'random'));
  await resultReady(page);
  const after = await shown(page);
  assert.match(after.hash, /heads=random/);
  assert.match(after.hash, /chapter=attention/);
  await page.click('#heads-switch');
  await page.waitForFunction(() => playgroundRoot().querySelector('#head-jobs li')?.dataset.pattern === 'previous');
  // Step 2 of the chapter (where following one query now is): the query.
  await page.click('#step-next');
  await page.waitForFunction(() => location.hash.includes('step=2'));
  const step2 = await shown(page);
  assert.ok(step2.panels.includes('query') && !step2.panels.includes('cost'), `attention step 2 shows ${step2.panels}`);
  const maskStep = CHAPTERS[0].steps.findIndex((step) => step.fields?.includes('mask')) + 1;
  await page.click(`.step-dot[data-step="${maskStep}"]`);
  await page.waitForFunction((n) => location.hash.includes(`step=${n}`), maskStep);
  const atMask = await shown(page);
  // The step's own fields (the mask first, at the top of the inputs), none of the chapter's others.
  const maskFields = CHAPTERS[0].steps[maskStep - 1].fields;
  assert.ok(atMask.fields.includes('mask') && atMask.fields.every((f) => maskFields.includes(f)), `fields at step ${maskStep}: ${atMask.fields}`);
  assert.ok(!atMask.fields.includes('d_model') && !atMask.fields.includes('seed') && !atMask.preset, `fields ${atMask.fields}`);
  await page.click('.step-dot[data-step="1"]');
  await page.waitForFunction(() => !location.hash.includes('step='));

  // Each chapter is one or two screens: at 1280 × 800 its page is at most 1,600 px tall once its panels
  // are drawn (reference, every panel at once, is long on purpose). scripts/measure_chapters.mjs measures
  // the same from fresh pages, and at 375 px too.
  await page.setViewportSize({ width: 1280, height: 800 });
  const heights = {};
  for (const chapter of CHAPTERS.filter((c) => c.name !== 'reference')) {
    await page.evaluate((name) => playgroundRoot().querySelector(`nav.chapters button[data-chapter="${name}"]`).click(), chapter.name);
    await page.waitForFunction((name) => location.hash.includes(`chapter=${name}`), chapter.name);
    await chapterDrawn(page);
    await page.waitForTimeout(300); // the last layout (charts, fonts)
    heights[chapter.name] = await page.evaluate(() => document.documentElement.scrollHeight);
  }
  console.log(`chapter heights at 1280 × 800: ${JSON.stringify(heights)}`);
  const over = Object.entries(heights).filter(([, px]) => px > 1600);
  assert.deepEqual(over, [], `chapters taller than 1,600 px at 1280 × 800 (all: ${JSON.stringify(heights)})`);

  // A phone: the chapter list is one row that scrolls sideways, kept scrolled to the chapter chosen (a
  // late one, off the row's first screen), the page itself does not scroll sideways, and previous/next share a row.
  await page.setViewportSize({ width: 375, height: 667 });
  await page.evaluate(() => playgroundRoot().querySelector('nav.chapters button[data-chapter="positions"]').click());
  await page.waitForFunction(() => location.hash.includes('chapter=positions'));
  // The list is scrolled after the chapter is drawn, in the next frame: wait for it rather than for a fixed time.
  await page.waitForFunction(() => {
    const root = playgroundRoot();
    const list = root.querySelector('.chapter-list').getBoundingClientRect();
    const current = root.querySelector('nav.chapters [aria-current]')?.getBoundingClientRect();
    return current && current.left >= list.left - 1 && current.right <= list.right + 1;
  }, null, { timeout: 15000, polling: 50 }).catch(() => {}); // the assertion below says what it found
  const phone = await page.evaluate(() => {
    const root = playgroundRoot();
    const list = root.querySelector('.chapter-list');
    const box = (el) => el.getBoundingClientRect();
    const current = box(root.querySelector('nav.chapters [aria-current]'));
    const l = box(list);
    return {
      rows: new Set([...list.children].map((li) => Math.round(box(li).top))).size,
      listHeight: Math.round(l.height),
      currentInSight: current.left >= l.left - 1 && current.right <= l.right + 1,
      pageWidth: document.documentElement.scrollWidth,
      pager: ['chapter-prev', 'chapter-next'].map((id) => Math.round(box(root.getElementById(id)).top)),
      // Each button's shown words (the long title hidden) and what a screen reader hears of them.
      pagerNames: ['chapter-prev', 'chapter-next'].map((id) => {
        const button = root.getElementById(id);
        return { long: button.querySelector('.pager-long').checkVisibility(), short: button.querySelector('.pager-short').textContent };
      }),
    };
  });
  assert.equal(phone.rows, 1, `chapter list at 375 px: ${JSON.stringify(phone)}`);
  assert.ok(phone.listHeight < 60, `chapter list at 375 px: ${JSON.stringify(phone)}`);
  assert.ok(phone.currentInSight, `the current chapter is scrolled into the row: ${JSON.stringify(phone)}`);
  assert.ok(phone.pageWidth <= 375, `the page scrolls sideways at 375 px: ${JSON.stringify(phone)}`);
  assert.equal(phone.pager[0], phone.pager[1], `previous and next on one row: ${JSON.stringify(phone)}`);
  assert.deepEqual(phone.pagerNames, [{ long: false, short: 'Previous: GQA & KV cache' }, { long: false, short: 'Next: Training' }],
    'the pager names its neighbours by their short names');
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});

test('the chapter list: next and previous move focus to the title, the URL and Back follow, each chapter shows its own panels and fields', async () => {
  const page = await openPage(h, '#d_model=32&n_heads=2', { asIs: true });
  // An old link (keys given, no chapter): chapter attention, and its heads stay random as they were.
  let s = await shown(page);
  assert.deepEqual(s.current, ['attention']);
  assert.deepEqual(s.jobs.map(([p]) => p), ['random', 'random']);

  // Keyboard: focus "Next" and press Enter.
  await page.focus('#chapter-next');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => location.hash.includes('chapter=scaling'));
  s = await shown(page);
  assert.deepEqual(s.current, ['scaling']);
  assert.match(s.hash, /d_model=32/, 'the link keeps the view');
  const focused = await page.evaluate(() => playgroundRoot().activeElement?.id);
  assert.equal(focused, 'chapter-title', 'focus moves to the new chapter’s title');
  assert.ok(s.panels.includes('sqrtdk') && !s.panels.includes('heatmaps'), `scaling shows ${s.panels}`);
  assert.ok(s.fields.includes('scale') && !s.fields.includes('text'), `scaling fields ${s.fields}`);
  await page.click('#chapter-prev');
  await page.waitForFunction(() => location.hash.includes('chapter=attention'));
  await page.goBack();
  await page.waitForFunction(() => playgroundRoot().querySelector('nav.chapters [aria-current]')?.dataset.chapter === 'scaling');

  // Every chapter by its button: the panels of features/index.js's visiblePanels, the form's fields the chapter's.
  for (const chapter of CHAPTERS) {
    await page.evaluate((name) => playgroundRoot().querySelector(`nav.chapters button[data-chapter="${name}"]`).click(), chapter.name);
    await page.waitForFunction((name) => location.hash.includes(`chapter=${name}`), chapter.name);
    s = await shown(page);
    assert.deepEqual(s.current, [chapter.name]);
    assert.equal(s.title, chapter.title);
    const state = { ...defaults(), chapter: chapter.name };
    // Every panel of the chapter is there, expanded or (the chapter's secondary ones) collapsed.
    assert.deepEqual([...s.panels, ...s.folds].sort(), visiblePanels(state).sort(), `${chapter.name}: panels`);
    assert.deepEqual([...s.folds].sort(), [...foldedPanels(state, FEATURE_NAMES)].sort(), `${chapter.name}: collapsed panels`);
    assert.ok(s.panels.every((name) => !s.folds.includes(name)), `${chapter.name}: a panel is either expanded or collapsed`);
    if (chapter.name === 'heads') { // its first showing on this page: a collapsed lazy panel is not built
      assert.equal(await page.evaluate(() => playgroundRoot().querySelector('[data-panel="shapes"] .panel-body').childElementCount), 0, 'shapes built while collapsed');
      // The text writes W_iᴽ and d_model in the lesson's notation: sub- and superscripts, no modifier letter
      // (ᴽ reads as an 8) and no underscore left in the words shown.
      const notation = await page.evaluate(() => {
        const text = playgroundRoot().querySelector('.chapter-text');
        return { shown: text.textContent, subs: [...text.querySelectorAll('sub')].map((e) => e.textContent), sups: [...text.querySelectorAll('sup')].map((e) => e.textContent) };
      });
      assert.ok(!/[ᴽᴷⱽᴼ_]/u.test(notation.shown), `heads text: ${notation.shown}`);
      assert.ok(notation.subs.includes('model') && notation.subs.includes('k') && notation.sups.includes('Q'), `heads text: subscripts ${notation.subs}, superscripts ${notation.sups}`);
    }
    // Every panel of the chapter is shown by one of its steps or collapsed under every step: none is out of reach.
    if (chapter.name !== 'reference') {
      const reached = new Set([...chapter.steps.flatMap((step) => step.panels), ...s.folds, 'controls']);
      assert.deepEqual(chapter.panels.filter((name) => !reached.has(name)), [], `${chapter.name}: panels no step shows and none collapsed`);
    }
    if (chapter.fields === null) {
      for (const key of ['d_model', 'n_heads', 'text', 'mask', 'dropout', 'n_kv_heads']) assert.ok(s.fields.includes(key), `reference shows ${key}`);
    } else if (s.panels.includes('controls')) {
      // Conditional fields (a second sentence, key lengths) show only when the state needs them.
      for (const key of s.fields) assert.ok(chapter.fields.includes(key), `${chapter.name} shows ${key}, not one of its fields`);
      assert.equal(s.preset, (stepOf(state).step.fields ?? chapter.fields).includes('preset'), `${chapter.name}: the preset menu (its first step's fields)`);
    }
    assert.equal(chapterOf(state).name, chapter.name);
  }
  // At the last chapter there is no "next"; focus stayed in the playground.
  assert.equal(await page.evaluate(() => playgroundRoot().getElementById('chapter-next').hidden), true);
  assert.deepEqual((await shown(page)).folds, [], 'reference: every panel expanded');

  // A collapsed section (heads: chapter 1's maps, folded under every step): a heading button with aria-expanded, its title and its one-line about.
  await page.evaluate(() => playgroundRoot().querySelector('nav.chapters button[data-chapter="heads"]').click());
  await page.waitForFunction(() => location.hash.includes('chapter=heads'));
  const fold = (name) => page.evaluate((n) => {
    const root = playgroundRoot();
    const f = root.getElementById(`fold-${n}`);
    const section = root.getElementById(`panel-${n}`);
    const toggle = f.hidden ? section.querySelector(':scope > h2 > button') : f.querySelector('h2 > button');
    return { foldShown: !f.hidden, sectionShown: !section.hidden, expanded: toggle?.getAttribute('aria-expanded'), controls: toggle?.getAttribute('aria-controls'),
      label: toggle?.textContent, about: f.querySelector('.fold-about')?.textContent, built: section.querySelector('.panel-body').childElementCount > 0,
      focused: root.activeElement === toggle };
  }, name);
  let f = await fold('heatmaps');
  assert.deepEqual(f, { foldShown: true, sectionShown: false, expanded: 'false', controls: 'panel-heatmaps', label: 'Attention weights, one map per head',
    about: 'Every head’s weights, one enlarged with the words on its axes, and the output.', built: true, focused: false }, 'collapsed (built when reference showed it)');
  // Opened with the keyboard: the section shows and is built, the button in its heading now says expanded and has focus.
  await page.focus('#fold-heatmaps button');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => playgroundRoot().querySelector('[data-panel="heatmaps"] .panel-body')?.textContent.includes('Head'));
  f = await fold('heatmaps');
  assert.deepEqual({ ...f, about: undefined }, { foldShown: false, sectionShown: true, expanded: 'true', controls: 'panel-heatmaps', label: 'Attention weights, one map per head', about: undefined, built: true, focused: true });
  // It stays open across edits within the chapter; another chapter and back starts collapsed again (not in the link).
  await page.evaluate(() => { location.hash = location.hash.replace(/d_model=\d+/, 'd_model=48'); });
  await page.waitForFunction(() => location.hash.includes('d_model=48') && playgroundRoot().getElementById('status')?.textContent.startsWith('Ran'));
  assert.equal((await fold('heatmaps')).sectionShown, true, 'open after an edit');
  assert.doesNotMatch(await page.evaluate(() => location.hash), /heatmaps/, 'an opened section is not written in the link');
  // Closed again by the same heading button: focus goes back to the collapsed one.
  await page.click('#panel-heatmaps > h2 > button');
  f = await fold('heatmaps');
  assert.deepEqual([f.foldShown, f.sectionShown, f.expanded, f.focused], [true, false, 'false', true]);
  await page.click('#fold-heatmaps button');
  await page.evaluate(() => playgroundRoot().querySelector('nav.chapters button[data-chapter="cost"]').click());
  await page.waitForFunction(() => location.hash.includes('chapter=cost'));
  await page.evaluate(() => playgroundRoot().querySelector('nav.chapters button[data-chapter="heads"]').click());
  await page.waitForFunction(() => location.hash.includes('chapter=heads'));
  assert.deepEqual([(await fold('heatmaps')).foldShown, (await fold('heatmaps')).sectionShown], [true, false], 'collapsed again in a new visit');

  // panels= alone (no chapter named): no chapter list, exactly the panels named.
  await page.evaluate(() => { location.hash = '#panels=heatmaps,shapes'; });
  await page.waitForFunction(() => !playgroundRoot().querySelector('section[data-panel="cost"]:not([hidden])')
    && !!playgroundRoot().querySelector('section[data-panel="shapes"]:not([hidden])'));
  s = await shown(page);
  assert.deepEqual(s.panels, ['heatmaps', 'shapes']);
  assert.equal(s.navShown, false, 'no chapter list when the author chose panels alone');
  // Beside a named chapter (issue 38), panels= picks the panels and the chapter's list, title and text stay.
  await page.evaluate(() => { location.hash = '#panels=heatmaps,shapes&chapter=cost'; });
  await page.waitForFunction(() => playgroundRoot().querySelector('nav.chapters [aria-current]')?.dataset.chapter === 'cost');
  s = await shown(page);
  assert.deepEqual(s.panels, ['heatmaps', 'shapes']);
  assert.equal(s.navShown, true, 'the chapter list stays beside a named chapter');
  assert.equal(s.title, CHAPTERS.find((c) => c.name === 'cost').title);
  assert.deepEqual(page.problems, []);
  await page.closeAll();
});
