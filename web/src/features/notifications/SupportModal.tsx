import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useController, useForm, type Control } from 'react-hook-form';
import type { z } from 'zod';
import { SUPPORT_MESSAGES, SupportBody } from '#shared/contract/notifications.ts';
import { call } from '../../api/client.ts';
import { FormMessage, FormTextField } from '../../components/FormFields.tsx';
import { Modal } from '../../components/Modal.tsx';
import { FieldError } from '../../components/TextField.tsx';
import { applyServerErrors, submitWith } from '../../lib/forms.ts';
import { useAppStore } from '../../state/store.ts';
import './notifications.css';

type SupportInput = z.input<typeof SupportBody>;
type SupportOutput = z.output<typeof SupportBody>;
const FIELDS = ['subject', 'message'] as const;

/** How long the 'Got It!' confirmation stays before the dialog closes, ms (docs/accounts.md "Error answers in the SPA"). */
export const SENT_NOTICE_MS = 2000;

/**
 * The header's "Support" button and the support dialog it opens (docs/notifications.md "The bell
 * and the panel": "a support modal"; docs/notifications.md "Support"). Focus returns to the button
 * when it closes.
 */
export function SupportButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button button--small button--secondary"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        Support
      </button>
      {open && <SupportModal onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * The support form (docs/notifications.md "What notifies": "Support form: from, subject, message"):
 * from is the signed-in user (shown, not editable; the server takes it from the session), the
 * subject and message are checked with the route's schema. Once sent, 'Got It!' with 'We have
 * received your message and will respond soon!' shows for {@link SENT_NOTICE_MS} and the dialog
 * closes (docs/accounts.md "Error answers in the SPA"). A refusal (429 past five an hour, a field's
 * message) shows on the form.
 */
export function SupportModal({ onClose }: { onClose: () => void }) {
  const email = useAppStore((s) => s.user?.email ?? '');
  const id = useId();
  const formId = `${id}-support`;
  const form = useForm<SupportInput, unknown, SupportOutput>({
    resolver: zodResolver(SupportBody),
    defaultValues: { subject: '', message: '' },
  });
  const send = useMutation({
    mutationFn: (body: SupportOutput) => call('POST /support/email', { body }),
  });
  const sent = send.isSuccess;

  useEffect(() => {
    if (!sent) return;
    const timer = window.setTimeout(onClose, SENT_NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [sent, onClose]);

  if (sent)
    return (
      <Modal
        open
        title={SUPPORT_MESSAGES.sentTitle}
        onCancel={onClose}
        actions={
          <button
            type="button"
            className="button button--secondary"
            onClick={onClose}
            data-autofocus
          >
            Close
          </button>
        }
      >
        <p role="status">{SUPPORT_MESSAGES.sent}</p>
      </Modal>
    );

  const onValid = async (body: SupportOutput) => {
    try {
      await send.mutateAsync(body);
    } catch (error) {
      applyServerErrors(form.setError, error, FIELDS);
    }
  };
  const busy = form.formState.isSubmitting;
  return (
    <Modal
      open
      title="Contact support"
      onCancel={onClose}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className="button" aria-disabled={busy}>
            {busy ? 'Sending…' : 'Send message'}
          </button>
        </>
      }
    >
      <form id={formId} className="stack" noValidate onSubmit={submitWith(form, onValid)}>
        <FormMessage control={form.control} />
        <p className="support-from">
          <span className="field__label">From</span> <span>{email}</span>
        </p>
        <FormTextField
          control={form.control}
          field="subject"
          id={`${id}-subject`}
          label="Subject"
          autoComplete="off"
          autoCapitalize="sentences"
          spellCheck
          maxLength={200}
        />
        <MessageField control={form.control} id={`${id}-message`} />
      </form>
    </Modal>
  );
}

/** The message's text area, bound like `FormTextField` (label, error, `aria-invalid`). */
function MessageField({
  control,
  id,
}: {
  control: Control<SupportInput, unknown, SupportOutput>;
  id: string;
}) {
  const {
    field: { ref, value, onChange, onBlur },
    fieldState,
  } = useController({ control, name: 'message' });
  const message = fieldState.error?.message;
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        Message
      </label>
      <textarea
        ref={ref}
        id={id}
        name="message"
        className="input support-message"
        rows={6}
        maxLength={5000}
        required
        value={value}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      />
      {message && <FieldError id={errorId} errors={[message]} />}
    </div>
  );
}
