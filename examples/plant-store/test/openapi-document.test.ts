import { expect } from 'chai';
import { collectRefs, openApiDocument as doc, resolvePointer, schemaAt } from './openapi-validator.js';

describe('openapi.json (the checked-in contract)', () => {
  it('has the OpenAPI 3.1 essentials', () => {
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.info.version).to.equal('1.0.0');
    expect(doc.info.license).to.deep.equal({ name: 'MIT', identifier: 'MIT' });
    expect(doc.paths).to.be.an('object').that.has.all.keys('/plants', '/plants/{id}', '/openapi.json');
  });

  it('resolves every $ref', () => {
    const refs = collectRefs(doc);
    expect(refs).to.not.be.empty;
    for (const ref of refs) expect(resolvePointer(doc, ref), ref).to.not.equal(undefined);
  });

  it('documents every status the API sends per operation', () => {
    expect(doc.paths['/plants']?.['get']).to.have.nested.property('responses').that.includes.keys('200', '400', '401');
    expect(doc.paths['/plants/{id}']?.['delete']).to.have.nested.property('responses').that.includes.keys('204', '400', '401', '404');
    expect(resolvePointer(doc, '#/paths/~1plants~1{id}/delete/responses/204/content')).to.equal(undefined);
  });

  it('secures the plant operations with a bearer scheme and leaves the document public', () => {
    expect(resolvePointer(doc, '#/components/securitySchemes/bearerAuth')).to.include({ type: 'http', scheme: 'bearer' });
    expect(resolvePointer(doc, '#/security')).to.deep.equal([{ bearerAuth: [] }]);
    expect(resolvePointer(doc, '#/paths/~1openapi.json/get/security')).to.deep.equal([]);
  });

  it('compiles the Plant and Error schemas, which accept and reject what they should', () => {
    const plant = schemaAt('#/components/schemas/Plant');
    expect(plant({ id: 1, name: 'Fern', tag: 'shade' })).to.equal(true);
    expect(plant({ name: 'Fern' })).to.equal(true);
    expect(plant({ id: 1, tag: 'shade' }), 'name is required').to.equal(false);
    expect(plant({ id: 1.5, name: 'Fern' }), 'id is an integer').to.equal(false);

    const error = schemaAt('#/components/schemas/Error');
    expect(error({ error: 404, message: 'No plant with id 9' })).to.equal(true);
    expect(error({ error: 404 }), 'message is required').to.equal(false);
    expect(error({ error: 2 ** 31, message: 'x' }), 'error is int32').to.equal(false);
  });
});
