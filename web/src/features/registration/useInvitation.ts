import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { InvitationByCode } from '#shared/contract/teams.ts';
import { call, isApiError } from '../../api/client.ts';
import { queryKeys } from '../../state/queryKeys.ts';

/** What `GET /invitations/{code}` tells a visitor about an invitation (docs/adr/0044-the-api-contract.md "The API contract"). */
type InvitationInfo = InvitationByCode;

export type InvitationState =
  | { state: 'none' }
  | { state: 'loading' }
  | { state: 'valid'; invitation: InvitationInfo }
  /** docs/accounts.md "Validation rules": "Invalid coupon or invitation sets an invalid flag". */
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
  const read = useQuery({
    queryKey: queryKeys.invitation(code ?? ''),
    queryFn: ({ signal }) =>
      call('GET /invitations/{code}', { params: { code: code ?? '' }, signal }),
    enabled: Boolean(code),
    staleTime: Infinity,
  });
  // The valid invitation is handed on once per code, when it arrives.
  const handed = useRef<string | null>(null);
  const invitation = read.data;
  useEffect(() => {
    if (!code || !invitation || handed.current === code) return;
    handed.current = code;
    callback.current?.(invitation);
  }, [code, invitation]);

  if (!code) return { state: 'none' };
  if (read.isError) {
    const error = read.error;
    const message = isApiError(error) ? error.message : 'This invitation could not be checked.';
    return { state: 'invalid', message };
  }
  return invitation ? { state: 'valid', invitation } : { state: 'loading' };
}
