import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { openEngine } from '../../../src/cli/engine.js';
import { openDatabase } from '../../../src/engine/sqlite/open-database.js';
import { buildApp } from '../../../src/server/app.js';

/**
 * The real app over a real store in `home`, logging at `level` to `file`, with one extra GET route (a fault,
 * a broken stream) for what the logs must say of it. Runs `use` and closes app, engine and store after.
 */
export async function withOneRoute(
  home: string,
  log: { level: string; file: string },
  path: string,
  handler: RouteHandlerMethod,
  use: (app: FastifyInstance) => Promise<void>,
): Promise<void> {
  const engine = await openEngine({ home });
  const db = openDatabase(home);
  const app = await buildApp({
    engine,
    db,
    home,
    logger: { level: log.level, destination: log.file },
    areas: [
      {
        name: path.slice(1),
        routes: [],
        register: async (scope) => {
          scope.get(path, handler);
        },
      },
    ],
  });
  try {
    await use(app);
  } finally {
    await app.close();
    await engine.close();
    db.close();
  }
}
