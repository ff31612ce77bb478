// Writes to one connection within one tick leave together. A command's ack and the
// update its own commit pushes to the same socket are sent a few promise jobs apart;
// uncorked, each was a write system call of its own (the largest item of the server's
// profile at K=1 was writing to sockets), and the client woke up for each.
interface Corkable {
  cork(): void;
  uncork(): void;
}

/** Returns a function to call before each write to `connection`: the first in a tick
 * corks it, and it is uncorked once the promise jobs queued so far have run
 * (process.nextTick comes after them), so nothing waits past the current tick. */
export function tickCorker(connection: Corkable): () => void {
  let corked = false;
  const uncork = () => {
    corked = false;
    connection.uncork();
  };
  return () => {
    if (corked) return;
    corked = true;
    connection.cork();
    process.nextTick(uncork);
  };
}

/** tickCorker for the connection under a `ws` WebSocket, which keeps it as `_socket`
 * (there is no public accessor); test/routes/live-writes.test.ts checks that it is
 * still there. */
export function socketCorker(socket: object): () => void {
  const connection = (socket as { _socket?: Partial<Corkable> })._socket;
  return typeof connection?.cork === 'function' && typeof connection.uncork === 'function' ? tickCorker(connection as Corkable) : () => {};
}
