// The browser test's harness: the gateway in demo mode (its recorded Dagu),
// an MCP client that plays the host's connection to it, a small HTTP server
// for the host page and the view, and Debian's chromium driven headless by
// puppeteer-core.

import http from 'node:http';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as esbuild from 'esbuild';
import puppeteer from 'puppeteer-core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import { buildGateway, startDemo, repoRoot } from '../interop/gateway.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The content security policy an MCP Apps host applies to a view whose
 * resource declares no csp (the restrictive default of the ext-apps
 * specification): inline script and style only, images from data: URLs,
 * no connections, no frames. The test server sends it with the view.
 */
export const DEFAULT_CSP = [
  "default-src 'none'", "script-src 'self' 'unsafe-inline'", "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:", "media-src 'self' data:", "font-src 'self' data:", "connect-src 'none'",
  "frame-src 'none'", "base-uri 'self'", "form-action 'none'",
].join('; ');

/** The flags chromium runs with: headless, no sandbox (CI runs as root), nothing that phones home. */
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Where screenshots go: BROWSER_ARTIFACTS, or tests/browser/artifacts. */
export const artifactsDir = process.env.BROWSER_ARTIFACTS || path.join(here, 'artifacts');

/** The width of the view's frame, as a chat host gives it. */
export const FRAME_WIDTH = 820;

/**
 * Starts everything one test file needs and returns
 * { client, tool, viewUri, view, html, baseUrl, browser, served, close }.
 * The demo gateway caps answers at 64 KiB, so a 10,000-line log tail is
 * cut by the gateway as a 20 MB window would be at the default cap.
 */
export async function startHarness() {
  const closers = [];
  const close = async () => { for (const c of closers.reverse()) await c().catch(() => {}); };
  try {
    const gw = await buildGateway();
    closers.push(gw.cleanup);
    const demo = await startDemo(gw.bin, ['--max-answer-bytes', '64KiB']);
    closers.push(demo.stop);
    const client = new Client({ name: 'browser-test-host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(demo.mcpUrl)));
    closers.push(() => client.close());
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'dagu_read');
    const viewUri = tool?._meta?.ui?.resourceUri;
    if (!viewUri) throw new Error('dagu_read names no view in _meta.ui.resourceUri');
    const view = await client.readResource({ uri: viewUri });
    const html = view.contents[0].text;
    const bundle = await esbuild.build({ entryPoints: [path.join(here, 'host', 'host.js')], bundle: true, format: 'iife',
      platform: 'browser', target: 'chrome120', write: false, logLevel: 'silent' });
    const hostJs = bundle.outputFiles[0].text;
    const served = [];
    const server = http.createServer((req, res) => {
      served.push(req.url);
      if (req.url === '/') return send(res, 'text/html; charset=utf-8', hostPage);
      if (req.url === '/host.js') return send(res, 'text/javascript; charset=utf-8', hostJs);
      if (req.url === '/view') return send(res, 'text/html; charset=utf-8', html, { 'Content-Security-Policy': DEFAULT_CSP });
      if (req.url === '/leaky') return send(res, 'text/html; charset=utf-8', leakyPage);
      res.writeHead(404).end();
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    const baseUrl = `http://127.0.0.1:${server.address().port}`;
    const userDataDir = await mkdtemp(path.join(tmpdir(), 'browser-test-profile-'));
    closers.push(() => rm(userDataDir, { recursive: true, force: true }));
    const browser = await puppeteer.launch({
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      headless: false, // the flags below carry --headless, exactly as CI's chromium takes it
      args: CHROMIUM_FLAGS,
      userDataDir,
      defaultViewport: { width: FRAME_WIDTH + 40, height: 900 },
    });
    closers.push(() => browser.close());
    await mkdir(artifactsDir, { recursive: true });
    return { client, tool, viewUri, view, html, baseUrl, browser, served, close, repoRoot };
  } catch (e) {
    await close();
    throw e;
  }
}

function send(res, type, body, headers = {}) {
  res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

const hostPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test host</title>
<link rel="icon" href="data:,"><style>body{margin:0;padding:16px;background:#e9ecef;font:14px sans-serif}iframe{border:1px solid #8c959f;border-radius:8px;background:transparent;display:block}</style>
</head><body><div id="frame-box"></div><script src="/host.js"></script></body></html>`;

// A sandboxed frame that sends a request of its own: the harness's check
// that the request watcher sees what leaves a frame.
const leakyPage = `<!doctype html><html><body><img src="/beacon.png" alt=""></body></html>`;

/** The host context of a chat host in light or dark mode. */
export function hostContext(theme = 'light', extra = {}) {
  return { theme, displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen'], locale: 'en-US', timeZone: 'UTC',
    platform: 'web', containerDimensions: { maxHeight: 6000, width: FRAME_WIDTH }, ...extra };
}

/**
 * Opens a new page with the view mounted and fed one dagu_read call
 * (args and its result). answer(params) and answerResource(params), when
 * given, answer the view's own tools/call and resources/read for test-made
 * data (they return undefined for what goes to the gateway). Returns
 * { page, frame, calls, reads, problems }: calls and reads are the view's
 * tools/call and resources/read params in order; problems collects console
 * errors, page errors and any request that leaves the view's frame.
 */
export async function openView(h, { args, result, answer, answerResource, theme = 'light', refuseTools = false, context = {} }) {
  const page = await h.browser.newPage();
  const problems = [];
  const calls = [];
  const reads = [];
  const viewUrl = `${h.baseUrl}/view`;
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    const frame = r.frame();
    if (!frame || frame === page.mainFrame()) return;
    if (r.isNavigationRequest() && r.url() === viewUrl) return;
    problems.push(`request from the view's frame: ${r.url()}`);
  });
  await page.exposeFunction('hostCallTool', async (params) => {
    calls.push(params);
    const made = answer?.(params);
    if (made) return made;
    return h.client.callTool(params);
  });
  await page.exposeFunction('hostReadResource', async (params) => {
    reads.push(params);
    return answerResource?.(params) ?? h.client.readResource(params);
  });
  await page.goto(`${h.baseUrl}/`);
  await page.evaluate((opts) => window.mountView(opts), {
    viewUrl, toolInput: args, toolResult: result, hostContext: hostContext(theme, context), refuseTools,
    width: FRAME_WIDTH, maxHeight: 6000,
  });
  const frame = await (await page.$('#view')).contentFrame();
  await frame.waitForSelector("main[data-view]:not([data-view=loading])");
  return { page, frame, calls, reads, problems };
}

/** Reads through the gateway as the agent would. */
export function read(h, args) {
  return h.client.callTool({ name: 'dagu_read', arguments: args });
}

/** Saves a screenshot of the view's frame as artifacts/<name>.png. */
export async function shoot(v, name) {
  await v.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const el = await v.page.$('#view');
  await el.screenshot({ path: path.join(artifactsDir, `${name}.png`) });
}

/** The visible text of the view's main region. */
export function mainText(v) {
  return v.frame.$eval('main', (m) => m.innerText);
}
