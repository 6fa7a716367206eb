import { useEffect, useRef, useState } from 'react';
import { api, isApiError } from '../../api/client.ts';

/** What `GET /invitations/{code}` tells a visitor about an invitation (spec 001 §7). */
export interface InvitationInfo {
  email: string;
  role: string;
  team: { name: string };
}

export type InvitationState =
  | { state: 'none' }
  | { state: 'loading' }
  | { state: 'valid'; invitation: InvitationInfo }
  /** Spec 001 §5 "Invalid coupon or invitation sets an invalid flag". */
  | { state: 'invalid'; message: string };

/**
 * Looks up the invitation of the registration URL (`?invitation=code`), so the page can name the
 * team and pre-fill the invited address. A failed lookup marks it invalid with the server's
 * message; registration still works (the account is made without joining).
 * @param code the invitation code, or undefined when the URL has none.
 * @param onValid called once with a valid invitation (e.g. to fill in the e-mail field).
 */
export function useInvitation(
  code: string | undefined,
  onValid?: (invitation: InvitationInfo) => void,
): InvitationState {
  const callback = useRef(onValid);
  useEffect(() => {
    callback.current = onValid;
  });
  const [result, setResult] = useState<InvitationState>(
    code ? { state: 'loading' } : { state: 'none' },
  );
  useEffect(() => {
    if (!code) return undefined;
    const controller = new AbortController();
    api<InvitationInfo>('GET', `/invitations/${encodeURIComponent(code)}`, undefined, {
      signal: controller.signal,
    }).then(
      (invitation) => {
        setResult({ state: 'valid', invitation });
        callback.current?.(invitation);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setResult({
          state: 'invalid',
          message: isApiError(error) ? error.message : 'This invitation could not be checked.',
        });
      },
    );
    return () => controller.abort();
  }, [code]);
  return result;
}
