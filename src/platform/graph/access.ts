import type { UserCaller } from '../../auth/authenticate.js';
import { ProblemError, problems } from '../../http/problems.js';

/**
 * Endpoints that act for, or read the private data of, the user in the path: the path id must be
 * the authenticated user's (as on the public platform).
 */
export function requireSelf(caller: UserCaller, id: string, parameter: string, what: string): void {
  if (caller.user.id === id) return;
  throw new ProblemError(
    403,
    problems.aboutBlank(403, 'Forbidden', `You can only ${what} of the authenticated user: the \`${parameter}\` path parameter must be ${caller.user.id}.`),
  );
}

/** OAuth 1.0a permissions fully override OAuth 2.0 scopes (spec 000): a read-only token cannot write. */
export function requireWriteAccess(caller: UserCaller): void {
  if (caller.kind === 'oauth1' && caller.accessLevel === 'read') {
    throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', 'This access token has read-only permission; writing needs read-write access.'));
  }
}

/** Direct messages, read or written, need the read-write-directmessages permission of OAuth 1.0a. */
export function requireDmAccess(caller: UserCaller): void {
  if (caller.kind === 'oauth1' && caller.accessLevel !== 'read-write-directmessages') {
    throw new ProblemError(
      403,
      problems.aboutBlank(403, 'Forbidden', 'This access token is not allowed to access direct messages; it needs the read-write-directmessages permission.'),
    );
  }
}
