import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cyrillicAddress } from './address-cyrillic.js';
import { findAddresses } from './address.js';

describe('cyrillicAddress: the town after its marker, as Russian and Ukrainian sites write addresses', () => {
  it('reads the town, as the page writes it, and the street after it', () => {
    const a = cyrillicAddress('г. Москва, ул. Ярославская, д. 10, корп. 4');
    assert.deepEqual([a?.city, a?.country, a?.street], ['Москва', 'RU', 'ул. Ярославская, д. 10, корп. 4']);
    assert.equal(cyrillicAddress('Или приехать к нам в гости: г.Уфа ул,Индустриальное шоссе 44/1, ЦТР 2 этаж')?.city, 'Уфа');
    assert.equal(cyrillicAddress('г. Ростов-на-Дону, пр. Ворошиловский, 2')?.city, 'Ростов-на-Дону');
    assert.equal(cyrillicAddress('м. Київ, вул. Хрещатик, 22')?.country, 'UA');
  });

  it('prefers the longest town the gazetteer knows and counts a postcode', () => {
    const a = cyrillicAddress('603000, г. Нижний Новгород, ул. Большая Покровская, 1');
    assert.deepEqual([a?.city, a?.postalCode], ['Нижний Новгород', '603000']);
    assert.ok(a!.confidence > cyrillicAddress('г. Новосибирск, ул. Никитина, 162')!.confidence);
  });

  it('needs a street, a building or a postcode on the line, and a town the gazetteer knows', () => {
    assert.equal(cyrillicAddress('Мы работаем в г. Уфа с 2001 года'), undefined);
    assert.equal(cyrillicAddress('г. Небывалово, ул. Ленина, 1'), undefined);
    assert.equal(cyrillicAddress('Dentist in Moscow, 10 Main St'), undefined);
  });

  it('is one of the addresses findAddresses reads from a page', () => {
    const found = findAddresses(['Контакты', 'г. Новосибирск, ул. Никитина, 162, 1этаж', '+7 (383) 123-45-67']);
    assert.deepEqual(found.map((a) => [a.city, a.country]), [['Новосибирск', 'RU']]);
  });
});
