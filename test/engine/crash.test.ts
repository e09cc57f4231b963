import { crashSuite } from './crash-suite.js';
import { tmpHome } from './support/tmp-home.js';

crashSuite('sqlite', async () => {
  const home = tmpHome();
  return { target: home.dir, cleanup: home.cleanup };
});
