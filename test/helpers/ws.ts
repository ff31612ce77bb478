// A WebSocket to an app, through injectWS or over real TCP, whose messages are read one
// by one in order.
import WebSocket from 'ws';
import type { App } from '../../src/app.ts';

export interface Inbox {
  socket: WebSocket;
  /** Resolves with the next message, in arrival order. */
  next(): Promise<any>;
  closed: Promise<{ code: number; reason: string }>;
}

export async function connect(app: App, path: string, headers: Record<string, string> = {}): Promise<Inbox> {
  let reading!: Omit<Inbox, 'socket'>;
  const socket = await app.injectWS(path, { headers } as never, { onInit: (ws) => (reading = read(ws)) });
  return { socket, ...reading };
}

/** The same over a TCP connection to `url` (ws://…), for what only a real upgrade shows. */
export async function connectTcp(url: string): Promise<Inbox> {
  const socket = new WebSocket(url);
  const reading = read(socket);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return { socket, ...reading };
}

function read(ws: WebSocket): Omit<Inbox, 'socket'> {
  const queue: any[] = [];
  const waiting: ((m: any) => void)[] = [];
  let closed!: (c: { code: number; reason: string }) => void;
  const closedPromise = new Promise<{ code: number; reason: string }>((r) => (closed = r));
  ws.on('message', (raw) => {
    const message = JSON.parse(raw.toString());
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  ws.on('close', (code, reason) => closed({ code, reason: reason.toString() }));
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
  return { next, closed: closedPromise };
}
