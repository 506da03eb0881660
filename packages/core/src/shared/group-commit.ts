/**
 * Group commit: calls made while a batch is being written wait and go together as the next batch,
 * so under load concurrent callers share one statement, and an idle caller pays nothing but a turn
 * of the event loop (calls made in that turn join it). `run` answers one result per item, in order
 * (an `Error` rejects only its item's call); if it throws, every call of the batch rejects. One
 * batch is written at a time, so batches apply in the order they formed. A batch holds at most as
 * many items as there are callers waiting (for a broker consumer, its concurrency); `run` splits it
 * further if it must.
 */
export function groupCommit<I, O>(run: (items: readonly I[]) => Promise<ReadonlyArray<O | Error>>): (item: I) => Promise<O> {
  type Waiting = { readonly item: I; readonly resolve: (value: O) => void; readonly reject: (reason: unknown) => void };
  let queue: Waiting[] = [];
  let writing = false;

  const write = async () => {
    const batch = queue;
    queue = [];
    writing = true;
    try {
      const results = await run(batch.map((w) => w.item));
      batch.forEach((w, i) => {
        const result = results[i];
        if (result instanceof Error) w.reject(result);
        else if (i >= results.length) w.reject(new Error(`groupCommit: ${results.length} results for ${batch.length} items`));
        else w.resolve(result as O);
      });
    } catch (err) {
      for (const w of batch) w.reject(err);
    } finally {
      writing = false;
      if (queue.length) setImmediate(write);
    }
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (queue.length === 1 && !writing) setImmediate(write);
    });
}
