#!/usr/bin/env node
// Runs the toolgate CLI from its TypeScript sources (no build step after `npm ci`).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
