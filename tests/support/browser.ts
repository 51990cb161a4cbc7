import fs from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { CHROMIUM_PATH, launchChromium } from '../../scripts/lib/chromium.mjs';
import { TEST_CAPTCHA } from './accounts';
import { startTestServer, type TestServer } from './test-server';

async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  return launchChromium();
}

/**
 * A page that fails the test on any console error or uncaught exception, so a broken
 * hydration or a missing asset cannot pass unnoticed.
 */
async function strictPage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return { page, problems };
}

type ContextOptions = Parameters<Browser['newContext']>[0];

export interface BrowserSuite {
  readonly server: TestServer;
  readonly browser: Browser;
  /** The context of the page the running test opened last. */
  readonly context: BrowserContext;
  /** Console errors and uncaught exceptions of that page; the test fails unless it is empty at the end. */
  readonly problems: string[];
  /** A strict page in a fresh context (its own cookies), at the suite's viewport unless given. */
  open(options?: ContextOptions): Promise<Page>;
  /** Drops the problems the test expects: the browser logs every 4xx answer it gets. */
  forgiveHttpErrors(...statuses: number[]): void;
}

/**
 * The setup every browser spec shares: a shop and a Chromium for the file, a fresh strict page per
 * `open()`, and after each test its context closed and no console error left.
 */
export function useBrowserSuite(
  options: {
    /** Server settings; a function when they are only known once other `beforeAll` hooks ran. */
    env?: Record<string, string | undefined> | (() => Record<string, string | undefined>);
    viewport?: { width: number; height: number };
    /** Problems every test of the file may leave, such as the 401 a guarded page answers a visitor. */
    expectedProblems?: RegExp;
  } = {},
): BrowserSuite {
  const viewport = options.viewport ?? { width: 1280, height: 800 };
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let problems: string[] = [];

  beforeAll(async () => {
    const env = typeof options.env === 'function' ? options.env() : options.env;
    [server, browser] = await Promise.all([startTestServer(env), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
    const expected = options.expectedProblems;
    expect(expected ? problems.filter((problem) => !expected.test(problem)) : problems).toEqual([]);
    problems = [];
  });

  return {
    get server() {
      if (!server) throw new Error('the browser suite has not started yet');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the browser suite has not started yet');
      return browser;
    },
    get context() {
      if (!context) throw new Error('no page is open: call open() first');
      return context;
    },
    get problems() {
      return problems;
    },
    async open(contextOptions = {}) {
      if (!browser) throw new Error('the browser suite has not started yet');
      context = await browser.newContext({ viewport, ...contextOptions });
      const strict = await strictPage(context);
      problems = strict.problems;
      return strict.page;
    },
    forgiveHttpErrors(...statuses) {
      const pattern = new RegExp(`status of (${statuses.join('|')})`);
      problems.splice(0, problems.length, ...problems.filter((problem) => !pattern.test(problem)));
    },
  };
}

/**
 * Waits until React has claimed the server-rendered element (its node carries React's keys
 * then): a click before that is lost, and on a loaded machine hydration can come well after
 * the network went idle.
 */
export async function untilHydrated(target: Locator) {
  const element = await target.elementHandle();
  await target
    .page()
    .waitForFunction((node) => node !== null && Object.keys(node).some((key) => key.startsWith('__react')), element);
}

/**
 * Signs in through the storefront's login modal, opened already by the header button or a guard:
 * the password tab, then the captcha dialog answered with `captchaAnswer`. Either language.
 */
export async function submitPasswordLogin(page: Page, email: string, password: string, captchaAnswer = TEST_CAPTCHA) {
  const dialog = page.locator('dialog.modal--account[open]');
  await dialog.waitFor();
  await dialog.getByRole('tab', { name: /^(Password|密码)$/ }).click();
  const panel = dialog.getByRole('tabpanel');
  await panel.getByLabel(/^(Email|邮箱)$/).fill(email);
  await panel.getByLabel(/^(Password|密码)$/).fill(password);
  await panel.getByRole('button', { name: /^(Log in|登录)$/ }).click();
  await answerCaptcha(page, captchaAnswer);
}

/** Answers the captcha dialog that the last action opened. */
export async function answerCaptcha(page: Page, answer = TEST_CAPTCHA) {
  const dialog = page.locator('dialog.modal--captcha[open]');
  await dialog.locator('img[data-captcha-id]').waitFor();
  await dialog.getByLabel(/Characters in the picture|图中的字符/).fill(answer);
  await dialog.getByRole('button', { name: /^(Confirm|确定)$/ }).click();
}
