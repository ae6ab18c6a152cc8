import { defineConfig } from 'toolgate';
import { lampsDomain } from './lamps-domain.ts';

/** The lamps module as a team would serve and evaluate it: `toolgate eval --config` this file. */
export default defineConfig({ modules: [lampsDomain] });
