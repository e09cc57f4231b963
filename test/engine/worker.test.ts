import { Engine } from '../../src/engine/engine.js';
import { tmpHome } from './support/tmp-home.js';
import { workerSuite } from './worker-suite.js';

workerSuite('sqlite', async (registry) => {
  const home = tmpHome();
  return { engine: Engine.open(home.dir, registry), cleanup: home.cleanup };
});
