import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/test-server';

/**
 * The shop's own logo files are served under a version of their contents, immutable for a
 * year (issue 15: the Lighthouse long-cache hint); another version's address (a copy of another
 * release during a rolling deploy) gets the current file, kept for five minutes.
 */
const server = useTestServer();
const logoBytes = fs.readFileSync('public/brand/logo.svg');

async function logoAddresses(): Promise<{ light: string; dark: string }> {
  const page = await server.request('/en');
  expect(page.status).toBe(200);
  const light = /src="(\/brand\/v\/[0-9a-f]{12}\/logo\.svg)"/.exec(page.text)?.[1];
  const dark = /src="(\/brand\/v\/[0-9a-f]{12}\/logo-dark\.svg)"/.exec(page.text)?.[1];
  expect(light, 'the page links the versioned logo').toBeDefined();
  expect(dark, 'and its dark twin').toBeDefined();
  return { light: light!, dark: dark! };
}

describe('the brand files', () => {
  it('are linked from pages under one version, logo and dark twin alike', async () => {
    const { light, dark } = await logoAddresses();
    expect(light.split('/')[3]).toBe(dark.split('/')[3]);
    expect((await server.request('/en')).text).not.toContain('src="/brand/logo.svg"');
  });

  it('are served immutable for a year at that address, byte for byte', async () => {
    const { light } = await logoAddresses();
    const answer = await fetch(server.url + light);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/svg+xml');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await answer.arrayBuffer()).equals(logoBytes)).toBe(true);
  });

  it('answer another version’s address with the current file, kept briefly, and know no other file', async () => {
    const { light } = await logoAddresses();
    const old = await fetch(`${server.url}/brand/v/000000000000/logo.svg`, { redirect: 'manual' });
    expect(old.status).toBe(200);
    expect(old.headers.get('cache-control')).toBe('public, max-age=300');
    expect(Buffer.from(await old.arrayBuffer()).equals(logoBytes)).toBe(true);
    const version = light.split('/')[3];
    expect((await fetch(`${server.url}/brand/v/${version}/secrets.svg`)).status).toBe(404);
    expect((await fetch(`${server.url}/brand/v/${version}/..%2Fpackage.json`)).status).toBe(404);
  });
});
