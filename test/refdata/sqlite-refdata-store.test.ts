import { openRefdataStore } from '../../src/refdata/open-store.js';
import { tmpHome } from '../engine/support/tmp-home.js';
import { testRefdataStore } from './refdata-store-conformance.js';

testRefdataStore('sqlite', async () => {
  const home = tmpHome('assay-refdata-sqlite-');
  return {
    open: (metaTtlMs) => openRefdataStore({ home: home.dir, metaTtlMs }),
    cleanup: home.cleanup,
  };
});
