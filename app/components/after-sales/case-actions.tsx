import { useRef, useState } from 'react';
import { Form, useNavigation, useSubmit } from 'react-router';
import { useT } from '~/lib/i18n';
import { ConfirmDialog } from '../account/image-upload';
import { ImageUploads } from '../account/image-uploads';
import { TextAreaField, TextField } from '../account/form-field';
import { BusyButton } from '../ui/busy-button';
import { fieldError, type AfterSaleFormAnswer, type CaseIntent } from './form-answer';

/** Whether the page is sending the form of `intent` right now. */
function useSending(intent: CaseIntent): boolean {
  const navigation = useNavigation();
  return navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
}

/**
 * A one-button move that asks first (cancel the request, the replacement arrived). Without
 * JavaScript the button posts the form straight away; with it, the confirm dialog's OK does.
 */
export function ConfirmedMove({
  intent,
  label,
  title,
  text,
  tone = 'warning',
  variant = 'secondary',
  testId,
}: {
  intent: CaseIntent;
  label: string;
  title: string;
  text: string;
  tone?: 'warning' | 'danger';
  variant?: 'primary' | 'secondary' | 'danger';
  testId: string;
}) {
  const form = useRef<HTMLFormElement>(null);
  const submit = useSubmit();
  const sending = useSending(intent);
  const [asking, setAsking] = useState(false);
  return (
    <Form method="post" ref={form} className="as-move">
      <input type="hidden" name="intent" value={intent} />
      <BusyButton
        type="submit"
        className={`button button--${variant}`}
        busy={sending}
        onClick={(event) => {
          event.preventDefault();
          setAsking(true);
        }}
        data-testid={testId}
      >
        {label}
      </BusyButton>
      <ConfirmDialog
        open={asking}
        tone={tone}
        title={title}
        text={text}
        onCancel={() => setAsking(false)}
        onConfirm={async () => {
          await submit(form.current, { method: 'post' });
          setAsking(false);
        }}
      />
    </Form>
  );
}

/** Carrier and tracking number of the parcel sent back (while the case waits for it). */
export function TrackingForm({ answer }: { answer: AfterSaleFormAnswer | undefined }) {
  const t = useT();
  const sending = useSending('tracking');
  return (
    <Form method="post" className="as-form" data-testid="after-sale-tracking-form">
      <input type="hidden" name="intent" value="tracking" />
      <div className="as-form__row">
        <TextField
          label={t('field.carrier')}
          name="carrier"
          autoComplete="off"
          placeholder={t('afterSaleUi.case.carrierPlaceholder')}
          error={fieldError(answer, 'tracking', 'carrier')}
          required
        />
        <TextField
          label={t('field.tracking_no')}
          name="tracking_no"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          error={fieldError(answer, 'tracking', 'tracking_no')}
          required
        />
      </div>
      <BusyButton type="submit" className="button button--primary" busy={sending}>
        {t('afterSaleUi.case.saveTracking')}
      </BusyButton>
    </Form>
  );
}

/** One appeal of a rejection: why the decision should change, with new photos. */
export function AppealForm({ answer }: { answer: AfterSaleFormAnswer | undefined }) {
  const t = useT();
  const sending = useSending('appeal');
  const [photos, setPhotos] = useState<string[]>([]);
  const photosError = fieldError(answer, 'appeal', 'photos');
  return (
    <Form method="post" className="as-form" data-testid="after-sale-appeal-form">
      <input type="hidden" name="intent" value="appeal" />
      <TextAreaField
        label={t('afterSaleUi.case.appealMessage')}
        name="message"
        rows={3}
        error={fieldError(answer, 'appeal', 'message')}
        required
      />
      <div className={`form-field${photosError ? ' form-field--invalid' : ''}`}>
        <span className="form-field__label">
          {t('field.photos')} <span className="as-optional">{t('afterSaleUi.optional')}</span>
        </span>
        <ImageUploads
          value={photos}
          onChange={setPhotos}
          label={t('field.photos')}
          limit={9}
          action="/upload?purpose=evidence"
          tip={t('afterSaleUi.request.photosTip')}
        />
        {photos.map((url) => (
          <input key={url} type="hidden" name="photos" value={url} />
        ))}
        {photosError ? (
          <p className="form-field__error" role="alert">
            {photosError}
          </p>
        ) : null}
      </div>
      <BusyButton type="submit" className="button button--primary" busy={sending}>
        {t('afterSaleUi.case.sendAppeal')}
      </BusyButton>
    </Form>
  );
}

/** Withdraws the request (while the shop has not answered, or the parcel is not sent yet), after asking. */
export function CancelMove({ caseNo }: { caseNo: string }) {
  const t = useT();
  return (
    <div className="as-moves">
      <ConfirmedMove
        intent="cancel"
        variant="danger"
        tone="danger"
        label={t('afterSaleUi.case.cancel')}
        title={t('afterSaleUi.case.cancelTitle')}
        text={t('afterSaleUi.case.cancelText', { caseNo })}
        testId="after-sale-cancel"
      />
      <p className="as-moves__note">{t('afterSaleUi.case.cancelNote')}</p>
    </div>
  );
}
