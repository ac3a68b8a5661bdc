// Opens a trace in the Phoenix UI in Debian's headless Chromium, on its run span, and
// reports what the page shows: the span's attribute table as rendered (key -> value text) and
// the event names of its Events tab. Keeps two screenshots (attributes, events).
//
//   node phoenix_run_page.js TRACE_PAGE_URL RUN_SPAN_NAME SCREENSHOT_PREFIX
//
// Prints one JSON object on stdout: {url, attributes: {key: text}, events: [name], screenshots}.
// Playwright drives /usr/bin/chromium (no browser download) with a fresh profile.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const TIMEOUT_MS = Number(process.env.UI_TIMEOUT_MS || 180000);
const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const GRADE_KEY = 'ferrumdeck.reliability.claim_coverage_grade';
const FLAGGED_EVENT = 'reliability.claim_grounding_below_threshold';

async function attributeRows(page) {
  // The span panel's attribute table (visible rows only: the span list behind the panel is a
  // table too): one row per attribute, first cell the key.
  return page.$$eval('tr', (rows) => rows
    .filter((row) => row.checkVisibility())
    .map((row) => Array.from(row.querySelectorAll('td')).map((cell) => cell.innerText.trim()))
    .filter((cells) => cells.length >= 2)
    .map((cells) => [cells[0], cells[1]]));
}

async function main() {
  const [url, spanName, prefix] = process.argv.slice(2);
  if (!url || !spanName || !prefix) {
    throw new Error('usage: phoenix_run_page.js TRACE_PAGE_URL RUN_SPAN_NAME SCREENSHOT_PREFIX');
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'otel-grounding-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1600, height: 1000 },
  });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT_MS);
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: TIMEOUT_MS });
    // the trace page opens with its root span, the run, selected (the attribute table below
    // names the run id, which the test checks)
    await page.getByText(spanName, { exact: true }).filter({ visible: true }).first().waitFor();
    await page.getByRole('tab', { name: 'Info' }).waitFor();
    await page.locator('td').filter({ hasText: GRADE_KEY, visible: true }).first().waitFor();
    const shots = [`${prefix}-attributes.png`];
    await page.screenshot({ path: shots[0] });
    const attributes = Object.fromEntries(await attributeRows(page));

    await page.getByRole('tab', { name: /Events/ }).click();
    await page.getByText(FLAGGED_EVENT, { exact: true }).filter({ visible: true }).first().waitFor();
    shots.push(`${prefix}-events.png`);
    await page.screenshot({ path: shots[1] });
    const body = await page.locator('body').innerText();
    const events = [FLAGGED_EVENT, 'reliability.ungrounded_claim'].filter((name) => body.includes(name));
    process.stdout.write(`${JSON.stringify({ url: page.url(), attributes, events, screenshots: shots })}\n`);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
