import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ENDPOINTS } from '@gl/contracts';
import { buildOpenApiDocument } from '@gl/service-kit';

/** `npm run openapi [out]`: writes the OpenAPI document generated from the zod contracts. */
const out = resolve(process.argv[2] ?? 'dist/openapi.json');
const document = buildOpenApiDocument(ENDPOINTS, {
  title: 'GitLab-compatible collaboration API v4',
  version: '4',
});
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
process.stdout.write(`wrote ${out} (${Object.keys(document.paths as object).length} paths)\n`);
