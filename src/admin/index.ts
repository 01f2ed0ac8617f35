import { AdjustableClock } from '../clock.js';
import type { PlatformContext } from '../platform/context.js';
import { hashToken } from '../auth/tokens.js';
import type { Listener } from '../http/server.js';
import { ClockControl } from './clock.js';
import { FaultBook } from './faults.js';
import { adminRoutes } from './routes.js';
import { ensureAdminToken } from './token.js';

export interface Admin {
  /** The admin token, for the credentials file and the banner. */
  token: string;
  close(): void;
}

/**
 * Starts the admin interface on the platform listener (before it listens): the token, the clock
 * control (when the clock is adjustable) and the fault book, which the interfaces consult through ctx.faults.
 */
export async function startAdmin(ctx: PlatformContext, platform: Listener): Promise<Admin> {
  if (!(ctx.clock instanceof AdjustableClock)) throw new Error('the admin interface needs the adjustable clock of src/app.ts');
  const token = await ensureAdminToken(ctx);
  const clock = new ClockControl(ctx, ctx.clock);
  const faults = new FaultBook(ctx);
  await clock.start();
  await faults.start();
  ctx.faults = faults;
  await platform.register(adminRoutes(ctx, { tokenHash: hashToken(token), clock, faults }));
  return {
    token,
    close() {
      clock.close();
      faults.close();
    },
  };
}
