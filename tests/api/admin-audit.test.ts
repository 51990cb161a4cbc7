import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/db/schema';
import { adminRoutesOf } from '../../server/http/admin-api';
import { makeBuyer } from '../support/buyers';
import { createSignedInStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';

/** The audit log viewer (docs/console.md): filters, paging newest first, facets, no way to change the log. */
const server = useTestApp();

let serial = 0;
/** An entity type no other test writes, so a filtered page holds only this test's events. */
function freshEntityType(): string {
  serial += 1;
  return `probe${serial}x${Date.now().toString(36)}`;
}

async function insertEvent(values: { entityType: string; entityId: string; action: string; at: string }) {
  await server.ctx.db.insert(auditEvents).values({
    actorType: 'cli',
    actorId: null,
    actorLabel: 'cli',
    changes: {},
    ...values,
    at: new Date(values.at),
  });
}

describe('GET /v1/admin/audit', () => {
  it('filters by entity and action, newest first, and shows who did it', async () => {
    const auditor = await createSignedInStaff(server, { permissions: ['audit:read'] });
    const support = await createSignedInStaff(server, { role: 'support' });
    const buyer = await makeBuyer(server);
    const other = await makeBuyer(server);
    await support.request(`/v1/admin/customers/${buyer.id}/disable`, { method: 'POST', body: { reason: 'test' } });
    await support.request(`/v1/admin/customers/${buyer.id}/enable`, { method: 'POST' });
    await support.request(`/v1/admin/customers/${other.id}/sign-out`, { method: 'POST' });

    const trail = await auditor.request(`/v1/admin/audit?entity_type=customer&entity_id=${buyer.id}`);
    expect(trail.status).toBe(200);
    expect(trail.body.data).toMatchObject({ page: 1, page_size: 50, has_more: false });
    expect(
      trail.body.data.records.map((event: Record<string, unknown>) => [
        event.action,
        event.actor_type,
        event.actor_id,
        event.actor_label,
        event.ip,
        event.user_agent,
      ]),
    ).toEqual([
      ['customer.enabled', 'staff', support.id, support.email, '127.0.0.1', 'lightMyRequest'],
      ['customer.disabled', 'staff', support.id, support.email, '127.0.0.1', 'lightMyRequest'],
    ]);
    expect(trail.body.data.records[0].request_id).toEqual(expect.any(String));

    const signOuts = await auditor.request(`/v1/admin/audit?action=customer.signed_out&actor_id=${support.id}`);
    expect(signOuts.body.data.records.map((event: { entity_id: string }) => event.entity_id)).toEqual([
      String(other.id),
    ]);
  });

  it('pages newest first and limits by date', async () => {
    const auditor = await createSignedInStaff(server, { permissions: ['audit:read'] });
    const entityType = freshEntityType();
    for (const [index, at] of ['2026-03-01T10:00:00Z', '2026-03-02T10:00:00Z', '2026-03-03T10:00:00Z'].entries())
      await insertEvent({ entityType, entityId: String(index + 1), action: 'probe.touched', at });

    const first = await auditor.request(`/v1/admin/audit?entity_type=${entityType}&page_size=2`);
    expect(first.body.data.records.map((event: { entity_id: string }) => event.entity_id)).toEqual(['3', '2']);
    expect(first.body.data.has_more).toBe(true);
    const second = await auditor.request(`/v1/admin/audit?entity_type=${entityType}&page_size=2&page=2`);
    expect(second.body.data.records.map((event: { entity_id: string }) => event.entity_id)).toEqual(['1']);
    expect(second.body.data.has_more).toBe(false);

    const day = await auditor.request(`/v1/admin/audit?entity_type=${entityType}&from=2026-03-02&to=2026-03-02`);
    expect(day.body.data.records.map((event: { at: string }) => event.at)).toEqual(['2026-03-02T10:00:00.000Z']);
    const since = await auditor.request(
      `/v1/admin/audit?entity_type=${entityType}&from=${encodeURIComponent('2026-03-02T11:30:00+01:00')}`,
    );
    expect(since.body.data.records.map((event: { entity_id: string }) => event.entity_id)).toEqual(['3']);

    const bad = await auditor.request('/v1/admin/audit?from=yesterday', { headers: { lang: 'en' } });
    expect(bad.status).toBe(400);
  });

  it('offers the actions and entity types in the log for the filters', async () => {
    const auditor = await createSignedInStaff(server, { permissions: ['audit:read'] });
    const entityType = freshEntityType();
    await insertEvent({ entityType, entityId: '1', action: 'probe.facet', at: '2026-04-01T00:00:00Z' });
    const facets = await auditor.request('/v1/admin/audit/facets');
    expect(facets.status).toBe(200);
    expect(facets.body.data.actions).toContain('probe.facet');
    expect(facets.body.data.entity_types).toContain(entityType);
    expect(facets.body.data.actions).toEqual([...facets.body.data.actions].sort());
    expect(facets.body.data.actor_types).toEqual(['staff', 'cli', 'system']);
  });

  it('is closed without audit:read', async () => {
    const support = await createSignedInStaff(server, { role: 'support' });
    expect((await support.request('/v1/admin/audit')).status).toBe(403);
    expect((await support.request('/v1/admin/audit/facets')).status).toBe(403);
  });

  it('cannot be changed: the API only reads it and the database refuses updates and deletes', async () => {
    const auditRoutes = adminRoutesOf(server.app).filter((route) => route.url.startsWith('/v1/admin/audit'));
    expect(auditRoutes.map((route) => `${route.method} ${route.url}`).sort()).toEqual([
      'GET /v1/admin/audit',
      'GET /v1/admin/audit/facets',
    ]);
    const entityType = freshEntityType();
    await insertEvent({ entityType, entityId: '1', action: 'probe.kept', at: '2026-05-01T00:00:00Z' });
    await expect(
      server.ctx.db.update(auditEvents).set({ action: 'probe.changed' }).where(eq(auditEvents.entityType, entityType)),
    ).rejects.toThrow();
    await expect(server.ctx.db.delete(auditEvents).where(eq(auditEvents.entityType, entityType))).rejects.toThrow();
    const [kept] = await server.ctx.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityType, entityType));
    expect(kept!.action).toBe('probe.kept');
  });
});
