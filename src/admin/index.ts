import { AdjustableClock } from '../clock.js';
import type { PlatformContext } from '../platform/context.js';
import { hashToken } from '../auth/tokens.js';
import type { Listener } from '../http/server.js';
import { ClockControl } from './clock.js';
import { FaultBook } from './faults.js';
import { adminRoutes, type AdminDeps } from './routes.js';
import { ensureAdminToken } from './token.js';

export interface Admin {
  /** The admin token, for the credentials file and the banner. */
  token: string;
}

/** What the admin interface keeps for one world (src/worlds/world.ts): its clock control and fault book. */
export interface WorldAdmin {
  clock: ClockControl;
  faults: FaultBook;
  close(): void;
}

/** The clock control and the fault book of a world, which its interfaces consult through ctx.faults. */
export async function startWorldAdmin(ctx: PlatformContext): Promise<WorldAdmin> {
  if (!(ctx.clock instanceof AdjustableClock)) throw new Error('the admin interface needs the adjustable clock of src/worlds/world.ts');
  const clock = new ClockControl(ctx, ctx.clock);
  const faults = new FaultBook(ctx);
  await clock.start();
  try {
    await faults.start();
  } catch (err) {
    clock.close();
    throw err;
  }
  ctx.faults = faults;
  return {
    clock,
    faults,
    close() {
      clock.close();
      faults.close();
    },
  };
}

/**
 * Starts the admin interface on the platform listener (before it listens): the token (kept in the
 * default world's store) and the routes, which act on the world of the request.
 */
export async function startAdmin(ctx: PlatformContext, platform: Listener, worlds: Omit<AdminDeps, 'tokenHash'>): Promise<Admin> {
  const token = await ensureAdminToken(ctx);
  await platform.register(adminRoutes(ctx, { tokenHash: hashToken(token), ...worlds }));
  return { token };
}
