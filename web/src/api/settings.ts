/**
 * The settings calls (docs/security.md "Sessions and tokens", "Profile, teams, members" and
 * "Security and tokens"), on the typed client: paths, bodies and answers are the routes' contracts
 * (shared/contract/auth.ts, shared/contract/teams.ts), which the server's answers are checked
 * against.
 */
import type { AbilityOption, ApiToken, TwoFactorSetup } from '#shared/contract/auth.ts';
import type { AnswerOf, BodyOf } from '#shared/contract/index.ts';
import type {
  PendingInvitation as PendingInvitationAnswer,
  RoleOption,
  Team,
  TeamMember,
} from '#shared/contract/teams.ts';
import { ApiError, apiUpload, call, type UploadProgress } from './client.ts';

export type { ApiToken, TwoFactorSetup } from '#shared/contract/auth.ts';
export type { Team, TeamInvitation, TeamMember } from '#shared/contract/teams.ts';

/** A team with its members (`GET /settings/companies/json/{id}`). */
export type TeamDetails = Team & { users: TeamMember[] };

/** A choice of a list the server gives (the roles). */
export type Option = RoleOption;

/** An ability a token can be given, with whether new tokens have it by default. */
export type Ability = AbilityOption;

/**
 * An invitation to answer: one of the user's pending invitations, or the one behind the link
 * the page was opened with (whose team id the link does not tell).
 */
export type PendingInvitation = Omit<PendingInvitationAnswer, 'team'> & {
  team: { id?: string; name: string };
  /** The code of the e-mailed link, when the page was opened through it (accepting needs it). */
  code?: string;
  /** The invited address (known from the link's code). */
  email?: string;
};

// Profile and security
/** A new e-mail address needs `current_password`; it changes once its link is opened. */
export const updateContact = (values: BodyOf<'PUT /settings/contact'>) =>
  call('PUT /settings/contact', { body: values });
/** Ends every other session; `revoke_tokens` also deletes the API tokens. */
export const updatePassword = (values: BodyOf<'PUT /settings/password'>) =>
  call('PUT /settings/password', { body: values });
/** Opens an e-mailed confirmation link's token (docs/security.md). */
export const verifyEmail = (token: string) => call('POST /email/verify', { body: { token } });
/** Sends a new confirmation link to the signed-in user's address. */
export const resendVerification = () => call('POST /email/verification-notification', {});

/**
 * `POST /settings/two-factor-auth` without a code: a new secret to scan.
 * @throws {ApiError} 422 on `current_code` while a factor is on (replacing it needs a code).
 */
export async function startTwoFactor(): Promise<TwoFactorSetup> {
  const answer = await call('POST /settings/two-factor-auth', { body: {} });
  if (!('secret' in answer)) throw new ApiError(200, 'The server answered without a secret.');
  return answer;
}

/**
 * `POST /settings/two-factor-auth` with a code of the new secret: turns it on.
 * @returns the reset code, shown once.
 */
export async function confirmTwoFactor(code: string): Promise<{ reset_code: string }> {
  const answer = await call('POST /settings/two-factor-auth', { body: { code } });
  if (!('reset_code' in answer)) throw new ApiError(200, 'The server answered without a code.');
  return answer;
}
export const disableTwoFactor = (code: string) =>
  call('DELETE /settings/two-factor-auth', { body: { code } });

// API tokens
export const fetchAbilities = (signal?: AbortSignal): Promise<Ability[]> =>
  call('GET /settings/api/token/abilities', { signal });
export const fetchTokens = (signal?: AbortSignal): Promise<ApiToken[]> =>
  call('GET /settings/api/tokens', { signal });
/**
 * The abilities the form chose, from the list `GET /settings/api/token/abilities` gave; the
 * server refuses any other (422 on `abilities`).
 */
type TokenValues<K extends 'POST /settings/api/token' | 'PUT /settings/api/token/{id}'> = Omit<
  BodyOf<K>,
  'abilities'
> & { abilities: string[] };
type Abilities = BodyOf<'POST /settings/api/token'>['abilities'];
export const createToken = (values: TokenValues<'POST /settings/api/token'>) =>
  call('POST /settings/api/token', {
    body: { ...values, abilities: values.abilities as Abilities },
  });
export const updateToken = (id: string, values: TokenValues<'PUT /settings/api/token/{id}'>) =>
  call('PUT /settings/api/token/{id}', {
    params: { id },
    body: { ...values, abilities: values.abilities as Abilities },
  });
export const deleteToken = (id: string) =>
  call('DELETE /settings/api/token/{id}', { params: { id } });

// Teams
export const fetchTeams = (signal?: AbortSignal): Promise<Team[]> =>
  call('GET /settings/companies', { signal });
export const createTeam = (name: string) => call('POST /settings/companies', { body: { name } });
export const switchTeam = (id: string) =>
  call('PUT /settings/companies/{id}/switch', { params: { id } });
export const fetchTeam = (id: string, signal?: AbortSignal): Promise<TeamDetails> =>
  call('GET /settings/companies/json/{id}', { params: { id }, signal });
export const renameTeam = (id: string, name: string) =>
  call('PUT /settings/companies/{id}/name', { params: { id }, body: { name } });
export const deleteTeam = (id: string) =>
  call('DELETE /settings/companies/{id}', { params: { id } });
export const fetchRoles = (signal?: AbortSignal): Promise<Option[]> =>
  call('GET /settings/companies/roles', { signal });

// Members and invitations
export const fetchTeamInvitations = (id: string, signal?: AbortSignal) =>
  call('GET /settings/companies/{id}/invitations', { params: { id }, signal });
/** A role the form chose, from the roles list; the server refuses any other (422 on `role`). */
type GivenRole = NonNullable<BodyOf<'POST /settings/companies/{id}/invitations'>['role']>;
export const sendInvitation = (id: string, values: { email: string; role: string }) =>
  call('POST /settings/companies/{id}/invitations', {
    params: { id },
    body: { email: values.email, role: values.role as GivenRole },
  });
export const cancelInvitation = (id: string) =>
  call('DELETE /settings/invitations/{id}', { params: { id } });
export const updateMemberRole = (teamId: string, userId: string, role: string) =>
  call('PUT /settings/companies/{id}/members/{userId}', {
    params: { id: teamId, userId },
    body: { role: role as GivenRole },
  });
export const removeMember = (teamId: string, userId: string) =>
  call('DELETE /settings/companies/{id}/members/{userId}', { params: { id: teamId, userId } });
export const fetchPendingInvitations = (signal?: AbortSignal): Promise<PendingInvitation[]> =>
  call('GET /settings/invitations/pending', { signal });
/** Accepting needs the code of the e-mailed link (docs/adr/0012-invitations.md "Invitations"). */
export const answerInvitation = (id: string, answer: 'accept' | 'reject', code?: string) =>
  call(
    answer === 'accept'
      ? 'POST /settings/invitations/{id}/accept'
      : 'POST /settings/invitations/{id}/reject',
    { params: { id }, body: code ? { code } : {} },
  );
/** The invitation behind a link's code (`GET /invitations/{code}`). */
export const fetchInvitationByCode = (code: string, signal?: AbortSignal) =>
  call('GET /invitations/{code}', { params: { code }, signal });

/** The answer of both photo uploads: the new photo's URL. */
type PhotoAnswer = AnswerOf<'POST /settings/photo'> &
  AnswerOf<'POST /settings/companies/{id}/photo'>;

/**
 * `POST /settings/photo` and `POST /settings/companies/{id}/photo` (docs/security.md "Sessions and
 * tokens"): uploads a profile or team photo as the multipart field `photo`.
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
  const answer = await apiUpload<PhotoAnswer>(path, form, onProgress);
  return answer.photo_url;
}
