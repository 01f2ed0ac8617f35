// Loaded into every test process by scripts/test.mjs (node --import). Node 20's test runner
// enables an async hook with a destroy callback for every async resource of the process, every
// promise included, only to tell which test an uncaught error belongs to. The servers under test
// run in the test's process and make promises by the million: the hook cost a sixth of the suite's
// CPU (measured: 548 s of CPU for the SQLite pass with it, 459 s without). This hands the test
// runner an inert hook instead; an uncaught error still fails the file it happens in, and is
// reported against the file rather than the test. Every other caller of createHook is untouched.
import asyncHooks from 'node:async_hooks';

const createHook = asyncHooks.createHook;
asyncHooks.createHook = function createHookOutsideTheTestRunner(callbacks) {
  if (new Error().stack?.includes('internal/test_runner/harness')) {
    asyncHooks.createHook = createHook;
    const inert = { enable: () => inert, disable: () => inert };
    return inert;
  }
  return createHook.call(this, callbacks);
};
