import { QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import { applyFrame, keys } from '../src/realtime/apply-frame.js';
import { categoryTree } from '../src/screens/catalog/category-tree.js';
import { companyCurrency, formatMoney, minorToText, textToMinor } from '../src/screens/catalog/money.js';
import { previewStatusMessage } from '../src/screens/orders/preview.js';

/** The catalog's money (minor units shown and typed), its category order, and the order settings' message preview. */
describe('console: catalog and orders', () => {
  it('shows minor units in the currency through Intl, in the reader’s language', () => {
    expect(formatMoney(1250, 'BRL', 'pt-BR')).to.equal(new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(12.5));
    expect(formatMoney(1250, 'USD', 'en')).to.equal('$12.50');
    expect(formatMoney(1250, 'JPY', 'en')).to.equal('¥1,250');
  });

  it('reads a typed price as the server reads a spreadsheet’s, and writes one back for editing', () => {
    expect(textToMinor('12,50', 'BRL')).to.equal(1250);
    expect(textToMinor('12.50', 'USD')).to.equal(1250);
    expect(textToMinor('R$ 1.234,56', 'BRL')).to.equal(123456);
    expect(textToMinor('1250', 'JPY')).to.equal(1250);
    expect(textToMinor('twelve', 'BRL')).to.equal(null);
    expect(textToMinor('12,505', 'BRL')).to.equal(1250500);
    expect(textToMinor('1,2,3', 'BRL')).to.equal(null);
    expect(minorToText(1250, 'BRL')).to.equal('12.50');
    expect(minorToText(1250, 'JPY')).to.equal('1250');
    expect(textToMinor(minorToText(99, 'BRL'), 'BRL')).to.equal(99);
  });

  it('takes the company’s currency from its default order setting, else BRL', () => {
    expect(companyCurrency(undefined)).to.equal('BRL');
    expect(companyCurrency([{ connectionId: 3, currency: 'USD' }])).to.equal('BRL');
    expect(
      companyCurrency([
        { connectionId: 3, currency: 'USD' },
        { connectionId: null, currency: 'EUR' },
      ]),
    ).to.equal('EUR');
  });

  it('lists each top-level category followed by its subcategories', () => {
    const c = (id: number, name: string, parentId: number | null) =>
      ({ id, name, parentId, companyId: 1, description: '', position: 0, active: true, productsCount: 0, createdAt: '', updatedAt: '' }) as const;
    const tree = categoryTree([c(1, 'Vasos', null), c(2, 'Pratos', null), c(3, 'Grandes', 1), c(4, 'Fundos', 2)]);
    expect(tree.map((x) => [x.name, x.depth])).to.deep.equal([
      ['Vasos', 0],
      ['Grandes', 1],
      ['Pratos', 0],
      ['Fundos', 1],
    ]);
  });

  it('previews a status text with the example order’s variables and the conversation’s, leaving unknown ones', () => {
    const text = previewStatusMessage('Olá {{firstName}}! Pedido #{{number}}: {{total}}\n{{items}}\n{{payment}} {{unknown}}', {
      currency: 'BRL',
      paymentInstructions: 'Pix: chave@loja',
      contactName: 'Maria Souza',
      userName: 'Ana',
      companyName: 'Loja',
      connectionName: 'Sandbox',
      timeZone: 'America/Sao_Paulo',
      at: new Date('2026-12-03T15:00:00Z'),
      lines: [
        { name: 'Vaso', unitPrice: 4990, quantity: 2 },
        { name: 'Prato', unitPrice: 1500, quantity: 1 },
      ],
    });
    const money = (n: number) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(n);
    expect(text).to.equal(`Olá Maria! Pedido #42: ${money(124.8)}\n2x Vaso — ${money(99.8)}\n1x Prato — ${money(15)}\nPix: chave@loja {{unknown}}`);
  });

  it('applies the catalog’s and the orders’ frames: an import’s record kept as sent, the lists read again', () => {
    const client = new QueryClient();
    const record = {
      id: 3,
      status: 'processing',
      processed: 500,
      total: 900,
      failed: 1,
      errors: [{ row: 4, field: 'price', error: 'ERR_PRODUCT_INVALID_PRICE' }],
    };
    applyFrame(client, { seq: 1, event: 'company-1-productImport', data: { action: 'progress', record } });
    expect(client.getQueryData(keys.productImport)).to.deep.equal(record);
    for (const [event, key] of [
      ['company-1-product', [...keys.catalog, 'products', '', null]],
      ['company-1-category', [...keys.catalog, 'categories']],
      ['company-1-order', [...keys.orders, 'column', 'new', '']],
    ] as const) {
      client.setQueryData(key, { seen: true });
      expect(client.getQueryState(key)!.isInvalidated).to.equal(false);
      applyFrame(client, { seq: 2, event, data: { action: 'update' } });
      expect(client.getQueryState(key)!.isInvalidated, event).to.equal(true);
    }
  });
});
