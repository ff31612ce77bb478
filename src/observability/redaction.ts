// What no log line may carry: secret tokens. Apart from the request log, so that the
// process can make its logger before it loads the web framework (server.ts).

/** The live socket's `?token=` is a seat's secret: no log line may carry it. */
export const redactUrl = (url: string): string => url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');

/** For pino's `redact`: where a logged object could hold a token. */
export const secretPaths = ['req.headers.authorization', 'headers.authorization', 'authorization', 'token', '*.token'];
