// The gateway's MCP App view in a real browser: Debian's chromium, a host
// page built on ext-apps' AppBridge, the view read from the gateway with
// resources/read and fed dagu_read results. Its own reads go through the
// host to the demo gateway (recorded Dagu answers) or, for the test-made
// DAGs of fixtures.mjs, to answer(). Every page must end with no console
// error, no page error and no request leaving the view's frame.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import * as fx from './fixtures.mjs';
import { mainText, openView, read, shoot, startHarness } from './harness.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const hostPaths = new Set(['/', '/host.js', '/view']);

/** Ends a page: nothing went wrong in it and nothing but the host page and the view was served. */
async function done(v) {
  await v.frame.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  assert.deepEqual(v.problems, [], 'console errors, page errors or requests leaving the view');
  const odd = h.served.filter((p) => !hostPaths.has(p));
  assert.deepEqual(odd, [], 'paths served beyond the host page and the view');
  await v.page.close();
}

/** Opens a view of what the agent read through the gateway. */
async function viewOf(args, opts = {}) {
  return openView(h, { args, result: await read(h, args), ...opts });
}

const nodesOf = (v) => v.frame.$$eval('.graph .node', (ns) => ns.map((n) => ({
  step: n.dataset.step, status: n.dataset.status, col: Number(n.dataset.col), row: Number(n.dataset.row), text: n.innerText,
  box: { x: parseFloat(n.style.left), y: parseFloat(n.style.top), w: parseFloat(n.style.width), h: parseFloat(n.style.height) },
})));

/** The graph's arrows as [from, to] step names, read off the drawn paths' end points. */
async function edgesOf(v) {
  const nodes = await nodesOf(v);
  const paths = await v.frame.$$eval('.graph > svg > path', (ps) => ps.map((p) => p.getAttribute('d')));
  return paths.map((d) => {
    const n = d.match(/-?\d+(\.\d+)?/g).map(Number);
    const [x1, y1, x2, y2] = [n[0], n[1], n[n.length - 2], n[n.length - 1]];
    const from = nodes.find((x) => x.box.x + x.box.w === x1 && x.box.y + x.box.h / 2 === y1);
    const to = nodes.find((x) => x.box.x - 2 === x2 && x.box.y + x.box.h / 2 === y2);
    return [from?.step, to?.step];
  });
}

async function clickStep(v, name) {
  await v.frame.click(`.graph .node[data-step="${name}"]`);
  await v.frame.waitForFunction((n) => document.querySelector('#details h3')?.textContent.startsWith(n), {}, name);
}

async function clickButton(v, text) {
  const buttons = await v.frame.$$('main button');
  for (const b of buttons) {
    if ((await b.evaluate((e) => e.textContent.trim())) === text) { await b.click(); return; }
  }
  throw new Error(`no button "${text}" in ${await mainText(v)}`);
}

const viewIs = (v, target) => v.frame.waitForSelector(`main[data-view="${target}"]`);

/**
 * The log's text and its selected stream. (textContent, not innerText:
 * rows off screen are not laid out, and innerText leaves them out.)
 */
const logOf = (v) => v.frame.evaluate(() => ({
  stream: document.querySelector('[role=tab][aria-selected=true]')?.textContent.split(' ')[0],
  text: document.querySelector('.log').textContent,
}));

/** How many elements of the view match selector. */
const count = (v, selector) => v.frame.evaluate((s) => document.querySelectorAll(s).length, selector);

test('the gateway links dagu_read to one self-contained view and declares the extension', async () => {
  const meta = h.tool._meta;
  assert.equal(meta.ui.resourceUri, meta['ui/resourceUri'], 'the nested and the flat key name the same view');
  assert.match(meta.ui.resourceUri, /^ui:\/\/dagu-mcp-gateway\/view\/v\d+$/);
  assert.equal(h.view.contents[0].mimeType, 'text/html;profile=mcp-app');
  assert.ok(h.html.length < 100_000, `the view is ${h.html.length} bytes`);
  const ext = h.client.getServerCapabilities()?.extensions?.['io.modelcontextprotocol/ui'];
  assert.deepEqual(ext, { mimeTypes: ['text/html;profile=mcp-app'] });
});

test('a failed run: every step and status in the graph, the failed step\'s log in two clicks', async () => {
  const v = await viewOf({ target: 'run', name: 'failing_job', dagRunId: 'latest' });
  await v.frame.waitForSelector('.graph .node');
  const nodes = await nodesOf(v);
  assert.deepEqual(nodes.map((n) => [n.step, n.status]), [['prepare', 'succeeded'], ['explode', 'failed']]);
  assert.match(nodes[0].text, /prepare\s+succeeded/);
  assert.match(nodes[1].text, /explode\s+failed/);
  assert.deepEqual(await edgesOf(v), [['prepare', 'explode']]);
  assert.match(await mainText(v), /Failed step explode[\s\S]*boom: disk full/);
  await shoot(v, 'failed-run');
  // Click 1: the failed step in the graph. Click 2: its log.
  await clickStep(v, 'explode');
  await v.frame.click('#details .actions button.primary');
  await viewIs(v, 'step_log');
  await v.frame.waitForSelector('.log .ln');
  const log = await logOf(v);
  assert.equal(log.stream, 'stderr', 'a failed step opens on its stderr');
  assert.match(log.text, /boom: disk full/);
  assert.equal(await v.frame.$eval('[role=tab][aria-selected=true]', (t) => t.textContent), 'stderr (1 line)');
  assert.deepEqual(v.calls.at(-1).arguments, { uri: 'dagu://runs/failing_job/0356UUn8VwcWFuh5L8qwbp/steps/explode/logs' });
  // Escape goes back to the run.
  await v.page.keyboard.press('Escape');
  await viewIs(v, 'run');
  await done(v);
});

test('focus follows the keyboard to the page it opens and back, and to the step it shows', async () => {
  const v = await viewOf({ target: 'run', name: 'failing_job', dagRunId: 'latest' });
  await v.frame.waitForSelector('.graph .node');
  const focused = () => v.frame.evaluate(() => `${document.activeElement.tagName} ${document.activeElement.id || document.activeElement.textContent.trim().split('\n')[0]}`);
  await v.frame.evaluate(() => [...document.querySelectorAll('main button')].find((b) => b.textContent === 'Open the log of explode').focus());
  await v.page.keyboard.press('Enter');
  await viewIs(v, 'step_log');
  await v.frame.waitForFunction(() => document.activeElement.tagName === 'H2');
  assert.equal(await focused(), 'H2 explode log', 'the log page takes focus, not the document');
  await v.page.keyboard.press('Escape');
  await viewIs(v, 'run');
  await v.frame.waitForFunction(() => document.activeElement.tagName === 'H2');
  assert.match(await focused(), /^H2 failing_job/, 'Back gives focus to the run');
  await v.frame.evaluate(() => [...document.querySelectorAll('main button')].find((b) => b.textContent === 'Show explode').focus());
  await v.page.keyboard.press('Enter');
  await v.frame.waitForFunction(() => document.querySelector('#details h3')?.textContent.startsWith('explode'));
  assert.equal(await focused(), 'DIV details', 'Show moves focus to the step\'s details');
  await done(v);
});

test('a run\'s graph follows its dependencies and its timeline its times: parallel steps side by side, bars in proportion', async () => {
  const v = await openView(h, { args: fx.etl.args, result: fx.etl.result, answer: fx.answer });
  await v.frame.waitForSelector('.graph .node');
  const nodes = Object.fromEntries((await nodesOf(v)).map((n) => [n.step, n]));
  assert.deepEqual(Object.keys(nodes).sort(), ['extract', 'load', 'notify', 'transform_events', 'transform_orders', 'transform_users']);
  assert.deepEqual(Object.fromEntries(Object.values(nodes).map((n) => [n.step, n.status])), {
    extract: 'succeeded', transform_orders: 'succeeded', transform_users: 'succeeded', transform_events: 'failed', load: 'not_started', notify: 'succeeded',
  });
  for (const n of Object.values(nodes)) assert.match(n.text, new RegExp(`${n.step}\\s+(onFailure · )?${n.status.replace('_', ' ')}`));
  assert.match(nodes.notify.text, /onFailure/);
  assert.equal(nodes.notify.row, 3, 'the handler has a row of its own under the steps');
  assert.deepEqual([nodes.extract.col, nodes.transform_orders.col, nodes.transform_users.col, nodes.transform_events.col, nodes.load.col], [0, 1, 1, 1, 2]);
  assert.equal(new Set([nodes.transform_orders.row, nodes.transform_users.row, nodes.transform_events.row]).size, 3, 'the parallel transforms are side by side');
  assert.deepEqual((await edgesOf(v)).sort(), [...fx.etl.edges].sort());

  const rows = await v.frame.$$eval('.tl-row', (rs) => rs.map((r) => {
    const bar = r.querySelector('.tl-bar')?.getBoundingClientRect();
    const track = r.querySelector('.tl-track').getBoundingClientRect();
    return { step: r.dataset.step, bar: bar && { x: bar.x - track.x, w: bar.width, y: bar.y }, track: track.width };
  }));
  assert.deepEqual(rows.map((r) => r.step), ['extract', 'transform_orders', 'transform_users', 'transform_events', 'notify', 'load']);
  const span = 223;
  for (const r of rows.filter((x) => x.bar)) {
    const [from, to] = fx.etlTimes[r.step];
    assert.ok(Math.abs(r.bar.x - (from / span) * r.track) < 1.5, `${r.step} starts at ${r.bar.x}px of ${r.track}`);
    assert.ok(Math.abs(r.bar.w - ((to - from) / span) * r.track) < 1.5, `${r.step} is ${r.bar.w}px of ${r.track}`);
  }
  const [orders, users, events] = rows.slice(1, 4).map((r) => r.bar);
  for (const [a, b] of [[orders, users], [orders, events], [users, events]]) {
    assert.ok(a.x < b.x + b.w && b.x < a.x + a.w && a.y !== b.y, 'parallel steps overlap in time on rows of their own');
  }
  assert.equal(rows[5].bar, undefined, 'a step that never started has no bar');
  await shoot(v, 'run-light');

  await v.frame.click('.graph .node[data-step="transform_orders"]');
  assert.match(await v.frame.$eval('#details', (d) => d.innerText), /Ran alongside\s+transform_users, transform_events/);

  await v.page.evaluate(() => window.changeContext({ theme: 'dark' }));
  await v.frame.waitForSelector('html[data-theme="dark"]');
  const bg = await v.frame.$eval('body', (b) => getComputedStyle(b).backgroundColor);
  const [r, g, b] = bg.match(/\d+/g).map(Number);
  assert.ok(r + g + b < 150, `a dark background, got ${bg}`);
  await shoot(v, 'run-dark');

  assert.equal(await v.frame.$eval('#display', (b) => b.textContent), 'Full screen');
  await v.frame.click('#display');
  await v.frame.waitForSelector('html[data-display="fullscreen"]');
  assert.equal(await v.frame.$eval('#display', (b) => b.textContent), 'Exit full screen');
  await v.frame.click('#display');
  await v.frame.waitForSelector('html[data-display="inline"]');

  // The failed step's log: its stderr, levels marked in colour and words.
  await clickStep(v, 'transform_events');
  await v.frame.click('#details .actions button.primary');
  await viewIs(v, 'step_log');
  await v.frame.waitForSelector('.ln.lvl-error');
  assert.equal(await v.frame.$eval('.ln.lvl-error .tag', (t) => t.textContent), 'ERROR');
  await done(v);
});

test('the keyboard walks the graph and opens a step', async () => {
  const v = await openView(h, { args: fx.etl.args, result: fx.etl.result, answer: fx.answer });
  await v.frame.waitForSelector('.graph .node');
  assert.equal(await count(v, '.graph .node[tabindex="0"]'), 1, 'the graph is one Tab stop');
  assert.equal(await count(v, '.tl-row[tabindex="0"]'), 1, 'the timeline is one Tab stop');
  await v.frame.focus('.graph .node[data-step="extract"]');
  await v.page.keyboard.press('ArrowRight');
  const first = await v.frame.evaluate(() => document.activeElement.dataset.step);
  assert.ok(first.startsWith('transform_'), `ArrowRight moved to ${first}`);
  await v.page.keyboard.press('ArrowDown');
  const second = await v.frame.evaluate(() => document.activeElement.dataset.step);
  assert.ok(second.startsWith('transform_') && second !== first, `ArrowDown moved to ${second}`);
  await v.page.keyboard.press('Enter');
  await v.frame.waitForFunction((n) => document.querySelector('#details h3')?.textContent.startsWith(n), {}, second);
  assert.equal(await v.frame.evaluate(() => document.activeElement.dataset.step), second, 'focus stays on the step');
  // Tab leaves the graph for the timeline, where the arrow keys move too.
  await v.page.keyboard.press('Tab');
  assert.equal(await v.frame.evaluate(() => document.activeElement.className.split(' ')[0]), 'tl-row');
  const row = await v.frame.evaluate(() => document.activeElement.dataset.step);
  await v.page.keyboard.press('ArrowDown');
  assert.notEqual(await v.frame.evaluate(() => document.activeElement.dataset.step), row, 'ArrowDown moves down the timeline');
  await done(v);
});

test('sub-runs are reachable from their step, and Back returns', async () => {
  const v = await viewOf({ target: 'run', name: 'parent_job', dagRunId: 'latest' });
  await v.frame.waitForSelector('.graph .node');
  assert.deepEqual(await edgesOf(v), [['prepare', 'run_child'], ['run_child', 'done']]);
  await clickStep(v, 'run_child');
  await clickButton(v, 'Sub-run child_job');
  await v.frame.waitForFunction(() => document.querySelector('main h2')?.textContent.startsWith('child_job'));
  await v.frame.waitForSelector('.graph .node');
  assert.deepEqual((await nodesOf(v)).map((n) => [n.step, n.status]), [['child_start', 'succeeded'], ['child_finish', 'succeeded']]);
  assert.match(await mainText(v), /Parent run\s+parent_job/);
  await v.frame.click('#back');
  await v.frame.waitForFunction(() => document.querySelector('main h2')?.textContent.startsWith('parent_job'));
  await done(v);
});

test('a foreach run: its items, a failed item and its body step\'s log', async () => {
  const v = await viewOf({ target: 'run', name: 'foreach_job', dagRunId: 'latest' });
  await v.frame.waitForSelector('.graph .node');
  await clickStep(v, 'each');
  await shoot(v, 'foreach-run');
  await clickButton(v, 'Foreach items');
  await viewIs(v, 'foreach_items');
  const rows = await v.frame.$$eval('tbody tr', (rs) => rs.map((r) => [...r.cells].map((c) => c.innerText.replace(/\s+/g, ' ').trim())));
  assert.deepEqual(rows.map((r) => [r[0], r[1]]), [['1', '\u2715 failed'], ['0', '\u2713 succeeded'], ['2', '\u2713 succeeded']]);
  await shoot(v, 'foreach-items');
  await v.frame.click('tbody tr:first-child button.link');
  await viewIs(v, 'foreach_item');
  assert.match(await mainText(v), /Item 1[\s\S]*beta broke/);
  await clickButton(v, 'Log');
  await viewIs(v, 'step_log');
  await v.frame.waitForSelector('.log .ln');
  const log = await logOf(v);
  assert.equal(log.stream, 'stderr', 'a failed body step opens on its stderr');
  assert.match(log.text, /beta broke/);
  await done(v);
});

test('a long log: levels, search, earlier lines through the host, and a window the gateway cut', async () => {
  // The demo's 20,000-line log: the default tail, then an earlier window.
  const v = await viewOf({ target: 'step_log', name: 'big_log_job', dagRunId: 'latest', stepName: 'spew' });
  await v.frame.waitForSelector('.log .ln');
  assert.equal(await count(v, '.log .ln'), 200);
  await clickButton(v, 'Load 500 earlier lines');
  await v.frame.waitForFunction(() => document.querySelectorAll('.log .ln').length === 700);
  assert.match(await v.frame.$eval('.log .ln', (l) => l.textContent), /line 19301 of the big log/);
  assert.match(v.calls.at(-1).arguments.uri, /\/steps\/spew\/logs\?tail=700&stream=stdout$/);
  await v.frame.type('input[type=search]', 'line 19999 ');
  await v.frame.waitForFunction(() => document.querySelectorAll('.log mark').length === 1);
  await v.frame.click('#only');
  await v.frame.waitForFunction(() => document.querySelectorAll('.log .ln').length === 1);
  await done(v);

  // The same log's 10,000-line tail is over this gateway's answer size: cut, and said so.
  const cut = await viewOf({ target: 'step_log', name: 'big_log_job', dagRunId: 'latest', stepName: 'spew', query: 'tail=10000' });
  await cut.frame.waitForSelector('.log .ln');
  assert.match(await mainText(cut), /Cut on whole lines to stay within this gateway's answer size of 65536 bytes: left out the \d+ oldest lines/);
  await done(cut);

  // A 20 MB window cut to 4 MiB: 10,000 long lines, numbered, levels marked.
  const big = await openView(h, { args: fx.bigLog.args, result: fx.bigLog.result, answer: fx.answer });
  await big.frame.waitForSelector('.log .ln');
  assert.equal(await count(big, '.log .ln'), 10000);
  assert.equal(await big.frame.$eval('.log .ln .no', (n) => n.textContent), String(fx.bigLog.firstLine));
  assert.ok(await count(big, '.ln.lvl-error') > 0, 'error lines are marked');
  assert.ok(await count(big, '.ln.lvl-warn') > 0, 'warning lines are marked');
  assert.match(await big.frame.$eval('main .notice.warn', (n) => n.textContent), /answer size of 4194304 bytes: left out the 40000 oldest lines/);
  await shoot(big, 'long-log');
  await clickButton(big, 'Load 500 earlier lines');
  await big.frame.waitForFunction(() => document.querySelectorAll('.log .ln').length === 10500);
  assert.equal(await big.frame.$eval('.log .ln .no', (n) => n.textContent), String(fx.bigLog.firstLine - 500));
  assert.match(big.calls.at(-1).arguments.uri, /\?offset=39501&limit=500&stream=stdout$/);
  await done(big);
});

test('lists: runs with statuses and duration sparklines, DAGs with their last run', async () => {
  const runs = await read(h, { target: 'runs' });
  const items = runs.structuredContent.data.items;
  const v = await openView(h, { args: { target: 'runs' }, result: runs });
  await v.frame.waitForSelector('tbody tr');
  const rows = await v.frame.$$eval('tbody tr', (rs) => rs.map((r) => ({
    dag: r.cells[0].innerText, status: r.cells[1].querySelector('.badge').dataset.status, spark: !!r.querySelector('svg.spark[aria-label]'),
  })));
  assert.equal(rows.length, items.length);
  assert.deepEqual(rows.map((r) => [r.dag, r.status]), items.map((i) => [i.name, i.statusLabel]));
  assert.ok(rows.every((r) => r.spark), 'every run has a sparkline');
  await v.frame.click('tbody tr:first-child button.link');
  await viewIs(v, 'run');
  await done(v);

  const dags = await read(h, { target: 'dags' });
  const d = await openView(h, { args: { target: 'dags' }, result: dags });
  await d.frame.waitForSelector('tbody tr');
  const shown = await d.frame.$$eval('tbody tr', (rs) => rs.map((r) => [r.cells[0].innerText.replace(' (suspended)', ''), r.cells[1].querySelector('.badge')?.dataset.status || r.cells[1].innerText]));
  assert.deepEqual(shown, dags.structuredContent.data.items.map((i) => [i.name, i.latestRun ? i.latestRun.statusLabel : 'never ran']));
  await clickButton(d, 'failing_job');
  await viewIs(d, 'dag');
  assert.match(await mainText(d), /failing_job[\s\S]*failed/);
  await clickButton(d, 'Open the last run');
  await viewIs(d, 'run');
  await done(d);
});

test('a live run polls at its resources/read answer\'s ttlMs and stops when it ends', async () => {
  const v = await openView(h, { args: fx.live.args, result: fx.live.first(), answer: fx.answer, answerResource: fx.answerResource });
  const live = () => v.frame.$eval('#live', (l) => l.textContent);
  await v.frame.waitForFunction(() => document.querySelector('#live').textContent.startsWith('Live'));
  assert.equal(await live(), 'Live \u00B7 refreshing every 5.0 s', 'a tool result carries no ttlMs: the fallback');
  await v.frame.waitForFunction(() => document.querySelector('#live').textContent === 'Live \u00B7 refreshing every 3.0 s', { timeout: 15000 });
  await v.frame.waitForFunction(() => document.querySelector('#live').textContent.startsWith('Run ended'), { timeout: 15000 });
  const polls = () => v.reads.filter((r) => r.uri === 'dagu://runs/live_job/r3').length;
  assert.equal(polls(), 2, 'two polls: running, then succeeded');
  assert.match(await mainText(v), /live_job\s+\u2713\s*succeeded/);
  await v.frame.evaluate(() => new Promise((r) => setTimeout(r, 4000)));
  assert.equal(polls(), 2, 'no poll after the run ended');
  await done(v);

  // The demo's running run is read again by its concrete URI (not by
  // "latest") with resources/read, whose answer carries the gateway's
  // cache hint for a run that can still change: ttlMs 0, so the view
  // polls as often as it allows, every 2 s.
  const running = await viewOf({ target: 'run', name: 'nested_foreach_job', dagRunId: 'latest' });
  const uri = (await read(h, { target: 'run', name: 'nested_foreach_job', dagRunId: 'latest' })).structuredContent.data.uri;
  await running.frame.waitForFunction(() => document.querySelector('#live').textContent === 'Live \u00B7 refreshing every 2.0 s', { timeout: 20000 });
  assert.ok(running.reads.some((r) => r.uri === uri), `polled ${uri}`);
  await done(running);
});

test('bad data gets a message, never a broken or blank frame', async () => {
  const huge = await openView(h, { args: fx.huge.args, result: fx.huge.result, answer: fx.answer });
  await huge.frame.waitForSelector('.tl-row');
  assert.match(await mainText(huge), /This run has 2,000 steps; the graph is drawn for runs of up to 200/);
  assert.equal(await count(huge, '.tl-row'), 300);
  await clickButton(huge, 'Show 300 more of 2,000 steps');
  await huge.frame.waitForFunction(() => document.querySelectorAll('.tl-row').length === 600);
  await done(huge);

  const odd = await openView(h, { args: fx.odd.args, result: fx.odd.result, answer: fx.answer });
  await odd.frame.waitForSelector('.graph .node');
  const text = await mainText(odd);
  for (const want of ['(unnamed DAG)', 'teleported (unknown status)', '(unnamed step 1)', '(unnamed step 3)', 'no status', 'fine']) {
    assert.ok(text.includes(want), `shows ${want}`);
  }
  assert.match(text, /Dependencies unavailable \(the run names no DAG\)/);
  assert.equal(await count(odd, '.node.tone-unknown'), 4);
  await done(odd);

  const failed = await viewOf({ target: 'run', name: 'no_such_dag', dagRunId: 'latest' });
  await viewIs(failed, 'error');
  assert.match(await mainText(failed), /The read failed: [\s\S]*Code\s+resource_not_found/);
  await done(failed);

  const textOnly = await openView(h, { args: { target: 'run' }, result: { content: [{ type: 'text', text: 'Dagu read completed.' }] } });
  await viewIs(textOnly, 'text');
  assert.match(await mainText(textOnly), /Dagu read completed\./);
  await done(textOnly);

  const noData = await openView(h, { args: { target: 'run' }, result: { content: [], structuredContent: { target: 'run' } } });
  assert.match(await mainText(noData), /carries no data object/);
  await done(noData);

  // A host that refuses the view's tools/call: the run is still drawn, its
  // dependencies and log say why they are missing.
  const refused = await viewOf({ target: 'run', name: 'failing_job', dagRunId: 'latest' }, { refuseTools: true });
  await refused.frame.waitForSelector('.graph .node');
  assert.match(await mainText(refused), /Dependencies unavailable \(the host refused the spec read: [^)]*does not let views call tools/);
  await clickButton(refused, 'Open the log of explode');
  await viewIs(refused, 'refused');
  assert.match(await mainText(refused), /The host did not pass the view's read on to the gateway/);
  await done(refused);
});

test('anything else is drawn as text or data, never blank', async () => {
  for (const [args, view, want] of [
    [{ target: 'wiki' }, 'wiki', /items|tree/],
    [{ target: 'references' }, 'references', /read-tool/],
    [{ target: 'dag_spec', name: 'failing_job' }, 'dag_spec', /steps:[\s\S]*depends: \[prepare\]/],
    [{ target: 'run_logs', name: 'failing_job', dagRunId: 'latest' }, 'run_logs', /Step logs[\s\S]*explode/],
  ]) {
    const v = await viewOf(args);
    await viewIs(v, view);
    assert.match(await mainText(v), want);
    await done(v);
  }
});

test('the request watcher sees a request that leaves a frame', async () => {
  const v = await viewOf({ target: 'references' });
  await v.page.evaluate(() => {
    const f = document.createElement('iframe');
    f.setAttribute('sandbox', 'allow-scripts');
    f.src = '/leaky';
    document.body.append(f);
  });
  await v.page.waitForFunction(() => true);
  const deadline = Date.now() + 10000;
  while (!v.problems.some((p) => p.endsWith('/beacon.png')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.ok(v.problems.some((p) => p.startsWith('request from the view\'s frame') && p.endsWith('/beacon.png')), v.problems.join('\n'));
  h.served.splice(0, h.served.length, ...h.served.filter((p) => hostPaths.has(p)));
  await v.page.close();
});
