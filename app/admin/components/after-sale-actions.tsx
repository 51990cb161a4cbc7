import { useEffect, useId, useRef, useState, type FormEventHandler, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import {
  approveAfterSaleBody,
  receiveAfterSaleBody,
  rejectAfterSaleBody,
  shipExchangeBody,
  type AdminAfterSaleDetail,
} from '../../../server/domains/after-sales/after-sales.schemas';
import { adminApi, newIdempotencyKey } from '../lib/admin-api';
import { useCan, useConsole, useConsoleT } from '../lib/console-context';
import { formatMoney, majorToMinor, minorToMajorText } from '../lib/format';
import { ErrorNotice, Field, useAction } from './ui';

/**
 * The operator's moves on a case (docs/console.md, "After-sale desk"): the buttons its state
 * and the member's permissions allow, each opening a dialog whose form is checked by the API's
 * own zod schema; the API's refusal (`msg`, in the member's language) shows in the dialog.
 * Each dialog mounts when opened, so it starts from the case as it stands (and a refund gets
 * a fresh idempotency key: a double click or a retry refunds once).
 */

type Detail = AdminAfterSaleDetail;
type Changed = (message: string) => Promise<void>;
type Move = 'approve' | 'reject' | 'receive' | 'refund' | 'ship';

/** The moves this member may make on the case now: its state allows them and their role grants them. */
export function useVisibleMoves(detail: Detail) {
  const can = useCan();
  const moves = detail.operator_can;
  const manage = can('aftersales:manage');
  const show = {
    approve: manage && moves.approve,
    reject: manage && moves.reject,
    receive: manage && moves.receive,
    ship: manage && moves.ship_exchange,
    refund: can('payments:refund') && moves.refund,
  };
  return { ...show, any: Object.values(show).some(Boolean), refundByOther: moves.refund && !show.refund };
}

/** The buttons of the moves the member may make, each opening its dialog. */
export function CaseActions({ detail, onChanged }: { detail: Detail; onChanged: Changed }) {
  const t = useConsoleT();
  const { locale } = useConsole();
  const [open, setOpen] = useState<Move | null>(null);
  const show = useVisibleMoves(detail);
  if (!show.any) return null;
  const close = () => setOpen(null);
  const done = async (message: string) => {
    setOpen(null);
    await onChanged(message);
  };
  return (
    <>
      {show.reject ? (
        <button type="button" className="button button--danger-ghost" onClick={() => setOpen('reject')}>
          {t('console.afterSales.reject.button')}
        </button>
      ) : null}
      {show.approve ? (
        <button type="button" className="button button--primary" onClick={() => setOpen('approve')}>
          {t('console.afterSales.approve.button')}
        </button>
      ) : null}
      {show.receive ? (
        <button type="button" className="button button--primary" onClick={() => setOpen('receive')}>
          {t('console.afterSales.receive.button')}
        </button>
      ) : null}
      {show.ship ? (
        <button type="button" className="button button--primary" onClick={() => setOpen('ship')}>
          {t('console.afterSales.ship.button')}
        </button>
      ) : null}
      {show.refund && detail.approved ? (
        <button type="button" className="button button--primary" onClick={() => setOpen('refund')}>
          {t('console.afterSales.refund.button', {
            amount: formatMoney(detail.approved.amount_minor, detail.currency, locale),
          })}
        </button>
      ) : null}
      {open === 'approve' ? <ApproveDialog detail={detail} onClose={close} onDone={done} /> : null}
      {open === 'reject' ? <RejectDialog detail={detail} onClose={close} onDone={done} /> : null}
      {open === 'receive' ? <ReceiveDialog detail={detail} onClose={close} onDone={done} /> : null}
      {open === 'refund' ? <RefundDialog detail={detail} onClose={close} onDone={done} /> : null}
      {open === 'ship' ? <ShipDialog detail={detail} onClose={close} onDone={done} /> : null}
    </>
  );
}

interface DialogProps {
  detail: Detail;
  onClose: () => void;
  onDone: Changed;
}

/** A move's modal <dialog>, shown while mounted: Escape and Cancel close it, focus returns to the opener. */
function MoveDialog({
  title,
  onClose,
  onSubmit,
  submitLabel,
  tone = 'primary',
  busy,
  error,
  wide = false,
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel: string;
  tone?: 'primary' | 'danger';
  busy: boolean;
  error: unknown;
  wide?: boolean;
  children?: ReactNode;
}) {
  const t = useConsoleT();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={`console-dialog desk-dialog${wide ? ' desk-dialog--wide' : ''}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <form onSubmit={onSubmit} noValidate>
        <h2 id={titleId}>{title}</h2>
        {children}
        <ErrorNotice error={error} />
        <div className="console-dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('console.action.cancel')}
          </button>
          <button type="submit" className={`button button--${tone}`} disabled={busy}>
            {submitLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

type ApproveInput = z.input<typeof approveAfterSaleBody>;
type ApproveBody = z.output<typeof approveAfterSaleBody>;

/**
 * Approve: for refund types the amount starts at the estimate (plus the shipping fee when
 * ticked), never above what is left of the payment, and may be changed; a return below the
 * returnless threshold may be refunded without the goods coming back.
 */
function ApproveDialog({ detail, onClose, onDone }: DialogProps) {
  const t = useConsoleT();
  const { locale } = useConsole();
  const money = (minor: number) => formatMoney(minor, detail.currency, locale);
  const refunds = detail.type !== 30;
  const shippingFee = detail.shipping_fee.amount_minor;
  const suggested = (withShipping: boolean) =>
    Math.min(detail.estimate.amount_minor + (withShipping ? shippingFee : 0), detail.refundable.amount_minor);
  const form = useForm<ApproveInput, unknown, ApproveBody>({
    resolver: zodResolver(approveAfterSaleBody),
    defaultValues: {
      amount_minor: refunds ? suggested(false) : undefined,
      include_shipping: false,
      returnless: false,
      message: '',
    },
  });
  const [amountText, setAmountText] = useState(refunds ? minorToMajorText(suggested(false), detail.currency) : '');
  const amount = form.watch('amount_minor');
  const returnlessAllowed =
    detail.operator_can.approve_returnless &&
    typeof amount === 'number' &&
    amount < detail.returnless_below.amount_minor;
  const setAmount = (minor: number) => {
    setAmountText(minorToMajorText(minor, detail.currency));
    form.setValue('amount_minor', minor, { shouldValidate: form.formState.isSubmitted });
  };
  useEffect(() => {
    if (!returnlessAllowed) form.setValue('returnless', false);
  }, [returnlessAllowed, form]);

  const approve = useAction(async (body: ApproveBody) => {
    await adminApi(`/after-sales/${detail.id}/approve`, { body });
    await onDone(t('console.afterSales.approve.done'));
  });
  const errors = form.formState.errors;
  return (
    <MoveDialog
      title={t('console.afterSales.approve.title', { number: detail.case_no })}
      onClose={onClose}
      onSubmit={form.handleSubmit((body) => approve.act(body))}
      submitLabel={t('console.afterSales.approve.button')}
      busy={approve.busy}
      error={approve.error}
    >
      <p className="muted">
        {t(
          detail.type === 10
            ? 'console.afterSales.approve.refundOnly'
            : detail.type === 20
              ? 'console.afterSales.approve.withParcel'
              : 'console.afterSales.approve.exchange',
        )}
      </p>
      {refunds ? (
        <>
          <Field
            id="approve-amount"
            label={t('console.afterSales.approve.amount', { currency: detail.currency })}
            error={errors.amount_minor ? t('console.refund.amountInvalid') : undefined}
          >
            <input
              id="approve-amount"
              inputMode="decimal"
              autoComplete="off"
              value={amountText}
              aria-describedby="approve-amount-hint"
              onChange={(event) => {
                setAmountText(event.target.value);
                form.setValue('amount_minor', majorToMinor(event.target.value, detail.currency) ?? Number.NaN, {
                  shouldValidate: form.formState.isSubmitted,
                });
              }}
            />
            <p className="field__hint" id="approve-amount-hint">
              {t('console.afterSales.approve.amountHint', {
                estimate: money(detail.estimate.amount_minor),
                refundable: money(detail.refundable.amount_minor),
              })}
            </p>
          </Field>
          {shippingFee > 0 ? (
            <label className="check">
              <input
                type="checkbox"
                {...form.register('include_shipping', {
                  onChange: (event: { target: { checked: boolean } }) => {
                    // The amount follows the box while it is still the suggested one.
                    const checked = event.target.checked;
                    if (amount === suggested(!checked)) setAmount(suggested(checked));
                  },
                })}
              />
              <span>{t('console.afterSales.approve.includeShipping', { amount: money(shippingFee) })}</span>
            </label>
          ) : null}
          {returnlessAllowed ? (
            <label className="check">
              <input type="checkbox" {...form.register('returnless')} />
              <span className="cell-stack">
                <span>{t('console.afterSales.approve.returnless')}</span>
                <span className="muted">
                  {t('console.afterSales.approve.returnlessHint', {
                    amount: money(detail.returnless_below.amount_minor),
                  })}
                </span>
              </span>
            </label>
          ) : null}
        </>
      ) : null}
      <Field id="approve-message" label={t('console.afterSales.approve.message')}>
        <textarea id="approve-message" rows={3} {...form.register('message')} />
      </Field>
    </MoveDialog>
  );
}

type RejectInput = z.input<typeof rejectAfterSaleBody>;
type RejectBody = z.output<typeof rejectAfterSaleBody>;

/** Reject: a reason code from the API's list and a message the buyer reads (they may appeal once). */
function RejectDialog({ detail, onClose, onDone }: DialogProps) {
  const t = useConsoleT();
  const form = useForm<RejectInput, unknown, RejectBody>({
    resolver: zodResolver(rejectAfterSaleBody),
    defaultValues: { message: '' },
  });
  const reject = useAction(async (body: RejectBody) => {
    await adminApi(`/after-sales/${detail.id}/reject`, { body });
    await onDone(t('console.afterSales.reject.done'));
  });
  const errors = form.formState.errors;
  return (
    <MoveDialog
      title={t('console.afterSales.reject.title', { number: detail.case_no })}
      onClose={onClose}
      onSubmit={form.handleSubmit((body) => reject.act(body))}
      submitLabel={t('console.afterSales.reject.button')}
      tone="danger"
      busy={reject.busy}
      error={reject.error}
    >
      <Field
        id="reject-reason"
        label={t('console.afterSales.reject.reason')}
        error={errors.rejection ? t('console.afterSales.reject.choose') : undefined}
      >
        <select id="reject-reason" defaultValue="" {...form.register('rejection')}>
          <option value="" disabled>
            {t('console.afterSales.reject.choose')}
          </option>
          {detail.rejection_options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.text}
            </option>
          ))}
        </select>
      </Field>
      <Field
        id="reject-message"
        label={t('console.afterSales.reject.message')}
        error={errors.message ? t('console.form.required') : undefined}
      >
        <textarea id="reject-message" rows={4} aria-describedby="reject-message-hint" {...form.register('message')} />
        <p className="field__hint" id="reject-message-hint">
          {t('console.afterSales.reject.messageHint')}
        </p>
      </Field>
    </MoveDialog>
  );
}

type ReceiveInput = z.input<typeof receiveAfterSaleBody>;
type ReceiveBody = z.output<typeof receiveAfterSaleBody>;

/** Receive the parcel: per line the units that arrived fine and damaged, and whether the fine ones go back on sale. */
function ReceiveDialog({ detail, onClose, onDone }: DialogProps) {
  const t = useConsoleT();
  const form = useForm<ReceiveInput, unknown, ReceiveBody>({
    resolver: zodResolver(receiveAfterSaleBody),
    defaultValues: {
      lines: detail.lines.map((line) => ({
        line_id: line.id,
        accepted_quantity: line.quantity,
        damaged_quantity: 0,
        restock: true,
      })),
    },
  });
  const counted = form.watch('lines');
  const tooMany = detail.lines.map((line, index) => {
    const entry = counted[index];
    return entry ? (entry.accepted_quantity || 0) + (entry.damaged_quantity || 0) > line.quantity : false;
  });
  const receive = useAction(async (body: ReceiveBody) => {
    await adminApi(`/after-sales/${detail.id}/receive`, { body });
    await onDone(t('console.afterSales.receive.done'));
  });
  const errors = form.formState.errors.lines;
  return (
    <MoveDialog
      title={t('console.afterSales.receive.title', { number: detail.case_no })}
      onClose={onClose}
      onSubmit={form.handleSubmit((body) => (tooMany.some(Boolean) ? undefined : receive.act(body)))}
      submitLabel={t('console.afterSales.receive.submit')}
      busy={receive.busy}
      error={receive.error}
      wide
    >
      <p className="muted">{t('console.afterSales.receive.hint')}</p>
      <table className="data-table data-table--compact desk-receive">
        <thead>
          <tr>
            <th scope="col">{t('console.afterSales.case.product')}</th>
            <th scope="col" className="numeric">
              {t('console.afterSales.receive.expected')}
            </th>
            <th scope="col">{t('console.afterSales.receive.accepted')}</th>
            <th scope="col">{t('console.afterSales.receive.damaged')}</th>
            <th scope="col">{t('console.afterSales.receive.restock')}</th>
          </tr>
        </thead>
        <tbody>
          {detail.lines.map((line, index) => {
            const invalid = tooMany[index] || Boolean(errors?.[index]);
            return (
              <tr key={line.id} className={invalid ? 'desk-receive__row--invalid' : undefined}>
                <td>
                  <span className="cell-stack">
                    <span>{line.name}</span>
                    {line.properties ? <span className="muted">{line.properties}</span> : null}
                    {tooMany[index] ? (
                      <span className="field__error" role="alert">
                        {t('console.afterSales.receive.tooMany', { count: line.quantity })}
                      </span>
                    ) : null}
                  </span>
                </td>
                <td className="numeric">{line.quantity}</td>
                <td>
                  <input
                    className="desk-receive__count"
                    type="number"
                    min={0}
                    max={line.quantity}
                    inputMode="numeric"
                    aria-label={t('console.afterSales.receive.acceptedOf', { name: line.name })}
                    aria-invalid={invalid || undefined}
                    {...form.register(`lines.${index}.accepted_quantity`, { valueAsNumber: true })}
                  />
                </td>
                <td>
                  <input
                    className="desk-receive__count"
                    type="number"
                    min={0}
                    max={line.quantity}
                    inputMode="numeric"
                    aria-label={t('console.afterSales.receive.damagedOf', { name: line.name })}
                    aria-invalid={invalid || undefined}
                    {...form.register(`lines.${index}.damaged_quantity`, { valueAsNumber: true })}
                  />
                </td>
                <td>
                  <label className="check desk-receive__restock">
                    <input
                      type="checkbox"
                      aria-label={t('console.afterSales.receive.restockOf', { name: line.name })}
                      {...form.register(`lines.${index}.restock`)}
                    />
                  </label>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </MoveDialog>
  );
}

/** Refund the approved amount; the key is made when the dialog opens, so repeating the click refunds once. */
function RefundDialog({ detail, onClose, onDone }: DialogProps) {
  const t = useConsoleT();
  const { locale } = useConsole();
  const [key] = useState(newIdempotencyKey);
  const amount = formatMoney(detail.approved?.amount_minor ?? 0, detail.currency, locale);
  const refund = useAction(async () => {
    const answer = await adminApi<Detail>(`/after-sales/${detail.id}/refund`, { body: { idempotency_key: key } });
    const waits = answer.refunds.some((row) => row.status === 'awaiting_approval');
    await onDone(t(waits ? 'console.afterSales.refund.awaiting' : 'console.afterSales.refund.done'));
  });
  return (
    <MoveDialog
      title={t('console.afterSales.refund.title', { amount, number: detail.case_no })}
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        if (!refund.busy) void refund.act();
      }}
      submitLabel={t('console.afterSales.refund.submit')}
      busy={refund.busy}
      error={refund.error}
    >
      <p className="muted">{t('console.afterSales.refund.body')}</p>
    </MoveDialog>
  );
}

type ShipInput = z.input<typeof shipExchangeBody>;
type ShipBody = z.output<typeof shipExchangeBody>;

/** Ship the replacement: the wanted options of the units that came back fine, with a carrier and tracking number. */
function ShipDialog({ detail, onClose, onDone }: DialogProps) {
  const t = useConsoleT();
  const form = useForm<ShipInput, unknown, ShipBody>({
    resolver: zodResolver(shipExchangeBody),
    defaultValues: { carrier_code: detail.carriers[0]?.code ?? '', tracking_no: '' },
  });
  const ship = useAction(async (body: ShipBody) => {
    await adminApi(`/after-sales/${detail.id}/ship-exchange`, { body });
    await onDone(t('console.afterSales.ship.done'));
  });
  const errors = form.formState.errors;
  return (
    <MoveDialog
      title={t('console.afterSales.ship.title', { number: detail.case_no })}
      onClose={onClose}
      onSubmit={form.handleSubmit((body) => ship.act(body))}
      submitLabel={t('console.afterSales.ship.submit')}
      busy={ship.busy}
      error={ship.error}
    >
      <div className="desk-ship-items">
        <span className="desk-ship-items__label">{t('console.afterSales.ship.items')}</span>
        <ul className="plain-list">
          {detail.lines
            .filter((line) => line.wanted && (line.accepted_quantity ?? line.quantity) > 0)
            .map((line) => (
              <li key={line.id}>
                <strong>{line.name}</strong> · {line.wanted?.properties} × {line.accepted_quantity ?? line.quantity}
              </li>
            ))}
        </ul>
      </div>
      <Field id="ship-carrier" label={t('console.afterSales.ship.carrier')}>
        <select id="ship-carrier" {...form.register('carrier_code')}>
          {detail.carriers.map((carrier) => (
            <option key={carrier.code} value={carrier.code}>
              {carrier.name}
            </option>
          ))}
        </select>
      </Field>
      <Field
        id="ship-tracking"
        label={t('console.afterSales.ship.tracking')}
        error={errors.tracking_no ? t('console.afterSales.ship.trackingInvalid') : undefined}
      >
        <input id="ship-tracking" className="mono" autoComplete="off" {...form.register('tracking_no')} />
      </Field>
    </MoveDialog>
  );
}
