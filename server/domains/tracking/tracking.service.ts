import { asc, eq } from 'drizzle-orm';
import { orderTrackingEvents } from '../../db/schema';
import type { Database } from '../../db/client';

export interface TrackingEvent {
  occurredAt: Date;
  description: string;
  /** picked_up, in_transit, delivered, or update for free text. */
  kind: string;
  source: string;
}

/**
 * Where shipment events come from. `manual` reads what the operator entered
 * (`npm run shop -- orders:track`); a carrier API provider would fetch and cache events
 * behind the same two methods.
 */
export interface TrackingProvider {
  readonly name: string;
  events(
    db: Database,
    shipment: { orderId: number; carrierCode: string; trackingNo: string },
  ): Promise<TrackingEvent[]>;
  record(db: Database, orderId: number, event: Omit<TrackingEvent, 'source'>): Promise<void>;
}

export const manualTrackingProvider: TrackingProvider = {
  name: 'manual',
  async events(db, shipment) {
    const rows = await db
      .select()
      .from(orderTrackingEvents)
      .where(eq(orderTrackingEvents.orderId, shipment.orderId))
      .orderBy(asc(orderTrackingEvents.occurredAt), asc(orderTrackingEvents.id));
    return rows.map((row) => ({
      occurredAt: row.occurredAt,
      description: row.description,
      kind: row.kind,
      source: row.source,
    }));
  },
  async record(db, orderId, event) {
    await db.insert(orderTrackingEvents).values({ orderId, ...event, source: 'manual' });
  },
};

/** The provider in use; only `manual` exists today. */
export function trackingProvider(): TrackingProvider {
  return manualTrackingProvider;
}
