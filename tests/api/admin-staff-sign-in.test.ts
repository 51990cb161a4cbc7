import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, staffMembers } from '../../server/db/schema';
import { createSignedInStaff, STAFF_TEST_PASSWORD, uniqueStaffEmail } from '../support/staff';
import { anonymousRequest, clientOf, enrolTotp, sessionCookieOf, totpCode } from '../support/staff-sign-in';
import { useTestApp } from '../support/test-server';

/** Console sign-in (docs/console.md, ADR 0100): password, lockout, two steps, recovery codes. */
const server = useTestApp();

const login = (email: string, password: string) =>
  anonymousRequest(server, '/v1/admin/login', { method: 'POST', body: { email, password } });

async function auditRows(entityId: number, action: string) {
  return server.ctx.db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.entityType, 'staff'),
        eq(auditEvents.entityId, String(entityId)),
        eq(auditEvents.action, action),
      ),
    );
}

describe('signing in with a password', () => {
  it('opens a session for the right password and records the sign-in', async () => {
    const member = await createSignedInStaff(server, { role: 'fulfilment' });
    const answer = await login(member.email.toUpperCase(), STAFF_TEST_PASSWORD);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      status: 'signed_in',
      staff: {
        id: member.id,
        email: member.email,
        permissions: ['orders:read', 'orders:fulfil', 'orders:note', 'aftersales:read', 'aftersales:manage'],
      },
    });
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('staff_session='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const session = await clientOf(server, answer)('/v1/admin/session');
    expect(session.body.data.staff.email).toBe(member.email);

    const [row] = await auditRows(member.id, 'staff.signed_in');
    expect(row).toMatchObject({ actorType: 'staff', actorId: member.id, actorLabel: member.email });
    expect(row?.changes).toMatchObject({ method: { after: 'password' } });
    const [stored] = await server.ctx.db.select().from(staffMembers).where(eq(staffMembers.id, member.id));
    expect(stored?.lastSignInAt).toBeInstanceOf(Date);
  });

  it('answers a wrong password and an unknown email alike, both after a full password check', async () => {
    const member = await createSignedInStaff(server, { role: 'support' });
    let started = Date.now();
    const wrong = await login(member.email, 'not-the-password-1');
    const wrongMs = Date.now() - started;
    started = Date.now();
    const unknown = await login(uniqueStaffEmail('nobody'), 'not-the-password-1');
    const unknownMs = Date.now() - started;
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(400);
      expect(answer.body.msg).toBe('Incorrect email or password');
      expect(sessionCookieOf(answer)).toBeUndefined();
    }
    // Both ran scrypt (tens of milliseconds); an unknown email answering at once would give it away.
    expect(unknownMs).toBeGreaterThan(wrongMs / 3);
  });

  it('a disabled member cannot sign in, with the same answer as a wrong password', async () => {
    const member = await createSignedInStaff(server, { role: 'support' });
    await server.ctx.db.update(staffMembers).set({ disabledAt: new Date() }).where(eq(staffMembers.id, member.id));
    const answer = await login(member.email, STAFF_TEST_PASSWORD);
    expect(answer.status).toBe(400);
    expect(answer.body.msg).toBe('Incorrect email or password');
  });

  it('locks this client out of the account after five failures, even for the right password, and records the lockout', async () => {
    const member = await createSignedInStaff(server, { role: 'catalogue' });
    const client = { headers: { 'x-forwarded-for': '203.0.113.77' } };
    for (let i = 0; i < 5; i++) {
      const answer = await anonymousRequest(server, '/v1/admin/login', {
        ...client,
        method: 'POST',
        body: { email: member.email, password: `wrong-password-${i}` },
      });
      expect(answer.status).toBe(400);
    }
    const locked = await anonymousRequest(server, '/v1/admin/login', {
      ...client,
      method: 'POST',
      body: { email: member.email, password: STAFF_TEST_PASSWORD },
    });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    const rows = await auditRows(member.id, 'staff.sign_in_locked');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorType: 'system', actorLabel: 'console-sign-in' });
    expect(rows[0]?.changes).toEqual({ locked_seconds: { after: 30 } });
  });
});

describe('two-step sign-in', () => {
  it('an Owner without it reaches only their profile until they set it up', async () => {
    const owner = await createSignedInStaff(server, { role: 'owner' });
    const refused = await owner.request('/v1/admin/staff');
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('Set up two-step sign-in in your profile before using the console');
    const session = await owner.request('/v1/admin/session');
    expect(session.body.data.staff.second_factor).toEqual({ enabled: false, required: true });
    expect((await owner.request('/v1/admin/me/sessions')).status).toBe(200);

    const { secret, recoveryCodes } = await enrolTotp(owner);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await owner.request('/v1/admin/staff')).status).toBe(200);
    expect((await owner.request('/v1/admin/session')).body.data.staff.second_factor).toEqual({
      enabled: true,
      required: true,
    });

    // Sealed at rest: the column holds neither the secret nor anything that contains it.
    const [stored] = await server.ctx.db.select().from(staffMembers).where(eq(staffMembers.id, owner.id));
    expect(stored?.totpSecret).toMatch(/^v1\./);
    expect(stored?.totpSecret).not.toContain(secret);
    const [enabled] = await auditRows(owner.id, 'staff.two_step_enabled');
    expect(enabled?.changes).toEqual({ two_step: { before: false, after: true }, codes_issued: { after: 10 } });
    expect(JSON.stringify(enabled)).not.toContain(secret);

    const turnOff = await owner.request('/v1/admin/me/totp', { method: 'DELETE', body: { code: recoveryCodes[0] } });
    expect(turnOff.status).toBe(409);
    expect(turnOff.body.msg).toBe('Your role requires two-step sign-in, so it cannot be turned off');
  });

  it('shows the secret once: starting again while it is on is refused', async () => {
    const member = await createSignedInStaff(server, { role: 'support' });
    const started = await member.request('/v1/admin/me/totp', { method: 'POST' });
    expect(started.body.data.otpauth_url).toMatch(/^otpauth:\/\/totp\/.+\?.*secret=/);
    expect(started.body.data.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const confirmed = await member.request('/v1/admin/me/totp/confirm', {
      method: 'POST',
      body: { code: totpCode(started.body.data.secret) },
    });
    expect(confirmed.status).toBe(200);
    const again = await member.request('/v1/admin/me/totp', { method: 'POST' });
    expect(again.status).toBe(409);
  });

  it('signs in with password then code; a replayed code is refused; a recovery code works once', async () => {
    const member = await createSignedInStaff(server, { role: 'owner' });
    const { secret, recoveryCodes, spentCode } = await enrolTotp(member);

    const first = await login(member.email, STAFF_TEST_PASSWORD);
    expect(first.body.data).toEqual({ status: 'second_factor', challenge: expect.any(String), expires_in: 300 });
    expect(sessionCookieOf(first)).toBeUndefined();
    const challenge = first.body.data.challenge;
    const step2 = (code: string, which = challenge) =>
      anonymousRequest(server, '/v1/admin/login/second-factor', { method: 'POST', body: { challenge: which, code } });

    // The code that confirmed enrolment was spent: it cannot open a session.
    const replayed = await step2(spentCode);
    expect(replayed.status).toBe(400);
    expect(replayed.body.msg).toBe('That code is not right, or it was already used. Try the next code');
    // The next step's code is within the accepted drift, and unused.
    const next = totpCode(secret, 1);
    const signedIn = await step2(next);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data).toMatchObject({ id: member.id, second_factor: { enabled: true, required: true } });
    expect((await clientOf(server, signedIn)('/v1/admin/staff')).status).toBe(200);
    // The challenge was used, and the code with it.
    expect((await step2(next)).body.msg).toBe('This sign-in took too long. Please enter your email and password again');
    const second = await login(member.email, STAFF_TEST_PASSWORD);
    expect((await step2(next, second.body.data.challenge)).status).toBe(400);

    const recovered = await step2(recoveryCodes[3]!.toUpperCase(), second.body.data.challenge);
    expect(recovered.status).toBe(200);
    const third = await login(member.email, STAFF_TEST_PASSWORD);
    expect((await step2(recoveryCodes[3]!, third.body.data.challenge)).status).toBe(400);

    const methods = (await auditRows(member.id, 'staff.signed_in')).map((row) => row.changes.method?.after);
    expect(methods).toEqual(['totp', 'recovery_code']);
  });

  it('of two sign-ins racing with the same code, one gets in', async () => {
    const member = await createSignedInStaff(server, { role: 'support' });
    const { secret } = await enrolTotp(member);
    const challenges = await Promise.all(
      [1, 2].map(async () => (await login(member.email, STAFF_TEST_PASSWORD)).body.data.challenge),
    );
    const code = totpCode(secret, 1);
    const answers = await Promise.all(
      challenges.map((challenge) =>
        anonymousRequest(server, '/v1/admin/login/second-factor', { method: 'POST', body: { challenge, code } }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
  });

  it('a challenge dies after five wrong codes', async () => {
    const member = await createSignedInStaff(server, { role: 'support' });
    const { secret } = await enrolTotp(member);
    const { challenge } = (await login(member.email, STAFF_TEST_PASSWORD)).body.data;
    const accepted = [-1, 0, 1].map((steps) => totpCode(secret, steps));
    const wrongCode = ['000000', '111111', '222222', '333333'].find((code) => !accepted.includes(code));
    for (let i = 0; i < 5; i++) {
      const wrong = await anonymousRequest(server, '/v1/admin/login/second-factor', {
        method: 'POST',
        body: { challenge, code: wrongCode },
      });
      expect(wrong.status).toBe(400);
    }
    const late = await anonymousRequest(server, '/v1/admin/login/second-factor', {
      method: 'POST',
      body: { challenge, code: totpCode(secret, 1) },
    });
    expect(late.body.msg).toBe('This sign-in took too long. Please enter your email and password again');
  });

  it('recovery codes are replaced with a current code, and two-step sign-in can be turned off when no role needs it', async () => {
    const member = await createSignedInStaff(server, { role: 'support' });
    const { secret, recoveryCodes } = await enrolTotp(member);
    const fresh = await member.request('/v1/admin/me/recovery-codes', {
      method: 'POST',
      body: { code: totpCode(secret, 1) },
    });
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.recovery_codes).toHaveLength(10);
    expect(fresh.body.data.recovery_codes).not.toContain(recoveryCodes[0]);
    const withOld = await member.request('/v1/admin/me/totp', { method: 'DELETE', body: { code: recoveryCodes[0] } });
    expect(withOld.status).toBe(400);
    const off = await member.request('/v1/admin/me/totp', {
      method: 'DELETE',
      body: { code: fresh.body.data.recovery_codes[0] },
    });
    expect(off.status).toBe(200);
    const [stored] = await server.ctx.db.select().from(staffMembers).where(eq(staffMembers.id, member.id));
    expect(stored).toMatchObject({ totpSecret: null, totpEnabledAt: null });
    expect((await login(member.email, STAFF_TEST_PASSWORD)).body.data.status).toBe('signed_in');
  });
});

describe('own profile', () => {
  it('changes name and language', async () => {
    const member = await createSignedInStaff(server, { role: 'support' });
    const answer = await member.request('/v1/admin/me', { method: 'PUT', body: { name: 'Mei Lin', locale: 'zh-cn' } });
    expect(answer.body.data).toMatchObject({ name: 'Mei Lin', locale: 'zh-cn' });
    expect((await member.request('/v1/admin/session')).body.data.staff).toMatchObject({
      name: 'Mei Lin',
      locale: 'zh-cn',
    });
    const [row] = await auditRows(member.id, 'staff.updated');
    expect(row?.changes).toEqual({
      name: { before: expect.any(String), after: 'Mei Lin' },
      locale: { before: 'en', after: 'zh-cn' },
    });
  });

  it('saving the profile unchanged records nothing in the audit log', async () => {
    const member = await createSignedInStaff(server, { role: 'support' });
    const first = await member.request('/v1/admin/me', { method: 'PUT', body: { name: 'Ana Silva', locale: 'en' } });
    expect(first.status).toBe(200);
    const again = await member.request('/v1/admin/me', { method: 'PUT', body: { name: 'Ana Silva', locale: 'en' } });
    expect(again.status).toBe(200);
    const rows = await auditRows(member.id, 'staff.updated');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.changes).toEqual({ name: { before: expect.any(String), after: 'Ana Silva' } });
  });

  it('changing the password needs the current one and ends the other sessions, with no password in the log', async () => {
    const member = await createSignedInStaff(server, { role: 'support' });
    const other = clientOf(server, await login(member.email, STAFF_TEST_PASSWORD));
    const wrong = await member.request('/v1/admin/me/password', {
      method: 'PUT',
      body: { current_password: 'not-it-at-all', new_password: 'A-new-long-password-1' },
    });
    expect(wrong.status).toBe(400);
    const changed = await member.request('/v1/admin/me/password', {
      method: 'PUT',
      body: { current_password: STAFF_TEST_PASSWORD, new_password: 'A-new-long-password-1' },
    });
    expect(changed.body.data).toEqual({ sessions_ended: 1 });
    expect((await other('/v1/admin/session')).body.data.staff).toBeNull();
    expect((await member.request('/v1/admin/session')).body.data.staff.id).toBe(member.id);
    expect((await login(member.email, 'A-new-long-password-1')).status).toBe(200);
    const [row] = await auditRows(member.id, 'staff.password_changed');
    expect(JSON.stringify(row?.changes)).not.toContain('A-new-long-password-1');
    expect(row?.changes).toEqual({ password_hash: { after: '[redacted]' }, other_sessions_ended: { after: 1 } });
  });

  it('lists own sessions and ends one', async () => {
    const member = await createSignedInStaff(server, { role: 'support' });
    const other = clientOf(server, await login(member.email, STAFF_TEST_PASSWORD));
    const sessions = (await member.request('/v1/admin/me/sessions')).body.data;
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((session: { current: boolean }) => session.current)).toHaveLength(1);
    const otherId = sessions.find((session: { current: boolean }) => !session.current).id;
    expect((await member.request(`/v1/admin/me/sessions/${otherId}`, { method: 'DELETE' })).status).toBe(200);
    expect((await other('/v1/admin/session')).body.data.staff).toBeNull();
    expect((await member.request('/v1/admin/me/sessions')).body.data).toHaveLength(1);
  });
});
