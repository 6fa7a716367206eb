/**
 * The settings calls (spec 001 §7, "Profile, teams, members" and "Security and tokens").
 * Answers are not validated deeply: lists are checked to be arrays, the rest is trusted as
 * the server's documented shape.
 */
import { api, apiUpload, type UploadProgress } from './client.ts';

export interface Team {
  id: string;
  name: string;
  slug: string;
  owner_id: string;
  photo_url: string | null;
  current_billing_plan: string | null;
  can_export_pdf: boolean;
  can_upload_custom_fonts: boolean;
  pivot: { role: string };
}

export interface TeamMember {
  id: string;
  name: string;
  email: string;
  pivot: { role: string };
}

export type TeamDetails = Omit<Team, 'pivot'> & { users: TeamMember[] };

export interface Option {
  value: string;
  text: string;
}

export interface Ability extends Option {
  default: boolean;
}

export interface ApiToken {
  id: string;
  name: string;
  metadata: { abilities: string[] };
  created_at: string | null;
  last_used_at: string | null;
  /** When it stops working (ISO 8601), or null: until deleted. */
  expires_at?: string | null;
}

export interface TeamInvitation {
  id: string;
  email: string;
  role: string;
  created_at: string | null;
}

export interface PendingInvitation {
  id: string;
  role: string;
  team: { id?: string; name: string };
  /** The code of the e-mailed link, when the page was opened through it (accepting needs it). */
  code?: string;
  /** The invited address (known from the link's code). */
  email?: string;
}

export interface TwoFactorSetup {
  secret: string;
  otpauth_url: string;
  qr: string;
}

const list = async <T>(path: string, signal?: AbortSignal): Promise<T[]> => {
  const body = await api<unknown>('GET', path, undefined, { signal });
  return Array.isArray(body) ? (body as T[]) : [];
};
const enc = encodeURIComponent;

// Profile and security
/** A new e-mail address needs `current_password`; it changes once its link is opened. */
export const updateContact = (values: { name: string; email: string; current_password?: string }) =>
  api<{ success: boolean; pending_email?: string; message?: string } | undefined>(
    'PUT',
    '/settings/contact',
    values,
  );
/** Ends every other session; `revoke_tokens` also deletes the API tokens. */
export const updatePassword = (values: {
  current_password: string;
  password: string;
  password_confirmation: string;
  revoke_tokens: boolean;
}) => api<unknown>('PUT', '/settings/password', values);
/** Opens an e-mailed confirmation link's token (docs/security.md). */
export const verifyEmail = (token: string) =>
  api<{ success: boolean; message: string; email: string }>('POST', '/email/verify', { token });
/** Sends a new confirmation link to the signed-in user's address. */
export const resendVerification = () =>
  api<{ success: boolean; message: string }>('POST', '/email/verification-notification');
export const startTwoFactor = () => api<TwoFactorSetup>('POST', '/settings/two-factor-auth', {});
export const confirmTwoFactor = (code: string) =>
  api<{ success: boolean; reset_code: string }>('POST', '/settings/two-factor-auth', { code });
export const disableTwoFactor = (code: string) =>
  api<unknown>('DELETE', '/settings/two-factor-auth', { code });

// API tokens
export const fetchAbilities = (signal?: AbortSignal) =>
  list<Ability>('/settings/api/token/abilities', signal);
export const fetchTokens = (signal?: AbortSignal) => list<ApiToken>('/settings/api/tokens', signal);
export const createToken = (values: {
  name: string;
  abilities: string[];
  expires_in_days?: number | null;
}) => api<{ token: string; id: string }>('POST', '/settings/api/token', values);
export const updateToken = (id: string, values: { name: string; abilities: string[] }) =>
  api<unknown>('PUT', `/settings/api/token/${enc(id)}`, values);
export const deleteToken = (id: string) => api<unknown>('DELETE', `/settings/api/token/${enc(id)}`);

// Teams
export const fetchTeams = (signal?: AbortSignal) => list<Team>('/settings/companies', signal);
export const createTeam = (name: string) =>
  api<{ pendingPayment: boolean; team: Team }>('POST', '/settings/companies', { name });
export const switchTeam = (id: string) =>
  api<unknown>('PUT', `/settings/companies/${enc(id)}/switch`);
export const fetchTeam = (id: string, signal?: AbortSignal) =>
  api<TeamDetails>('GET', `/settings/companies/json/${enc(id)}`, undefined, { signal });
export const renameTeam = (id: string, name: string) =>
  api<unknown>('PUT', `/settings/companies/${enc(id)}/name`, { name });
export const deleteTeam = (id: string) => api<unknown>('DELETE', `/settings/companies/${enc(id)}`);
export const fetchRoles = (signal?: AbortSignal) =>
  list<Option>('/settings/companies/roles', signal);

// Members and invitations
export const fetchTeamInvitations = (id: string, signal?: AbortSignal) =>
  list<TeamInvitation>(`/settings/companies/${enc(id)}/invitations`, signal);
export const sendInvitation = (id: string, values: { email: string; role: string }) =>
  api<unknown>('POST', `/settings/companies/${enc(id)}/invitations`, values);
export const cancelInvitation = (id: string) =>
  api<unknown>('DELETE', `/settings/invitations/${enc(id)}`);
export const updateMemberRole = (teamId: string, userId: string, role: string) =>
  api<unknown>('PUT', `/settings/companies/${enc(teamId)}/members/${enc(userId)}`, { role });
export const removeMember = (teamId: string, userId: string) =>
  api<unknown>('DELETE', `/settings/companies/${enc(teamId)}/members/${enc(userId)}`);
export const fetchPendingInvitations = (signal?: AbortSignal) =>
  list<PendingInvitation>('/settings/invitations/pending', signal);
/** Accepting needs the code of the e-mailed link (docs/decisions.md "Invitations"). */
export const answerInvitation = (id: string, answer: 'accept' | 'reject', code?: string) =>
  api<unknown>('POST', `/settings/invitations/${enc(id)}/${answer}`, code ? { code } : {});
/** The invitation behind a link's code (`GET /invitations/{code}`). */
export const fetchInvitationByCode = (code: string, signal?: AbortSignal) =>
  api<{ id: string; email: string; role: string; team: { name: string } }>(
    'GET',
    `/invitations/${enc(code)}`,
    undefined,
    { signal },
  );

/**
 * `POST /settings/photo` and `POST /settings/companies/{id}/photo` (spec 001 §7): uploads a
 * profile or team photo as the multipart field `photo`.
 * @returns the new photo's URL (`/files/…`).
 * @throws {ApiError} 422 with `errors.photo` when the file is missing or not an image.
 */
export async function uploadPhoto(
  target: { kind: 'user' } | { kind: 'team'; teamId: string },
  file: File,
  onProgress?: (progress: UploadProgress) => void,
): Promise<string> {
  const form = new FormData();
  form.append('photo', file);
  const path =
    target.kind === 'user'
      ? '/settings/photo'
      : `/settings/companies/${encodeURIComponent(target.teamId)}/photo`;
  const answer = await apiUpload<{ photo_url: string }>(path, form, onProgress);
  return answer.photo_url;
}
