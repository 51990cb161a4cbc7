import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, staffTokens } from '../../server/db/schema';
import { runShopCommand } from '../../server/cli/shop';
import { announceSetupLink } from '../../server/domains/staff/setup.service';
import { createLogger } from '../../server/shared/logger';
import { anonymousRequest, clientOf } from '../support/staff-sign-in';
import { useTestApp } from '../support/test-server';

/**
 * First start (docs/console.md, "Getting in"): the setup link logged at start and the one
 * `staff:create-owner` prints, each single use and valid 24 hours. This file's shop starts
 * with no staff member, and no test here makes one except through a setup link.
 */
const server = useTestApp({ PUBLIC_URL: 'https://shop.example' });

/** Runs the server-start announcement with a logger whose lines the test keeps. */
async function announce(): Promise<string[]> {
  const lines: string[] = [];
  const log = createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'test' }, { write: (line: string) => void lines.push(line) });
  await announceSetupLink({ ...server.ctx, log });
  return lines.map((line) => JSON.parse(line).msg as string);
}

async function createOwnerByCli(email: string): Promise<string[]> {
  const out: string[] = [];
  await runShopCommand(server.ctx, ['staff:create-owner', '--email', email], (line) => out.push(line));
  return out;
}

const tokenOf = (link: string) => link.split('#')[1] ?? '';
const setup = (body: Record<string, unknown>) => anonymousRequest(server, '/v1/admin/setup', { method: 'POST', body });
const linkState = async (token: string) => (await anonymousRequest(server, `/v1/admin/setup/${token}`)).body.data;
const owner = { email: 'owner@shop.example', name: 'Ada Owner', password: 'Owner-password-2026', locale: 'en' };

describe('the first-start setup link', () => {
  it('is logged at start as one line, and a new start replaces the unused link', async () => {
    expect((await anonymousRequest(server, '/v1/admin/session')).body.data.setup_required).toBe(true);
    const first = await announce();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/^console setup link: https:\/\/shop\.example\/admin\/setup#[A-Za-z0-9_-]{43}$/);
    const firstToken = tokenOf(first[0]!);
    expect(await linkState(firstToken)).toMatchObject({ valid: true, email: null });

    const second = await announce();
    const secondToken = tokenOf(second[0]!);
    expect(secondToken).not.toBe(firstToken);
    expect(await linkState(firstToken)).toEqual({ valid: false, email: null, expires_at: null });
    expect(await linkState(secondToken)).toMatchObject({ valid: true });

    const issued = await server.ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'staff.setup_link_issued'));
    expect(issued.map((row) => [row.actorType, row.actorLabel])).toEqual([
      ['system', 'first-start'],
      ['system', 'first-start'],
    ]);
    expect(JSON.stringify(issued)).not.toContain(firstToken);
    expect(JSON.stringify(issued)).not.toContain(secondToken);
  });

  it('stops working after 24 hours', async () => {
    const out = await createOwnerByCli('late@shop.example');
    const token = tokenOf(out[1]!);
    await server.ctx.db
      .update(staffTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(staffTokens.email, 'late@shop.example'));
    expect((await linkState(token)).valid).toBe(false);
    const refused = await setup({ ...owner, email: 'late@shop.example', token });
    expect(refused.status).toBe(404);
    expect(refused.body.msg).toBe('This link has expired or was already used. Ask for a new one');
  });

  it('staff:create-owner prints a link bound to its email, recorded as done from the command line', async () => {
    const out = await createOwnerByCli('Cli-Owner@Shop.example');
    expect(out[0]).toMatch(/^setup link for cli-owner@shop\.example \(valid until .+, single use\):$/);
    expect(out[1]).toMatch(/^https:\/\/shop\.example\/admin\/setup#[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(out[1]!);
    expect(await linkState(token)).toMatchObject({ valid: true, email: 'cli-owner@shop.example' });
    const mismatch = await setup({ ...owner, token });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.msg).toBe('This setup link was made for another email address');
    const [row] = await server.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'staff.setup_link_issued'), eq(auditEvents.actorType, 'cli')));
    expect(row).toMatchObject({ actorLabel: 'cli', actorId: null });
  });

  it('creates the Owner once, signed in and asked for two-step sign-in; every other setup link dies with it', async () => {
    const cliToken = tokenOf((await createOwnerByCli('second@shop.example'))[1]!);
    const startToken = tokenOf((await announce())[0]!);
    const created = await setup({ ...owner, token: startToken });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      email: owner.email,
      name: owner.name,
      locale: 'en',
      second_factor: { enabled: false, required: true },
    });
    expect(created.body.data.permissions).toContain('staff:manage');
    const asOwner = clientOf(server, created);
    expect((await asOwner('/v1/admin/session')).body.data.staff.email).toBe(owner.email);
    expect((await asOwner('/v1/admin/staff')).status).toBe(403);

    const reused = await setup({ ...owner, email: 'again@shop.example', token: startToken });
    expect(reused.status).toBe(404);
    expect((await linkState(cliToken)).valid).toBe(false);
    expect((await setup({ ...owner, email: 'second@shop.example', token: cliToken })).status).toBe(404);

    expect((await anonymousRequest(server, '/v1/admin/session')).body.data.setup_required).toBe(false);
    expect(await announce()).toEqual([]);
    await expect(createOwnerByCli('third@shop.example')).rejects.toThrow('adminStaff.setup.closed');

    const [joined] = await server.ctx.db.select().from(auditEvents).where(eq(auditEvents.action, 'staff.joined'));
    expect(joined).toMatchObject({ actorType: 'staff', actorLabel: owner.email, entityType: 'staff' });
    expect(joined?.changes).toEqual({
      email: { after: owner.email },
      name: { after: owner.name },
      locale: { after: 'en' },
      role_keys: { after: ['owner'] },
      via: { after: 'setup' },
    });
    expect(JSON.stringify(joined)).not.toContain(owner.password);
  });
});
