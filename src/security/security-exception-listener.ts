import { AuthenticationHttpError } from '../errors/http-error';
import { LoupeResponse } from '../http/response';
import { defineListener } from '../kernel/listener';

/**
 * Symfony's security ExceptionListener (kernel.exception, 1, before the error listener logs): an
 * authentication failure of the firewall is answered by its entry point, as
 * HttpBasicAuthenticator::start does: `401` with `WWW-Authenticate` and an empty body. No error
 * sub-request renders it and no `X-Debug-Exception` is sent: it is the protocol, not an error.
 */
export const securityExceptionListener = defineListener('SecurityExceptionListener', {
  'kernel.exception': [
    1,
    (event) => {
      const { error } = event;
      if (!(error instanceof AuthenticationHttpError)) return;
      event.log('info', `Authentication required: ${error.message}`, { challenge: error.challenge });
      event.setResponse(new LoupeResponse('', 401, { 'WWW-Authenticate': error.challenge }));
    },
  ],
});
