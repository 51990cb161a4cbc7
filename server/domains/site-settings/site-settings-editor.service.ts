import { inArray, sql } from 'drizzle-orm';
import { siteSettings } from '../../db/schema';
import type { ActingContext, AppContext } from '../../context';
import { recordAudit } from '../audit/audit.service';
import { DEFAULT_SITE_SETTINGS, type SiteSettings } from './site-settings.defaults';
import {
  EDITABLE_SETTING_KEYS,
  type SiteSettingsChanges,
  type SiteSettingsEditorView,
} from './site-settings-editor.schemas';
import { getSiteSettings, settingsChanged } from './site-settings.service';

function editorView(ctx: AppContext, settings: SiteSettings): SiteSettingsEditorView {
  const editable = Object.fromEntries(EDITABLE_SETTING_KEYS.map((key) => [key, settings[key]]));
  return {
    ...(editable as Pick<SiteSettings, (typeof EDITABLE_SETTING_KEYS)[number]>),
    settlement_currency: settings.currency,
    timer_defaults: {
      order_payment_timeout_minutes: ctx.env.ORDER_PAYMENT_TIMEOUT_MINUTES,
      order_auto_confirm_days: ctx.env.ORDER_AUTO_CONFIRM_DAYS,
    },
  };
}

/** `GET /v1/admin/settings`. */
export async function siteSettingsForEditor(ctx: AppContext): Promise<SiteSettingsEditorView> {
  return editorView(ctx, await getSiteSettings(ctx));
}

/**
 * Saves the settings a form changed, in one transaction with its audit event (`settings.updated`,
 * each changed key before and after), then retires every cached page: settings show on all
 * of them. Keys whose value did not change are neither written nor logged.
 */
export async function saveSiteSettings(
  ctx: ActingContext,
  changes: SiteSettingsChanges,
): Promise<SiteSettingsEditorView> {
  const keys = Object.keys(changes) as Array<keyof SiteSettingsChanges>;
  const changed = await ctx.db.transaction(async (tx) => {
    const { currency: settlement } = await getSiteSettings({ ...ctx, db: tx });
    // The settlement currency is always offered: it is what buyers are charged in.
    const offered = changes.display_currencies;
    const wanted: SiteSettingsChanges =
      offered && !offered.includes(settlement) ? { ...changes, display_currencies: [settlement, ...offered] } : changes;
    const rows = await tx.select().from(siteSettings).where(inArray(siteSettings.key, keys)).for('update');
    const stored = new Map(rows.map((row) => [row.key, row.value]));
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const key of keys) {
      const was = stored.has(key) ? stored.get(key) : DEFAULT_SITE_SETTINGS[key];
      if (JSON.stringify(was) === JSON.stringify(wanted[key])) continue;
      before[key] = was;
      after[key] = wanted[key];
    }
    const entries = Object.entries(after);
    if (entries.length === 0) return false;
    // A timer set back to null is no row at all: the environment's default applies again.
    const cleared = entries.filter(([, value]) => value === null).map(([key]) => key);
    const written = entries.filter(([, value]) => value !== null);
    if (cleared.length > 0) await tx.delete(siteSettings).where(inArray(siteSettings.key, cleared));
    if (written.length > 0)
      await tx
        .insert(siteSettings)
        .values(written.map(([key, value]) => ({ key, value })))
        .onConflictDoUpdate({ target: siteSettings.key, set: { value: sql`excluded.value`, updatedAt: sql`now()` } });
    await recordAudit(
      { ...ctx, db: tx },
      { action: 'settings.updated', entityType: 'settings', entityId: 'site', before, after },
    );
    return true;
  });
  if (changed) await settingsChanged(ctx);
  return siteSettingsForEditor(ctx);
}
