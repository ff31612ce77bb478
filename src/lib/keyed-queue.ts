// src/lib/ holds small helpers that know nothing of games or of the service (a
// per-key queue, the logger type); it imports nothing of src/.
//
// Runs tasks one after another per key (a game), concurrently across keys. Within one
// instance this keeps commands on a game from racing each other for nothing.
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
