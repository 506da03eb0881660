import { describeApi } from '@servicedesk/backend/api-description';
import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = "// Generated from the backend's route declarations by `npm run generate:api -w packages/console`. Do not edit.\n";

/** The source of src/api/schema.gen.ts for the routes as they are declared now. */
export async function apiTypes(): Promise<string> {
  // The types only: the prose and examples stay in the document (/docs), not in the console's source.
  const doc = JSON.parse(JSON.stringify(describeApi()), (key, value) =>
    ['description', 'example', 'examples', 'summary'].includes(key) && typeof value !== 'object' ? undefined : key === 'examples' ? undefined : value,
  );
  const ast = await openapiTS(doc as never, { alphabetize: true });
  return HEADER + astToString(ast);
}
