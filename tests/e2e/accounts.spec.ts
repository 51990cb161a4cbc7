import { OAuth2Server } from 'oauth2-mock-server';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ACCOUNT_TEST_ENV,
  GENEROUS_RATE_LIMITS,
  TEST_CAPTCHA,
  loginRequest,
  registerUser,
  uniqueEmail,
} from '../support/accounts';
import { answerCaptcha, submitPasswordLogin, untilHydrated, useBrowserSuite } from '../support/browser';
import { useFakeSmtp } from '../support/mail';
import { startTestServer, type TestServer } from '../support/test-server';

// Journeys of several logins each: generous limits for a machine busy with the whole suite.
vi.setConfig({ testTimeout: 90_000 });

const smtp = useFakeSmtp();
const suite = useBrowserSuite({
  env: () => ({ ...ACCOUNT_TEST_ENV, SMTP_URL: smtp.url }),
  viewport: { width: 1280, height: 860 },
});
const { open, forgiveHttpErrors } = suite;

/** Polls longer than Vitest's 1 s default: under a full parallel run a round trip can take seconds. */
const poll: typeof expect.poll = (fn, options) => expect.poll(fn, { timeout: 15_000, ...options });

const accountDialog = (page: Page) => page.locator('dialog.modal--account[open]');
const captchaDialog = (page: Page) => page.locator('dialog.modal--captcha[open]');
const toast = (page: Page, text: string) => page.locator('.toast', { hasText: text });

async function openLoginModal(page: Page) {
  await page.locator('header .account-button').click();
  await accountDialog(page).waitFor();
}

async function logOutFromAccountPage(page: Page, locale = 'en') {
  await page.goto(`${suite.server.url}/${locale}/my/account`);
  await untilHydrated(page.getByRole('button', { name: 'Log out', exact: true }));
  await page.getByRole('button', { name: 'Log out', exact: true }).click();
  await page.waitForURL(new RegExp(`/${locale}/?$`));
  await poll(() => page.locator('header .account-button').innerText()).toContain('Log in');
}

function codeFromMail(to: string): string | undefined {
  const mail = [...smtp.inbox].reverse().find((item) => item.to === to);
  if (!mail) return undefined;
  const body = mail.raw.slice(mail.raw.indexOf('\r\n\r\n'));
  return /\b(\d{6})\b/.exec(body.replace(/=\r\n/g, ''))?.[1];
}

async function errorOf(field: Locator) {
  const id = await field.getAttribute('aria-describedby');
  if (!id) return '';
  return field
    .page()
    .locator(`[id="${id.split(' ')[0]}"]`)
    .innerText();
}

describe('accounts journey', () => {
  it('registers, logs out, logs in with a password, logs out, and logs in with an emailed code', async () => {
    const page = await open();
    const email = uniqueEmail('journey');
    const username = `Journey${Math.random().toString(36).slice(2, 7)}`;
    const password = 'my secret journey';
    await page.goto(`${suite.server.url}/en/`);

    // Register
    await openLoginModal(page);
    await accountDialog(page).getByRole('button', { name: 'No account, go register' }).click();
    await poll(() => accountDialog(page).locator('h2').first().innerText()).toBe('Create your account');
    const register = accountDialog(page);
    await register.getByLabel('Username').fill(username);
    await register.getByLabel('Mobile number').fill('13912345678');
    await register.getByLabel('Email', { exact: true }).fill(email);
    await register.getByLabel('Password', { exact: true }).fill(password);
    await register.getByRole('button', { name: 'Register' }).click();
    await answerCaptcha(page);
    await toast(page, 'Registration successful').waitFor();
    await poll(() => accountDialog(page).count()).toBe(0);
    await poll(() => page.locator('header .account-button--user').innerText()).toContain(username);

    // My account shows the profile; log out goes home
    await page.locator('header .account-button--user').click();
    await page.getByTestId('account-menu-popover').getByRole('link', { name: 'Profile and security' }).click();
    await page.waitForURL(/\/en\/my\/account$/);
    await page.locator('h1', { hasText: `Hello, ${username}` }).waitFor();
    expect(await page.locator('.account-facts').innerText()).toContain('139****5678');
    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    await page.waitForURL(/\/en\/?$/);
    await toast(page, 'You have logged out').waitFor();
    await poll(() => page.locator('header .account-button').innerText()).toContain('Log in');

    // Password login
    await openLoginModal(page);
    await submitPasswordLogin(page, email, password);
    await toast(page, 'Login successful').waitFor();
    await poll(() => page.locator('header .account-button--user').innerText()).toContain(username);
    await logOutFromAccountPage(page);

    // Code login: Get code asks the captcha, then counts down 60 s
    await openLoginModal(page);
    const dialog = accountDialog(page);
    await dialog.getByLabel('Email', { exact: true }).filter({ visible: true }).fill(email);
    await dialog.getByRole('button', { name: 'Get code' }).click();
    await answerCaptcha(page);
    const resend = dialog.getByRole('button', { name: /Resend in \d+s/ });
    await resend.waitFor();
    expect(await resend.isDisabled()).toBe(true);
    expect(Number((await resend.innerText()).match(/\d+/)![0])).toBeGreaterThanOrEqual(58);
    // The countdown survives closing and reopening the modal.
    await page.keyboard.press('Escape');
    await poll(() => accountDialog(page).count()).toBe(0);
    await openLoginModal(page);
    await accountDialog(page)
      .getByRole('button', { name: /Resend in \d+s/ })
      .waitFor();
    await poll(() => codeFromMail(email)).toMatch(/^\d{6}$/);
    await accountDialog(page).getByLabel('Email', { exact: true }).filter({ visible: true }).fill(email);
    await accountDialog(page).getByLabel('Verification code').fill(codeFromMail(email)!);
    await accountDialog(page).getByRole('tabpanel').getByRole('button', { name: 'Log in' }).click();
    await toast(page, 'Login successful').waitFor();
    await poll(() => page.locator('header .account-button--user').innerText()).toContain(username);
  }, 120_000);
});

describe('login modal', () => {
  it('shows the SPEC validation messages on blur and on submit, tied to their fields', async () => {
    const page = await open();
    await page.goto(`${suite.server.url}/en/`);
    await openLoginModal(page);
    const dialog = accountDialog(page);
    const email = dialog.getByLabel('Email', { exact: true }).filter({ visible: true });
    await email.fill('not-an-email');
    await email.blur();
    await poll(() => errorOf(email)).toBe('Please enter a valid email address');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    await email.fill('');
    await poll(() => errorOf(email)).toBe('Please enter your email address');

    await dialog.getByRole('button', { name: 'Get code' }).click();
    await poll(() => errorOf(email)).toBe('Please enter your email');
    await poll(() => captchaDialog(page).count()).toBe(0);

    await email.fill('buyer@example.com');
    await dialog.getByRole('tabpanel').getByRole('button', { name: 'Log in' }).click();
    const code = dialog.getByLabel('Verification code');
    await poll(() => errorOf(code)).toBe('Please enter the verification code');
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe('one-time-code');

    await dialog.getByRole('button', { name: 'No account, go register' }).click();
    const mobile = accountDialog(page).getByLabel('Mobile number');
    await mobile.fill('12345');
    await mobile.blur();
    await poll(() => errorOf(mobile)).toBe('Please enter a valid mobile number');
  });

  it("shows the server's username rule before anything is sent, in both languages", async () => {
    const page = await open();
    const registrations: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/user/registe') || request.url().includes('/v1/captcha'))
        registrations.push(request.url());
    });
    for (const [locale, goRegister, usernameLabel, tooShort, tooLong] of [
      [
        'en',
        'No account, go register',
        'Username',
        'Username must be at least 2 characters',
        'Username cannot be longer than 32 characters',
      ],
      ['zh-cn', '没有账号，去注册', '用户名', '用户名至少需要 2 个字符', '用户名不能超过 32 个字符'],
    ] as const) {
      await page.goto(`${suite.server.url}/${locale}/`);
      await openLoginModal(page);
      await accountDialog(page).getByRole('button', { name: goRegister }).click();
      const username = accountDialog(page).getByLabel(usernameLabel);
      await username.fill('a');
      await username.blur();
      await poll(() => errorOf(username)).toBe(tooShort);
      await username.fill('a'.repeat(33));
      await poll(() => errorOf(username)).toBe(tooLong);
      await username.fill('ab');
      await poll(() => errorOf(username)).toBe('');
      // On submit too, with the other fields right: the captcha is not even asked for.
      await username.fill('a'.repeat(33));
      await accountDialog(page)
        .getByLabel(/^(Mobile number|手机号)$/)
        .fill('13912345678');
      await accountDialog(page)
        .getByLabel(/^(Email|邮箱)$/)
        .fill(uniqueEmail('rule'));
      await accountDialog(page)
        .getByLabel(/^(Password|密码)$/)
        .fill('a long enough password');
      await accountDialog(page)
        .getByRole('button', { name: /^(Register|注册)$/ })
        .click();
      await poll(() => errorOf(username)).toBe(tooLong);
      expect(await captchaDialog(page).count()).toBe(0);
    }
    expect(registrations).toEqual([]);
  });

  it('speaks Chinese on Chinese pages', async () => {
    const page = await open();
    await page.goto(`${suite.server.url}/zh-cn/`);
    await page.locator('header .account-button').click();
    const dialog = accountDialog(page);
    await dialog.waitFor();
    expect(await dialog.locator('h2').first().innerText()).toBe('欢迎回来');
    await dialog.getByRole('tabpanel').getByRole('button', { name: '登录' }).click();
    await poll(() => errorOf(dialog.getByLabel('邮箱', { exact: true }).filter({ visible: true }))).toBe(
      '请输入邮箱地址',
    );
    await poll(() => errorOf(dialog.getByLabel('验证码', { exact: true }))).toBe('请输入验证码');
    await dialog.getByRole('button', { name: '没有账号，去注册' }).click();
    const mobile = dialog.getByLabel('手机号');
    await mobile.fill('10000000000');
    await mobile.blur();
    await poll(() => errorOf(mobile)).toBe('请输入正确的手机号码');
  });

  it('refreshes the captcha after a wrong answer and after a failed password login', async () => {
    const user = await registerUser(suite.server);
    const page = await open();
    await page.goto(`${suite.server.url}/en/`);
    await openLoginModal(page);
    const dialog = accountDialog(page);
    await dialog.getByRole('tab', { name: 'Password' }).click();
    const panel = dialog.getByRole('tabpanel');
    await panel.getByLabel('Email', { exact: true }).fill(user.email);
    await panel.getByLabel('Password', { exact: true }).fill('not the password');
    await panel.getByRole('button', { name: 'Log in' }).click();

    // A wrong captcha answer keeps the dialog open with a new picture and the server's message.
    const picture = captchaDialog(page).locator('img[data-captcha-id]');
    await picture.waitFor();
    const first = await picture.getAttribute('data-captcha-id');
    await answerCaptcha(page, '00000');
    await poll(() => captchaDialog(page).locator('.form-field__error').innerText()).toMatch(/captcha/i);
    await poll(() => picture.getAttribute('data-captcha-id')).not.toBe(first);
    const second = await picture.getAttribute('data-captcha-id');

    // The right answer with a wrong password: the message goes under the password field.
    await answerCaptcha(page);
    await poll(() => captchaDialog(page).count()).toBe(0);
    const passwordField = panel.getByLabel('Password', { exact: true });
    await poll(() => errorOf(passwordField)).toBe('Incorrect email or password');

    // Trying again asks for a fresh captcha (each works once).
    await panel.getByRole('button', { name: 'Log in' }).click();
    await picture.waitFor();
    await poll(() => picture.getAttribute('data-captcha-id')).not.toBe(second);
    forgiveHttpErrors(400);
  });

  it('works with the keyboard alone: focus moves in, Tab stays inside, Escape closes and focus returns', async () => {
    const user = await registerUser(suite.server);
    const page = await open();
    await page.goto(`${suite.server.url}/en/`);
    const button = page.locator('header .account-button');
    await button.focus();
    await page.keyboard.press('Enter');
    await accountDialog(page).waitFor();
    const focused = () =>
      page.evaluate(() => document.activeElement?.getAttribute('name') ?? document.activeElement?.textContent ?? '');
    await poll(focused).toBe('email');
    expect(await accountDialog(page).getAttribute('aria-labelledby')).toBeTruthy();
    expect(await accountDialog(page).getAttribute('aria-modal')).toBe('true');

    // Tab order inside the code panel, then it wraps to the first control and back.
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('code');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Get code');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Log in');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('No account, go register');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Close');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('No account, go register');
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]')))).toBe(true);
    }

    await page.keyboard.press('Escape');
    await poll(() => accountDialog(page).count()).toBe(0);
    await poll(() => button.evaluate((element) => element === document.activeElement)).toBe(true);

    // Log in with the password tab, keys only.
    await page.keyboard.press('Enter');
    await accountDialog(page).waitFor();
    await poll(focused).toBe('email');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('Email code');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('Password');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('email');
    await page.keyboard.type(user.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(user.password);
    await page.keyboard.press('Enter');
    await captchaDialog(page).locator('img[data-captcha-id]').waitFor();
    await poll(focused).toBe('dots');
    await page.keyboard.type(TEST_CAPTCHA);
    await page.keyboard.press('Enter');
    await toast(page, 'Login successful').waitFor();
    await poll(() => page.locator('header .account-button--user').count()).toBe(1);
  });

  it('opens when an API call answers 301 and shows the visitor as logged out', async () => {
    const user = await registerUser(suite.server);
    const page = await open();
    await suite.context.addCookies([{ name: 'access_token', value: user.token, url: suite.server.url }]);
    await page.goto(`${suite.server.url}/en/my/account`);
    await page.locator('h1', { hasText: `Hello, ${user.username}` }).waitFor();
    await suite.context.clearCookies({ name: 'access_token' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await accountDialog(page).waitFor();
    expect(await accountDialog(page).locator('h2').first().innerText()).toBe('Welcome back');
    await poll(() => page.locator('header .account-button').innerText()).toContain('Log in');
    forgiveHttpErrors(401);
  });
});

describe('my account', () => {
  it('uploads a profile picture, shows it in the header, and changes the password', async () => {
    const user = await registerUser(suite.server);
    const page = await open();
    await suite.context.addCookies([{ name: 'access_token', value: user.token, url: suite.server.url }]);
    await page.goto(`${suite.server.url}/en/my/account`);
    await page.locator('h1', { hasText: `Hello, ${user.username}` }).waitFor();

    // Only images are taken (SPEC section 5).
    const input = page.locator('.image-upload input[type="file"]');
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await toast(page, 'Only image files can be uploaded.').waitFor();

    await input.setInputFiles('public/brand/icon.png');
    await toast(page, 'Saved').waitFor();
    await poll(() => page.locator('header .account-button--user img').getAttribute('src')).toMatch(/^\/uploads\//);
    await poll(() => page.locator('.image-upload__tile img').getAttribute('src')).toMatch(/^\/uploads\//);

    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Change password' }) });
    await card.getByLabel('Current password').fill(user.password);
    await card.getByLabel('New password').fill('short');
    await card.getByRole('button', { name: 'Change password' }).click();
    await poll(() => errorOf(card.getByLabel('New password'))).toBe('New password must be at least 8 characters');
    await card.getByLabel('New password').fill('an even longer password');
    await card.getByRole('button', { name: 'Change password' }).click();
    await toast(page, 'Password changed').waitFor();
    const answer = await loginRequest(suite.server, user.email, 'an even longer password');
    expect(answer.body.code).toBe(200);
  });
});

describe('catalogue pages for a signed-in buyer', () => {
  it('serves the shared cached page and fills in the name, without ever showing "Log in"', async () => {
    const user = await registerUser(suite.server);
    const path = `${suite.server.url}/en/product/1`;
    await fetch(path); // an anonymous visitor has the page cached already
    const page = await open();
    await suite.context.addCookies([
      { name: 'access_token', value: user.token, url: suite.server.url },
      { name: 'signed_in', value: '1', url: suite.server.url },
    ]);
    // Hold the visitor call to look at the header while the page does not know the name yet.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/visitor', async (route) => {
      await held;
      await route.continue();
    });

    const pageResponse = await page.goto(path);
    expect(pageResponse?.headers()['x-cache']).toBe('hit');
    const loginButton = page.locator('header .account-button:not(.account-button--user)').first();
    await poll(() => page.evaluate(() => document.readyState)).toBe('complete');
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-signed-in'))).toBe(true);
    expect(await loginButton.evaluate((element) => getComputedStyle(element).visibility)).toBe('hidden');

    release();
    await page.locator('header .account-button--user', { hasText: user.username }).first().waitFor();
    expect(await page.locator('header .account-button:not(.account-button--user)').count()).toBe(0);
  });
});

describe('route guard', () => {
  it('keeps the login modal open over a login-only page and reloads it after login', async () => {
    const user = await registerUser(suite.server);
    const page = await open();
    const response = await page.goto(`${suite.server.url}/en/my/account`);
    expect(response?.status()).toBe(401);
    const dialog = page.locator('dialog.modal--guard[open]');
    await dialog.waitFor();
    expect(await dialog.locator('h2').first().innerText()).toBe('Login to browse more content');
    expect(await dialog.getByRole('button', { name: 'Close' }).count()).toBe(0);

    // Neither a click outside nor Escape closes it.
    await page.mouse.click(8, 400);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    expect(await dialog.isVisible()).toBe(true);

    await submitPasswordLogin(page, user.email, user.password);
    await page.locator('h1', { hasText: `Hello, ${user.username}` }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/en/my/account');
    await toast(page, 'Login successful').waitFor();
    expect(await page.locator('dialog[open]').count()).toBe(0);
    forgiveHttpErrors(401);
  });

  it('guards every page under /my and /order, and answers 404 to members for pages that do not exist', async () => {
    const user = await registerUser(suite.server);
    const page = await open();
    const anonymous = await page.goto(`${suite.server.url}/zh-cn/my/order`);
    expect(anonymous?.status()).toBe(401);
    await page.locator('dialog.modal--guard[open] h2', { hasText: '登录以浏览更多内容' }).waitFor();
    await suite.context.addCookies([{ name: 'access_token', value: user.token, url: suite.server.url }]);
    const member = await page.goto(`${suite.server.url}/zh-cn/my/no-such-page`);
    expect(member?.status()).toBe(404);
    expect(await page.locator('dialog[open]').count()).toBe(0);
    forgiveHttpErrors(401, 404);
  });
});

describe('Google sign-in', () => {
  let googleServer: TestServer;
  let issuer: OAuth2Server;
  const googleEmail = uniqueEmail('google');

  beforeAll(async () => {
    issuer = new OAuth2Server();
    await issuer.issuer.keys.generate('RS256');
    await issuer.start(0, '127.0.0.1');
    issuer.service.on('beforeTokenSigning', (token) => {
      Object.assign(token.payload, {
        sub: 'google-subject-1',
        email: googleEmail,
        email_verified: true,
        name: 'Gina Google',
      });
    });
    googleServer = await startTestServer({
      GOOGLE_CLIENT_ID: 'shop-web-client',
      GOOGLE_CLIENT_SECRET: 'shop-web-secret',
      OIDC_ISSUER_OVERRIDE: issuer.issuer.url!,
      RATE_LIMITS: GENEROUS_RATE_LIMITS,
    });
  });
  afterAll(async () => {
    await googleServer?.close();
    await issuer?.stop();
  });

  it('is offered only when the shop has a Google client id', async () => {
    const page = await open();
    await page.goto(`${suite.server.url}/en/`);
    await openLoginModal(page);
    expect(await accountDialog(page).getByRole('button', { name: 'Continue with Google' }).count()).toBe(0);
    await page.goto(`${googleServer.url}/en/`);
    await openLoginModal(page);
    await accountDialog(page).getByText('Other login methods').waitFor();
    expect(await accountDialog(page).getByRole('button', { name: 'Continue with Google' }).count()).toBe(1);
  });

  it('goes through the issuer and comes back logged in to the page it started from', async () => {
    const page = await open();
    await page.goto(`${googleServer.url}/en/faq`);
    await openLoginModal(page);
    await accountDialog(page).getByRole('button', { name: 'Continue with Google' }).click();
    await page.waitForURL(`${googleServer.url}/en/faq`);
    await poll(() => page.locator('header .account-button--user').count()).toBe(1);
    await page.goto(`${googleServer.url}/en/my/account`);
    expect(await page.locator('.account-facts').innerText()).toContain(googleEmail.toLowerCase());
  });

  it('shows a message when the sign-in failed and tidies the address', async () => {
    const page = await open();
    await page.goto(`${googleServer.url}/en/?login_error=google`);
    await toast(page, 'Google sign-in did not complete').waitFor();
    await poll(() => new URL(page.url()).search).toBe('');
  });
});
