import { BadRequestHttpError, KernelAttributes, LoupeResponse, SecurityAttributes, type Controller, type CredentialsVerifier, type LoupeRequest } from '../../src';

/** What a login request carries, whichever its format. */
interface LoginAttempt {
  readonly username: string;
  readonly password: string;
  readonly rememberMe: boolean;
}

export interface LoginControllerOptions {
  readonly verifier: CredentialsVerifier;
}

const TRUTHY = new Set(['1', 'on', 'true', 'yes']);

function readJson(request: LoupeRequest): LoginAttempt {
  let data: unknown;
  try {
    data = request.json();
  } catch (error) {
    // Symfony's JsonLoginAuthenticator message; the cause says where, without quoting the password.
    throw new BadRequestHttpError('Invalid JSON.', { code: 'LOUPE_ERR_HTTP_MALFORMED_JSON', cause: error });
  }
  if (typeof data !== 'object' || data === null) throw new BadRequestHttpError('Invalid JSON.', { code: 'LOUPE_ERR_HTTP_MALFORMED_JSON' });
  const { username, password, remember_me: rememberMe } = data as Record<string, unknown>;
  // Symfony's json_login messages.
  if (typeof username !== 'string') throw new BadRequestHttpError('The key "username" must be a string.');
  if (typeof password !== 'string') throw new BadRequestHttpError('The key "password" must be a string.');
  return { username, password, rememberMe: rememberMe === true || (typeof rememberMe === 'string' && TRUTHY.has(rememberMe)) };
}

function readForm(body: string): LoginAttempt {
  const form = new URLSearchParams(body);
  const username = form.get('_username');
  const password = form.get('_password');
  if (username === null) throw new BadRequestHttpError('The key "_username" must be a string.');
  if (password === null) throw new BadRequestHttpError('The key "_password" must be a string.');
  return { username, password, rememberMe: TRUTHY.has(form.get('_remember_me') ?? '') };
}

function readAttempt(request: LoupeRequest): LoginAttempt {
  const type = (request.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json' || type.endsWith('+json')) return readJson(request);
  if (type === 'application/x-www-form-urlencoded') return readForm(request.data.body?.toString('utf8') ?? '');
  throw new BadRequestHttpError('Send the credentials as JSON or as a form (application/x-www-form-urlencoded).');
}

/**
 * `POST /login`: checks JSON `{"username","password","remember_me"}` or form fields
 * `_username`, `_password`, `_remember_me`. On success the request's user is set and, when
 * asked, the remember-me listener sets its cookie on the response; a wrong password is a 401.
 */
export function createLoginController(options: LoginControllerOptions): Controller {
  return {
    name: 'login.login',
    maxBodySize: 16 * 1024,
    handle: async ({ request, attributes, log }) => {
      const attempt = readAttempt(request);
      // Async scrypt: a login must not block other requests while the hash is computed.
      const user = await options.verifier.verify(attempt.username, attempt.password, request.data.remoteAddress);
      // As JsonLoginAuthenticator::onAuthenticationFailure.
      if (user === null) return LoupeResponse.json({ error: 'Invalid credentials.' }, 401);
      attributes.set(KernelAttributes.USER, { identifier: user.identifier, roles: user.roles, via: 'form_login' });
      if (attempt.rememberMe) attributes.set(SecurityAttributes.REMEMBER_ME_REQUESTED, user.identifier);
      log('info', `Logged in "${user.identifier}".`, { remember_me: attempt.rememberMe });
      return { user: user.identifier, roles: user.roles, remember_me: attempt.rememberMe };
    },
  };
}
