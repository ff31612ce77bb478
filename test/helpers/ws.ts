// A WebSocket to an app through injectWS, whose messages are read one by one in order.
import type { WebSocket } from 'ws';
import type { App } from '../../src/app.ts';

export interface Inbox {
  socket: WebSocket;
  /** Resolves with the next message, in arrival order. */
  next(): Promise<any>;
  closed: Promise<{ code: number; reason: string }>;
}

export async function connect(app: App, path: string, headers: Record<string, string> = {}): Promise<Inbox> {
  const queue: any[] = [];
  const waiting: ((m: any) => void)[] = [];
  let closed!: (c: { code: number; reason: string }) => void;
  const closedPromise = new Promise<{ code: number; reason: string }>((r) => (closed = r));
  const socket = await app.injectWS(path, { headers } as never, {
    onInit: (ws) => {
      ws.on('message', (raw) => {
        const message = JSON.parse(raw.toString());
        const waiter = waiting.shift();
        if (waiter) waiter(message);
        else queue.push(message);
      });
      ws.on('close', (code, reason) => closed({ code, reason: reason.toString() }));
    },
  });
  const next = () =>
    queue.length > 0
      ? Promise.resolve(queue.shift())
      : new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('no message within 5 s')), 5000);
          waiting.push((m) => {
            clearTimeout(timer);
            resolve(m);
          });
        });
  return { socket, next, closed: closedPromise };
}
