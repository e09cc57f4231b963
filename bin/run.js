#!/usr/bin/env node
// oclif from its pre-built bundle and code cache when `npm run build` made them (src/cli/oclif-bundle.ts),
// registered as '@oclif/core' before anything imports it; else from node_modules.
import { loadOclifBundle } from '../dist/src/cli/oclif-bundle.js';

const bundle = loadOclifBundle(new URL('../dist/vendor/', import.meta.url));
const { execute } = bundle ? bundle.module.exports : await import('@oclif/core');
await execute({ dir: import.meta.url });
