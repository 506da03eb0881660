import DataLoader from 'dataloader';

/**
 * Group commit: calls made while a batch is being written wait and go together as the next batch,
 * so under load concurrent callers share one statement, and an idle caller pays nothing but a turn
 * of the event loop. `run` answers one result per item, in order (an `Error` rejects only its item's
 * call); if it throws, every call of the batch rejects. One batch is written at a time, so batches
 * apply in the order they formed. A batch holds at most as many items as there are callers waiting
 * (for a broker consumer, its concurrency); `run` splits it further if it must.
 *
 * DataLoader does the gathering (without its cache: every call is its own item); the schedule waits
 * for the batch in flight.
 */
export function groupCommit<I, O>(run: (items: readonly I[]) => Promise<ReadonlyArray<O | Error>>): (item: I) => Promise<O> {
  let writing: Promise<unknown> = Promise.resolve();
  const loader = new DataLoader<I, O>((items) => {
    const batch = run(items);
    writing = batch.then(() => undefined, () => undefined);
    return batch;
  }, {
    cache: false,
    batchScheduleFn: (dispatch) => { void writing.then(() => setImmediate(dispatch)); },
  });
  return (item) => loader.load(item);
}
