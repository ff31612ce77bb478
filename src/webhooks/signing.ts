// How a delivery is signed, and how a receiver checks it: HMAC-SHA256 with the
// webhook's secret over `${timestamp}.${body}`, sent as `Spielwerk-Signature:
// t=<unix seconds>,v1=<hex>`. The timestamp lets a receiver refuse old deliveries
// (replays); the body must be checked as it arrived, before parsing.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const signatureHeader = 'spielwerk-signature';

export function signature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export function signatureValue(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signature(secret, timestamp, body)}`;
}

/** Whether `header` signs `body` with `secret`, at most `toleranceSeconds` from `now`
 * (unix seconds). What a receiver does; the tests do it too. */
export function verifySignature(secret: string, header: string | undefined, body: string, now: number, toleranceSeconds = 300): boolean {
  const parts = new Map((header ?? '').split(',').map((p) => p.split('=', 2) as [string, string]));
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1');
  if (!Number.isInteger(timestamp) || given === undefined || Math.abs(now - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signature(secret, timestamp, body), 'hex');
  const actual = Buffer.from(given, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
