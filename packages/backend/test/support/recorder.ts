/**
 * Keeps everything a realtime client received and waits for the item a test needs: what the raw
 * websocket and the socket.io test clients share. `what` names the items in a timeout's message.
 */
export function recorder<T>(what: string) {
  const items: T[] = [];
  const waiters = new Set<() => void>();
  return {
    items,
    push(item: T) {
      items.push(item);
      for (const w of [...waiters]) w();
    },
    /** Resolves with the first item (already seen or still to come) that matches. */
    waitFor(match: (item: T) => boolean, ms: number): Promise<T> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = items.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching ${what} in ${ms} ms (${items.length} seen)`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
  };
}
