import { expect } from 'chai';
import { describeApi } from '../../src/api-description.js';
import { requestDocGaps } from '../support/openapi-checks.js';

describe('docs: the request side of the OpenAPI document', function () {
  this.timeout(60_000);
  it('describes every request field and parameter, and gives every request body an example', () => {
    const gaps = requestDocGaps(describeApi() as never);
    // `node --conditions=source --import tsx packages/backend/test/support/openapi-gaps-report.ts` lists them by tag.
    expect(gaps, gaps.slice(0, 40).join('\n')).to.deep.equal([]);
  });

  it('(the check itself finds an undescribed field, parameter and a body without an example)', () => {
    const doc = {
      paths: {
        '/x': {
          post: {
            parameters: [{ in: 'query', name: 'q', schema: { type: 'string' } }],
            requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { a: { type: 'string' } } } } } },
          },
        },
      },
    };
    expect(requestDocGaps(doc)).to.deep.equal([
      'POST /x: query parameter q',
      'POST /x: application/json field a',
      'POST /x: application/json body has no example',
    ]);
  });
});
