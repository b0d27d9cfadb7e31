// The demo in Debian's Chromium, opened the one way every browser test opens it: the repository
// served on a free loopback port (scripts/serve.mjs), Chromium headless through playwright-core
// with a throw-away profile, and every page error and console error collected for the test
// to assert on. `close()` undoes all of it.

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { startServer } from '../../scripts/serve.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where tests leave screenshots. */
export const OUT = path.join(ROOT, 'test-output');
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];

/**
 * Serves the repository and opens one page (not yet navigated: add init scripts first).
 * `needs` are repository files that must exist (the built WASM modules), each refused with
 * how to make it. `live`: a devnet's chain directory the server follows under /live/.
 */
export async function openChromium({ needs = [], profile = 'chromium', viewport = { width: 1366, height: 900 }, timeout, live = null }) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the browser tests need Debian's Chromium (node scripts/setup.mjs --browser, or apt-get install -y chromium).`);
  }
  for (const f of needs) {
    if (!existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: build the WASM package first with \`npm run build\`.`);
  }
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (err) {
    throw new Error(`playwright-core is not installed (npm install): ${err.message}`);
  }
  await mkdir(OUT, { recursive: true });
  const server = await startServer({ port: 0, live });
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), `quasar-pq-${profile}-`));
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport });
  const page = context.pages()[0] ?? (await context.newPage());
  if (timeout !== undefined) page.setDefaultTimeout(timeout);
  const pageErrors = [];
  const consoleErrors = [];
  page.on('pageerror', (err) => pageErrors.push(String(err?.stack ?? err)));
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(`${msg.text()} @ ${msg.location()?.url ?? '?'}`);
  });
  const close = async () => {
    await context.close().catch(() => {});
    await server.close().catch(() => {});
    await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
  };
  return { server, context, page, pageErrors, consoleErrors, close };
}
