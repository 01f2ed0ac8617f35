/**
 * Waits until `check` holds (returns a truthy value, which it answers), asking again every
 * few milliseconds, and fails after `timeoutMs` naming `what`. For what this process is not told of
 * as it happens: another process's state, a background job's work, a row in the store. What it is
 * told of (a stream's line, a child's exit, a socket's close) is awaited as that event instead.
 */
export async function eventually<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string | (() => string),
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Awaits `promise` (an event this process is told of), failing after `timeoutMs` naming `what`. */
export async function within<T>(promise: Promise<T>, what: string, timeoutMs = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
