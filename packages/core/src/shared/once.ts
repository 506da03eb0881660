/**
 * The value of `make`, made on the first call and shared by every later one. A failure is not
 * kept: the next call tries again (a library that could not load, a client that could not start).
 */
export function onceAsync<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make().catch((err: unknown) => {
      made = undefined;
      throw err;
    });
    return made;
  };
}
