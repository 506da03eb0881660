import { expect } from 'chai';
import { BOM, csvCell, toCsv } from '../src/screens/contacts/csv.js';

describe('console: the contacts CSV export', () => {
  it('quotes every field, doubling its quotes, and keeps line breaks and commas inside the field', () => {
    expect(csvCell('Maria "Mary" Souza')).to.equal('"Maria ""Mary"" Souza"');
    expect(csvCell('a,b\nc')).to.equal('"a,b\nc"');
    expect(csvCell(null)).to.equal('""');
    expect(csvCell(5511988887777)).to.equal('"5511988887777"');
  });

  it('leads a cell a spreadsheet would run as a formula with an apostrophe', () => {
    for (const bad of ['=HYPERLINK("http://x")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])
      expect(csvCell(bad), bad).to.equal(`"'${bad.replace(/"/g, '""')}"`);
    expect(csvCell('Maria = Souza')).to.equal('"Maria = Souza"');
  });

  it('starts with the byte-order mark and ends every line with CRLF', () => {
    const csv = toCsv(['Name', 'Number'], [['José', '5511988887777']]);
    expect(csv.startsWith(BOM)).to.equal(true);
    expect(csv.slice(1)).to.equal('"Name","Number"\r\n"José","5511988887777"\r\n');
  });
});
